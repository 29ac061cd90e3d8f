//go:build fit

package forecast

import (
	"fmt"
	"math"
	"testing"
)

// strengthGrid is the grid StrengthSpread was fitted on: 0 to 2 in steps of 0.25.
func strengthGrid() []float64 {
	var g []float64
	for i := 0; i <= 8; i++ {
		g = append(g, float64(i)/4)
	}
	return g
}

// top8Brier forecasts evs at every stage with the strength spread u and runs runs, and returns
// the Brier score of P(top 8) against the final rank, pooled, and the share of final ranks
// within the 80 % range.
func top8Brier(t testing.TB, evs []realEvent, u float64, runs int) (brier, coverage float64) {
	n := 0
	for _, ev := range evs {
		final := map[string]int{}
		for _, s := range Rank(ev.rules, ev.played) {
			final[s.Team] = s.Rank
		}
		for _, st := range stages {
			at := stageAt(len(ev.played), st.num, st.den)
			m, ok := expect(ev.rules, ev.played[:at], schedule(ev.played[at:]), u)
			if !ok {
				t.Fatalf("%s: no forecast after %d matches", ev.key, at)
			}
			for _, f := range Simulate(ev.rules, ev.played[:at], m, runs, calibrationSeed) {
				rank := final[f.Team]
				d := f.Top8 - b2f(rank <= 8)
				brier += d * d
				coverage += b2f(f.Low <= rank && rank <= f.High)
				n++
			}
		}
	}
	return brier / float64(n), coverage / float64(n)
}

// TestStrengthSpread fits the uncertainty of the teams' strengths on the training events, as
// StrengthSpread was fitted (with 2,000 runs a forecast, to keep the grid quick), and fails if
// the optimum is no longer it (to within a Brier score of 0.0005). With -v it prints the grid.
func TestStrengthSpread(t *testing.T) {
	var train []realEvent
	for _, key := range trainEvents {
		train = append(train, loadEvent(t, key))
	}
	const runs = 2000
	best, bestB := 0.0, math.Inf(1)
	for _, u := range strengthGrid() {
		b, c := top8Brier(t, train, u, runs)
		if testing.Verbose() {
			fmt.Printf("StrengthSpread %.2f: training Brier of P(top 8) %.4f, final rank within the 80 %% range %.1f %%\n", u, b, 100*c)
		}
		if b < bestB {
			best, bestB = u, b
		}
	}
	if atConst, _ := top8Brier(t, train, StrengthSpread, runs); atConst-bestB > 0.0005 {
		t.Errorf("training Brier %.4f at StrengthSpread = %v, but %.4f at %.2f: refit StrengthSpread", atConst, StrengthSpread, bestB, best)
	}
}
