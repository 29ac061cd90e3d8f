package board

import (
	"encoding/json"
	"testing"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// TestForecastInputs reads the forecast's inputs from TBA's full match
// list: the season's rules only under its own sort orders, a result only
// with its breakdowns (else it is still to play), and no playoff match.
func TestForecastInputs(t *testing.T) {
	// 2026's sort orders, and what its rules read of a breakdown.
	orders := []frcapi.TBAStatInfo{{Name: "Ranking Score"}, {Name: "Avg Match"}, {Name: "Avg Auto Fuel"}, {Name: "Avg Tower"}}
	breakdown := func(rp int) json.RawMessage {
		return json.RawMessage(`{"rp":` + itoa(rp) + `,"energizedAchieved":true,"superchargedAchieved":false,"traversalAchieved":false,` +
			`"totalPoints":80,"foulPoints":5,"hubScore":{"autoPoints":12},"totalTowerPoints":10}`)
	}
	withBreakdowns := func(m frcapi.TBAMatch) frcapi.TBAMatch {
		m.ScoreBreakdown = map[string]json.RawMessage{"red": breakdown(4), "blue": breakdown(1)}
		return m
	}
	played := withBreakdowns(tm(1, us, them, 80, 60, "red"))
	noBreakdown := tm(2, them, other, 70, 75, "blue")
	brokenBreakdown := tm(3, us, other, 70, 75, "blue")
	brokenBreakdown.ScoreBreakdown = map[string]json.RawMessage{"red": json.RawMessage(`[1]`), "blue": breakdown(4)}
	coming := tm(4, other, us, -1, -1, "")
	playoff := withBreakdowns(tm(5, us, them, 90, 60, "red"))
	playoff.CompLevel = "sf"
	matches := []frcapi.TBAMatch{played, noBreakdown, brokenBreakdown, coming, playoff}

	r, p, rest, ok := ForecastInputs("2026okok", orders, matches)
	if !ok || r.WinRP != 3 || len(p) != 1 || len(rest) != 3 {
		t.Fatalf("ok %v, rules %+v, %d played, %d to play; want the 2026 rules, 1 played, 3 to play", ok, r, len(p), len(rest))
	}
	if p[0].Red.RP != 4 || p[0].Blue.RP != 1 || p[0].Red.Score != 80 || !p[0].Red.Bonus[0] || p[0].Red.Tiebreaks[0] != 75 {
		t.Errorf("the played match read as %+v", p[0])
	}
	for _, tt := range []struct {
		name   string
		key    string
		orders []frcapi.TBAStatInfo
	}{
		{"a season the forecast does not know", "2022okok", orders},
		{"sort orders of another season", "2026okok", orders[:2]},
		{"no sort orders yet", "2026okok", nil},
		{"an event key without a year", "x", orders},
	} {
		if _, _, _, ok := ForecastInputs(tt.key, tt.orders, matches); ok {
			t.Errorf("%s: a forecast's inputs", tt.name)
		}
	}
}

// TestRankForecast shows a team's forecast only during the qualifications,
// while some are left to play, and only for a team it has.
func TestRankForecast(t *testing.T) {
	f := &Forecast{Played: 30, Remaining: 10, Teams: map[string]RankForecast{"1209": {Top8: 0.5, ExpectedRank: 8, Low: 5, High: 12}}}
	over := &Forecast{Played: 40, Teams: f.Teams}
	for _, tt := range []struct {
		name  string
		f     *Forecast
		phase Phase
		team  string
		want  bool
	}{
		{"qualifications", f, PhaseQualifications, "1209", true},
		{"a team it has not", f, PhaseQualifications, "254", false},
		{"none made", nil, PhaseQualifications, "1209", false},
		{"all played", over, PhaseQualifications, "1209", false},
		{"alliance selection", f, PhaseAllianceSelection, "1209", false},
		{"playoffs", f, PhasePlayoffs, "1209", false},
	} {
		if got := rankForecast(tt.f, tt.phase, tt.team); (got != nil) != tt.want {
			t.Errorf("%s: %+v, want one: %v", tt.name, got, tt.want)
		}
	}
}
