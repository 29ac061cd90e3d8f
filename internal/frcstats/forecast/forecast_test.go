package forecast

import (
	"github.com/robohornets/robohornets/bench/part"

	"fmt"
	"math"
	"reflect"
	"testing"
	"time"
)

// one is a one-team alliance with the given ranking points and a single tiebreak value.
func one(team string, rp int, tiebreak float64) Alliance {
	return Alliance{Teams: []string{team}, RP: rp, Tiebreaks: []float64{tiebreak}}
}

var handRules = Rules{WinRP: 2, TieRP: 1, Tiebreaks: []Tiebreak{{Name: "Avg Match"}}}

// TestSimulateThreeTeams solves a three-team event by hand. A beat B; still to play: B against
// C at even chances, and C against A, which A wins for sure. A ends on 2 RP a match whatever
// happens; the winner of B–C on 1, the loser on 0. So A is first in every run, and B and C are
// second or third half the time each: expected rank 2.5, 10th percentile 2, 90th 3.
func TestSimulateThreeTeams(t *testing.T) {
	played := []Played{{Red: one("A", 2, 50), Blue: one("B", 0, 40)}}
	coming := []Coming{
		{Red: []string{"B"}, Blue: []string{"C"}, RedWins: 0.5, RedTiebreaks: []float64{0}, BlueTiebreaks: []float64{0}},
		{Red: []string{"C"}, Blue: []string{"A"}, RedWins: 0, RedTiebreaks: []float64{0}, BlueTiebreaks: []float64{0}},
	}
	got := Simulate(handRules, played, Model{Coming: coming, TiebreakSD: []float64{0}}, Runs, 1)
	want := []TeamForecast{
		{Team: "A", Rank: 1, Top8: 1, ExpectedRank: 1, Low: 1, High: 1},
		{Team: "B", Rank: 2, Top8: 1, ExpectedRank: 2.5, Low: 2, High: 3},
		{Team: "C", Rank: 0, Top8: 1, ExpectedRank: 2.5, Low: 2, High: 3},
	}
	checkForecast(t, got, want)
}

// TestSimulateTopEight solves the eighth place by hand. Seven teams beat team 10 and lead every
// sort order; X and Y have not played, and play each other, X winning a quarter of the time. The
// winner joins the seven on 2 RP a match and, behind them on the tiebreak, is eighth; the loser
// is level with team 10 on every sort order (0 RP, tiebreak 0), so lots put it ninth or tenth.
// P(top 8) is ¼ for X and ¾ for Y; X's expected rank ¼·8 + ¾·9.5 = 9.125, Y's ¾·8 + ¼·9.5 =
// 8.375; team 10 is ninth or tenth, 9.5.
func TestSimulateTopEight(t *testing.T) {
	var played []Played
	var want []TeamForecast
	for i, team := range []string{"1", "2", "3", "4", "5", "6", "7"} {
		played = append(played, Played{Red: one(team, 2, float64(100-i)), Blue: one("10", 0, 0)})
		want = append(want, TeamForecast{Team: team, Rank: i + 1, Top8: 1, ExpectedRank: float64(i + 1), Low: i + 1, High: i + 1})
	}
	coming := []Coming{{Red: []string{"X"}, Blue: []string{"Y"}, RedWins: 0.25, RedTiebreaks: []float64{0}, BlueTiebreaks: []float64{0}}}
	want = append(want,
		TeamForecast{Team: "10", Rank: 8, Top8: 0, ExpectedRank: 9.5, Low: 9, High: 10},
		TeamForecast{Team: "X", Top8: 0.25, ExpectedRank: 9.125, Low: 8, High: 10},
		TeamForecast{Team: "Y", Top8: 0.75, ExpectedRank: 8.375, Low: 8, High: 10},
	)
	checkForecast(t, Simulate(handRules, played, Model{Coming: coming, TiebreakSD: []float64{0}}, Runs, 7), want)
}

// checkForecast compares a Monte Carlo forecast with the exact one: the ranks and percentiles
// exactly, the probabilities and expected ranks to within four standard deviations of 10,000
// runs (the seed is fixed, so the comparison is the same on every run of the test).
func checkForecast(t *testing.T, got, want []TeamForecast) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d teams, want %d: %+v", len(got), len(want), got)
	}
	for i, g := range got {
		w := want[i]
		if g.Team != w.Team || g.Rank != w.Rank || g.Low != w.Low || g.High != w.High ||
			math.Abs(g.Top8-w.Top8) > 0.02 || math.Abs(g.ExpectedRank-w.ExpectedRank) > 0.04 {
			t.Errorf("forecast %+v, want %+v", g, w)
		}
	}
}

func TestForecastDeterministic(t *testing.T) {
	ev := loadEvent(t, "2025mndu2")
	at := MinPlayed
	played, rest := ev.played[:at], schedule(ev.played[at:])
	a, ok := Forecast(ev.rules, played, rest, 42)
	if !ok {
		t.Fatalf("no forecast after %d matches", at)
	}
	b, _ := Forecast(ev.rules, played, rest, 42)
	if !reflect.DeepEqual(a, b) {
		t.Error("two forecasts with one seed differ")
	}
	c, _ := Forecast(ev.rules, played, rest, 43)
	if reflect.DeepEqual(a, c) {
		t.Error("forecasts with two seeds are the same: the seed is not used")
	}
	if _, ok := Forecast(ev.rules, ev.played[:MinPlayed-1], schedule(ev.played[MinPlayed-1:]), 42); ok {
		t.Errorf("a forecast before %d matches", MinPlayed)
	}
	// With nothing left to play the forecast is the ranking itself.
	final, ok := Forecast(ev.rules, ev.played, nil, 42)
	if !ok {
		t.Fatal("no forecast after the last match")
	}
	for _, f := range final {
		if f.Low != f.Rank || f.High != f.Rank || f.ExpectedRank != float64(f.Rank) || f.Top8 != b2f(f.Rank <= 8) {
			t.Errorf("after the last match: %+v", f)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// BenchmarkForecast is one whole forecast (Runs runs) of a real event at a third of its quals:
// 2025oncmp2, the largest event of testdata. The goal is under a second on the project's machine.
func BenchmarkForecast(b *testing.B) {
	ev := loadEvent(b, "2025oncmp2")
	at := len(ev.played) / 3
	played, rest := ev.played[:at], schedule(ev.played[at:])
	for b.Loop() {
		if _, ok := Forecast(ev.rules, played, rest, 1); !ok {
			b.Fatal("no forecast")
		}
	}
	per := b.Elapsed() / time.Duration(b.N)
	writeBenchPart(b, "forecast-speed", part.Part{
		Section: "Rank forecast: speed",
		Command: "go test -run '^$' -bench BenchmarkForecast ./internal/frcstats/forecast",
		Goals: []part.Goal{{
			What:   fmt.Sprintf("rank forecast, %d runs of a real event's remaining schedule", Runs),
			Figure: fmt.Sprintf("%.3f s", per.Seconds()),
			Goal:   "< 1 s",
			Anchor: "Statbotics simulates 1,000 runs in the browser",
			Met:    per < time.Second,
		}},
		Body: fmt.Sprintf("One whole forecast (the model, then %d runs) of 2025oncmp2 after %d of its %d qualification "+
			"matches: %d teams, %d matches left. Single-threaded; mean of %d forecasts: %.3f s.\n",
			Runs, at, len(ev.played), len(Rank(ev.rules, ev.played)), len(rest), b.N, per.Seconds()),
	})
}
