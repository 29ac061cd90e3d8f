package console

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/notice"
)

func TestNoticeIsValidated(t *testing.T) {
	f := newContentFixture(t)
	tests := []struct {
		name  string
		text  string
		until time.Time
		want  string
	}{
		{"no text", "", t0.Add(time.Hour), "text"},
		{"only spaces", "   ", t0.Add(time.Hour), "text"},
		{"too long", strings.Repeat("ü", MaxNoticeRunes+1), t0.Add(time.Hour), "at most 120"},
		{"two lines", "Pit closed\nfor inspection", t0.Add(time.Hour), "one line"},
		{"tab", "Pit\tclosed", t0.Add(time.Hour), "one line"},
		{"no end", "Pit closed", time.Time{}, "future"},
		{"ended", "Pit closed", t0.Add(-time.Minute), "future"},
		{"ends now", "Pit closed", t0, "future"},
		{"too far", "Pit closed", t0.Add(MaxNoticeDuration + time.Second), "at most 24h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := f.do(alice, "PUT", "/admin/api/notice", notice.Notice{Text: tt.text, Until: tt.until})
			if w.Code != http.StatusBadRequest || !strings.Contains(errorOf(t, w), tt.want) {
				t.Errorf("%d %s, want 400 with %q", w.Code, w.Body, tt.want)
			}
		})
	}
	var got notice.Notice
	f.must(http.StatusOK, &got, alice, "GET", "/admin/api/notice", nil)
	if got != (notice.Notice{}) {
		t.Errorf("after refused notices: %+v", got)
	}
	// The limits themselves are allowed.
	longest := strings.Repeat("ü", MaxNoticeRunes)
	f.must(http.StatusOK, &got, alice, "PUT", "/admin/api/notice", notice.Notice{Text: " " + longest + " ", Until: t0.Add(MaxNoticeDuration)})
	if got.Text != longest {
		t.Errorf("text %q, want trimmed", got.Text)
	}
}

func TestNoticeIsSetReadExpiresAndIsTakenDown(t *testing.T) {
	f := newContentFixture(t)
	until := t0.Add(150 * time.Minute)
	var got notice.Notice
	f.must(http.StatusOK, &got, alice, "PUT", "/admin/api/notice", notice.Notice{Text: "Team at the practice field until 14:30", Until: until})
	want := notice.Notice{Text: "Team at the practice field until 14:30", Until: until, By: "Alice", At: t0}
	if !got.Until.Equal(want.Until) || got.Text != want.Text || got.By != want.By || !got.At.Equal(want.At) {
		t.Errorf("put %+v, want %+v", got, want)
	}
	f.must(http.StatusOK, &got, bob, "GET", "/admin/api/notice", nil)
	if got.Text != want.Text || !got.Until.Equal(until) {
		t.Errorf("get %+v, want %+v", got, want)
	}
	f.clk.Advance(150*time.Minute - time.Second)
	if f.must(http.StatusOK, &got, bob, "GET", "/admin/api/notice", nil); got.Text == "" {
		t.Error("gone a second before its end")
	}
	f.clk.Advance(time.Second)
	if f.must(http.StatusOK, &got, bob, "GET", "/admin/api/notice", nil); got != (notice.Notice{}) {
		t.Errorf("at its end: %+v, want the empty notice", got)
	}

	f.must(http.StatusOK, &got, alice, "PUT", "/admin/api/notice", notice.Notice{Text: "Pit closed for inspection", Until: f.clk.Now().Add(time.Hour)})
	f.must(http.StatusOK, &got, bob, "DELETE", "/admin/api/notice", nil)
	if got.Text != "" || got.By != "Bob" {
		t.Errorf("delete answered %+v", got)
	}
	if f.must(http.StatusOK, &got, alice, "GET", "/admin/api/notice", nil); got != (notice.Notice{}) {
		t.Errorf("after delete: %+v, want the empty notice", got)
	}
}
