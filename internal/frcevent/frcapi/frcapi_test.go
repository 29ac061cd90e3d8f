package frcapi

import "testing"

func TestRound(t *testing.T) {
	for _, tt := range []struct {
		playoffType, n int
		want           string
	}{
		{10, 4, "Round 1"}, {10, 5, "Round 2"}, {10, 10, "Round 3"}, {10, 12, "Round 4"},
		{10, 13, "Round 5"}, {10, 0, "Finals"}, {11, 3, "Round 2"}, {11, 5, "Round 3"},
		{10, 14, ""}, {9, 1, ""},
	} {
		if got := Round(tt.playoffType, tt.n); got != tt.want {
			t.Errorf("Round(%d, %d) = %q, want %q", tt.playoffType, tt.n, got, tt.want)
		}
	}
}
