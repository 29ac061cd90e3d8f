package news

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseFile(t *testing.T) {
	date := time.Date(2026, 1, 10, 12, 0, 0, 0, time.FixedZone("", -6*3600))
	tests := []struct {
		name    string
		src     string
		want    Article
		wantErr string
	}{
		{"bare title", "---\ntitle: Kickoff\ndate: 2026-01-10T12:00:00-06:00\n---\nBody\n", Article{ID: "k", Title: "Kickoff", Date: date, Content: "Body\n"}, ""},
		{"quoted title with colon", "---\ntitle: \"Week 1: build\"\ndate: 2026-01-10T12:00:00-06:00\n---\n\nBody", Article{ID: "k", Title: "Week 1: build", Date: date, Content: "Body"}, ""},
		{"comments and CRLF", "---\r\n# note\r\ntitle: A\r\ndate: 2026-01-10T12:00:00-06:00\r\n---\r\nB", Article{ID: "k", Title: "A", Date: date, Content: "B"}, ""},
		{"empty body", "---\ntitle: A\ndate: 2026-01-10T12:00:00-06:00\n---", Article{ID: "k", Title: "A", Date: date}, ""},
		{"no front matter", "Body only", Article{}, "must start with"},
		{"unclosed", "---\ntitle: A\n", Article{}, "no closing"},
		{"missing title", "---\ndate: 2026-01-10T12:00:00-06:00\n---\n", Article{}, "no title"},
		{"missing date", "---\ntitle: A\n---\n", Article{}, "no date"},
		{"bad date", "---\ntitle: A\ndate: Jan 10\n---\n", Article{}, "not RFC 3339"},
		{"unknown key", "---\ntitle: A\nauthor: B\n---\n", Article{}, "unknown key"},
		{"not key value", "---\ntitle A\n---\n", Article{}, "want key: value"},
		{"broken quote", "---\ntitle: \"A\ndate: 2026-01-10T12:00:00-06:00\n---\n", Article{}, "bad quoted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFile("k", []byte(tt.src))
			if tt.wantErr != "" {
				if err == nil || !errors.Is(err, ErrFrontMatter) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseFile error = %v, want ErrFrontMatter containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != tt.want.ID || got.Title != tt.want.Title || !got.Date.Equal(tt.want.Date) || got.Content != tt.want.Content {
				t.Fatalf("ParseFile = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func FuzzFrontMatterRoundTrip(f *testing.F) {
	f.Add("Kickoff", "# Hi\n\nbody", int64(1767000000))
	f.Add("a \"quoted\": title", "---\nnot front matter\n---\n", int64(0))
	f.Add("<b>&amp;</b>\n", "\n\nleading blank lines", int64(-5))
	f.Fuzz(func(t *testing.T, title, content string, unix int64) {
		// Arbitrary bytes must never crash the parser.
		_, _ = ParseFile("x", []byte(content))
		title = strings.TrimSpace(title)
		if title == "" || strings.ContainsRune(title, '\uFFFD') {
			return
		}
		// Line ends are normalised and leading blank lines dropped on reading.
		content = strings.TrimLeft(normalizeNewlines(content), "\n")
		a := Article{ID: "x", Title: title, Content: content, Date: time.Unix(unix%(1<<40), 0).UTC()}
		got, err := ParseFile("x", FormatFile(a))
		if err != nil {
			t.Fatalf("ParseFile(FormatFile(%+v)): %v", a, err)
		}
		if got.Title != a.Title || got.Content != a.Content || !got.Date.Equal(a.Date) {
			t.Fatalf("round trip changed the article:\n got %+v\nwant %+v", got, a)
		}
	})
}

func TestValidateID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"kickoff-2026", true},
		{"Ünïcode ok", true},
		{strings.Repeat("a", MaxIDBytes), true},
		{strings.Repeat("a", MaxIDBytes+1), false},
		{"", false},
		{".", false},
		{"..", false},
		{"a/b", false},
		{"__reserved__", false},
		{"__half", true},
	}
	for _, tt := range tests {
		t.Run(tt.id[:min(len(tt.id), 20)], func(t *testing.T) {
			err := ValidateID(tt.id)
			if (err == nil) != tt.ok {
				t.Fatalf("ValidateID(%q) = %v, want ok=%v", tt.id, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrInvalidID) {
				t.Fatalf("ValidateID(%q) = %v, want ErrInvalidID", tt.id, err)
			}
		})
	}
}

func TestSlug(t *testing.T) {
	tests := map[string]string{
		"Build season by the numbers!": "build-season-by-the-numbers",
		"  Week 1: Kickoff  ":          "week-1-kickoff",
		"¡¿?!":                         "article",
		strings.Repeat("ab ", 100):     strings.TrimSuffix(strings.Repeat("ab-", 27), "-")[:80],
	}
	for in, want := range tests {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
