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

func TestPathOf(t *testing.T) {
	for _, c := range []struct {
		endpoint Endpoint
		args     Args
		want     string
	}{
		{NexusEvent, Args{Event: "2026okok"}, "/event/2026okok"},
		{NexusPits, Args{Event: "2026cmptx_div"}, "/event/2026cmptx_div/pits"},
		{TBATeamStatus, Args{Event: "2026okok", Team: 1209}, "/team/frc1209/event/2026okok/status"},
		{TBATeamEvents, Args{Team: 1209, Year: 2026}, "/team/frc1209/events/2026/simple"},
		{TBATeamEventStatuses, Args{Team: 1209, Year: 2026}, "/team/frc1209/events/2026/statuses"},
		{TBATeamAwards, Args{Team: 1209, Year: 2026}, "/team/frc1209/awards/2026"},
		{TBAStatus, Args{}, "/status"},
		// A key from the command line is escaped, not spliced into the path.
		{TBAEvent, Args{Event: "a/../b?c"}, "/event/a%2F..%2Fb%3Fc"},
	} {
		if got := c.endpoint.PathOf(c.args); got != c.want {
			t.Errorf("%v.PathOf(%+v) = %q, want %q", c.endpoint, c.args, got, c.want)
		}
	}
}

func TestKeyHeader(t *testing.T) {
	if got := Nexus.KeyHeader(); got != "Nexus-Api-Key" {
		t.Errorf("Nexus.KeyHeader() = %q", got)
	}
	if got := TBA.KeyHeader(); got != "X-TBA-Auth-Key" {
		t.Errorf("TBA.KeyHeader() = %q", got)
	}
}
