package news

import "testing"

func TestExcerpt(t *testing.T) {
	for _, tt := range []struct {
		md   string
		max  int
		want string
	}{
		{"# Kickoff\n\nWe **built** a [robot](/news/robot).", 100, "Kickoff We built a robot ."},
		{"one two three four five", 12, "one two…"},
		{"short", 10, "short"},
	} {
		if got := Excerpt(tt.md, tt.max); got != tt.want {
			t.Errorf("Excerpt(%q, %d) = %q, want %q", tt.md, tt.max, got, tt.want)
		}
	}
}
