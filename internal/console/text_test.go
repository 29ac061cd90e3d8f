package console

import (
	"errors"
	"fmt"
	"testing"
)

func TestCheckLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want lineFault
	}{
		{"empty", "", 3, lineOK},
		{"at the limit, counted in characters", "héé", 3, lineOK},
		{"one character too many", "abcd", 3, lineTooLong},
		{"not UTF-8", "a\xffb", 10, lineNotUTF8},
		{"not UTF-8 wins over too long", "abcd\xff", 3, lineNotUTF8},
		{"a line break", "a\nb", 10, lineBreaks},
		{"a tab", "a\tb", 10, lineBreaks},
		{"too long wins over a line break", "a\nbcd", 3, lineTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkLine(tt.in, tt.max); got != tt.want {
				t.Errorf("checkLine(%q, %d) = %d, want %d", tt.in, tt.max, got, tt.want)
			}
		})
	}
}

func TestBrokenRule(t *testing.T) {
	rule := errors.New("invalid thing")
	err := fmt.Errorf("%w: the text is not valid UTF-8", rule)
	if got, want := brokenRule(err, rule), "The text is not valid UTF-8"; got != want {
		t.Errorf("brokenRule = %q, want %q", got, want)
	}
}
