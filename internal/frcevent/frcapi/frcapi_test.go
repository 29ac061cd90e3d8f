package frcapi

import (
	"encoding/json"
	"strings"
	"testing"
)

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

func TestFlexStringErrorIsShort(t *testing.T) {
	var v struct {
		ID FlexString `json:"id"`
	}
	big := `{"id":[` + strings.Repeat(`"xxxxxxxx",`, 100000) + `"x"]}`
	err := json.Unmarshal([]byte(big), &v)
	if err == nil {
		t.Fatal("a list decoded as a FlexString")
	}
	if len(err.Error()) > 200 {
		t.Fatalf("error of %d bytes for a value of %d, want it clipped: %.100s…", len(err.Error()), len(big), err)
	}
}
