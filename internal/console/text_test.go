package console

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/notice"
)

func TestCheckLine(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		max   int
		want  lineFault
		wantR rune
	}{
		{"empty", "", 3, lineOK, 0},
		{"at the limit, counted in characters", "héé", 3, lineOK, 0},
		{"emoji and accents", "Équipe 🤖", 10, lineOK, 0},
		{"one character too many", "abcd", 3, lineTooLong, 0},
		{"not UTF-8", "a\xffb", 10, lineNotUTF8, 0},
		{"not UTF-8 wins over too long", "abcd\xff", 3, lineNotUTF8, 0},
		{"a line break", "a\nb", 10, lineHidden, '\n'},
		{"a tab", "a\tb", 10, lineHidden, '\t'},
		{"the first of two", "a\u200Bb\u202Ec", 10, lineHidden, 0x200B},
		{"a byte order mark", "\uFEFFa", 10, lineHidden, 0xFEFF},
		{"a next line (C1 control)", "a\u0085b", 10, lineHidden, 0x85},
		{"too long wins over a line break", "a\nbcd", 3, lineTooLong, 0},
		{"an emoji joined of two (mechanic)", "Pit crew \U0001F9D1\u200D\U0001F527", 20, lineOK, 0},
		{"a joined emoji with a skin tone", "\U0001F469\U0001F3FD\u200D\U0001F4BB", 10, lineOK, 0},
		{"a joined emoji after the emoji selector", "\U0001F3F3\uFE0F\u200D\U0001F308", 10, lineOK, 0},
		{"a joiner between letters", "Ad\u200Da", 10, lineHidden, 0x200D},
		{"a joiner at the end of an emoji", "\U0001F916\u200D", 10, lineHidden, 0x200D},
		{"a joiner before a letter", "\U0001F916\u200Da", 10, lineHidden, 0x200D},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, r := checkLine(tt.in, tt.max); got != tt.want || r != tt.wantR {
				t.Errorf("checkLine(%q, %d) = %d, %U; want %d, %U", tt.in, tt.max, got, r, tt.want, tt.wantR)
			}
		})
	}
}

func TestDescribeRune(t *testing.T) {
	for _, tt := range []struct {
		r    rune
		want string
	}{
		{0x202E, "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{0x0A, "U+000A LINE FEED"},
		{0x07, "U+0007"},
		{0xE0041, "U+E0041"},
	} {
		if got := describeRune(tt.r); got != tt.want {
			t.Errorf("describeRune(%U) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestBrokenRule(t *testing.T) {
	rule := errors.New("invalid thing")
	err := fmt.Errorf("%w: the text is not valid UTF-8", rule)
	if got, want := brokenRule(err, rule), "The text is not valid UTF-8"; got != want {
		t.Errorf("brokenRule = %q, want %q", got, want)
	}
}

// Names, passkey names, pit notices and post titles are shown as one line
// to others (the members page, the pit display, the site): a character
// that reorders or hides text, or breaks the line, is refused by name.
func TestOneLineTextsRefuseInvisibleAndReorderingCharacters(t *testing.T) {
	chars := []struct {
		name, text, want string
	}{
		{"right-to-left override", "Ada\u202Egpj.exe", "contains U+202E RIGHT-TO-LEFT OVERRIDE; remove it"},
		{"right-to-left isolate", "Ada\u2067x", "contains U+2067 RIGHT-TO-LEFT ISOLATE; remove it"},
		{"zero-width space", "Ad\u200Ba", "contains U+200B ZERO WIDTH SPACE; remove it"},
		{"line separator", "Ada\u2028Admin", "contains U+2028 LINE SEPARATOR; remove it"},
		{"paragraph separator", "Ada\u2029Admin", "contains U+2029 PARAGRAPH SEPARATOR; remove it"},
		{"a format character without a common name", "Ada\U000E0041", "contains U+E0041; remove it"},
		{"a line break", "Ada\nAdmin", "contains U+000A LINE FEED; remove it"},
	}
	f := newAuthFixture(t)
	_, ada, _ := f.member(RoleAdmin, "Ada")
	cf := newContentFixture(t)
	surfaces := []struct {
		name string
		send func(text string) *httptest.ResponseRecorder
	}{
		{"member's name", func(text string) *httptest.ResponseRecorder {
			return f.send(f.c, request{method: "POST", path: "/admin/api/invitations", cookie: ada, body: invitationRequest{Role: RoleEditor, Name: text}})
		}},
		{"passkey's name", func(text string) *httptest.ResponseRecorder {
			var cer Ceremony
			f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/passkeys/begin", cookie: ada})
			finish := f.create(newKey(), cer)
			finish.Name = text
			return f.send(f.c, request{method: "POST", path: "/admin/api/passkeys/finish", cookie: ada, body: finish})
		}},
		{"pit notice", func(text string) *httptest.ResponseRecorder {
			return cf.do(alice, "PUT", "/admin/api/notice", notice.Notice{Text: text, Until: t0.Add(time.Hour)})
		}},
		{"post title", func(text string) *httptest.ResponseRecorder {
			return cf.do(alice, "POST", "/admin/api/posts", PostFields{Title: text, Date: t0, Content: "x"})
		}},
	}
	for _, s := range surfaces {
		for _, ch := range chars {
			t.Run(s.name+", "+ch.name, func(t *testing.T) {
				w := s.send(ch.text)
				if w.Code != http.StatusBadRequest || !strings.Contains(errorOf(t, w), ch.want) {
					t.Errorf("%d %s, want 400 with %q", w.Code, w.Body, ch.want)
				}
			})
		}
	}
	if n := len(f.docs(collInvitations)); n != 0 {
		t.Errorf("%d invitations stored, want none", n)
	}
}
