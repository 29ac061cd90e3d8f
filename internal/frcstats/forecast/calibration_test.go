// The calibration and the fit of BonusShrink replay real events with 10,000 runs a forecast:
// seconds here, minutes under the race detector, which has nothing to find in them (one
// goroutine, no shared memory). They run in make check's go test ./..., not in make test's
// -race pass.

//go:build !race

package forecast

import (
	"github.com/robohornets/robohornets/bench/part"

	"cmp"
	"fmt"
	"math"
	"strings"
	"testing"
)

// shrinkGrid is the grid BonusShrink was fitted on: 0 to 20 matches in steps of 0.5.
func shrinkGrid() []float64 {
	var g []float64
	for i := 0; i <= 40; i++ {
		g = append(g, float64(i)/2)
	}
	return g
}

// bonusBrier replays events match by match from MinPlayed on, predicting each
// alliance's every bonus ranking point from the matches before it with the given shrink, and
// returns the Brier score of those predictions and how many there were.
func bonusBrier(evs []realEvent, shrink float64) (float64, int) {
	sum, n := 0.0, 0
	for _, ev := range evs {
		for i := MinPlayed; i < len(ev.played); i++ {
			rt := bonusRates(ev.rules, ev.played[:i], shrink)
			m := ev.played[i]
			for _, a := range []Alliance{m.Red, m.Blue} {
				for k, p := range rt.alliance(a.Teams) {
					d := p - b2f(a.Bonus[k])
					sum += d * d
					n++
				}
			}
		}
	}
	return sum / float64(n), n
}

// TestBonusShrink fits the shrinkage of the bonus rates on the training events, as BonusShrink
// was fitted, and fails if the optimum is no longer it (to within a Brier score of 0.0005: the
// curve is flat near its minimum). With -v it prints the figures of docs/forecast.md.
func TestBonusShrink(t *testing.T) {
	var train, held []realEvent
	for _, key := range trainEvents {
		train = append(train, loadEvent(t, key))
	}
	for _, key := range heldOutEvents {
		held = append(held, loadEvent(t, key))
	}
	best, bestB := 0.0, math.Inf(1)
	for _, m := range shrinkGrid() {
		if b, _ := bonusBrier(train, m); b < bestB {
			best, bestB = m, b
		}
	}
	atConst, n := bonusBrier(train, BonusShrink)
	none, _ := bonusBrier(train, 0)
	heldAt, heldN := bonusBrier(held, BonusShrink)
	heldNone, _ := bonusBrier(held, 0)
	heldMean, _ := bonusBrier(held, 1e9) // the event's mean alone
	if testing.Verbose() {
		fmt.Printf("\nBonus RP predictions, Brier score: training %d predictions, %.4f at BonusShrink = %v "+
			"(optimum on the grid %.1f: %.4f; unshrunk %.4f); held-out %d predictions, %.4f (unshrunk %.4f, event mean alone %.4f)\n",
			n, atConst, float64(BonusShrink), best, bestB, none, heldN, heldAt, heldNone, heldMean)
	}
	if atConst-bestB > 0.0005 {
		t.Errorf("training Brier %.4f at BonusShrink = %v, but %.4f at %.1f: refit BonusShrink", atConst, float64(BonusShrink), bestB, best)
	}
}

// TestCalibration forecasts every event of testdata at each stage, exactly as the board would
// (Forecast with the matches played by then and the rest of the schedule), and scores P(top 8)
// against the real final rank (Rank of the full match list, checked against TBA's published
// rankings by TestRankAgainstTBA) by its Brier score over the event's teams, beside the
// baseline "the current rank is 8 or better" (0 or 1). With -v it prints the tables of
// docs/forecast.md; with ROBOHORNETS_BENCH_OUT set it writes them as make bench's part
// forecast-calibration. It fails if the forecast does not beat the baseline on the held-out
// events pooled over the stages.
func TestCalibration(t *testing.T) {
	type score struct {
		teams               int
		model, baseline     float64 // sums of squared errors
		stageMatch, matches int
		inRange             int     // final rank within [Low, High]
		errExp, errNow      float64 // sums of |expected rank − final| and |rank now − final|
	}
	run := func(ev realEvent, num, den int) score {
		final := map[string]int{}
		for _, s := range Rank(ev.rules, ev.played) {
			final[s.Team] = s.Rank
		}
		at := stageAt(len(ev.played), num, den)
		fc, ok := Forecast(ev.rules, ev.played[:at], schedule(ev.played[at:]), calibrationSeed)
		if !ok {
			t.Fatalf("%s: no forecast after %d matches", ev.key, at)
		}
		s := score{stageMatch: at, matches: len(ev.played)}
		for _, f := range fc {
			rank := final[f.Team]
			y := b2f(rank <= 8)
			base := b2f(f.Rank >= 1 && f.Rank <= 8)
			s.model += (f.Top8 - y) * (f.Top8 - y)
			s.baseline += (base - y) * (base - y)
			s.teams++
			if f.Low <= rank && rank <= f.High {
				s.inRange++
			}
			s.errExp += math.Abs(f.ExpectedRank - float64(rank))
			// A team that has not played yet has no rank now: the middle of the field.
			now := cmp.Or(f.Rank, (len(final)+1)/2)
			s.errNow += math.Abs(float64(now - rank))
		}
		if s.teams != len(final) {
			t.Fatalf("%s: %d teams forecast, %d ranked", ev.key, s.teams, len(final))
		}
		return s
	}
	var body strings.Builder
	var goals []part.Goal
	var heldModel, heldBase float64
	var heldTeams int
	table := func(title string, keys []string, held bool) {
		fmt.Fprintf(&body, "\n%s\n\n| event | quals | teams |", title)
		for _, st := range stages {
			fmt.Fprintf(&body, " at %s: after match | Brier (forecast) | rank now ≤ 8 |", st.name)
		}
		body.WriteString("\n|---|---:|---:|" + strings.Repeat("---:|---:|---:|", len(stages)) + "\n")
		pooled := make([]score, len(stages))
		for _, key := range keys {
			ev := loadEvent(t, key)
			fmt.Fprintf(&body, "| %s | %d |", key, len(ev.played))
			for i, st := range stages {
				s := run(ev, st.num, st.den)
				if i == 0 {
					fmt.Fprintf(&body, " %d |", s.teams)
				}
				fmt.Fprintf(&body, " %d | %.4f | %.4f |", s.stageMatch, s.model/float64(s.teams), s.baseline/float64(s.teams))
				pooled[i].teams += s.teams
				pooled[i].model += s.model
				pooled[i].baseline += s.baseline
				pooled[i].inRange += s.inRange
				pooled[i].errExp += s.errExp
				pooled[i].errNow += s.errNow
			}
			body.WriteString("\n")
		}
		fmt.Fprintf(&body, "| **all** | | %d |", pooled[0].teams)
		for i, st := range stages {
			p := pooled[i]
			m, b := p.model/float64(p.teams), p.baseline/float64(p.teams)
			fmt.Fprintf(&body, " | **%.4f** | %.4f |", m, b)
			if held {
				heldModel += p.model
				heldBase += p.baseline
				heldTeams += p.teams
				goals = append(goals, part.Goal{
					What:   fmt.Sprintf("Brier score of the rank forecast's P(top 8) at %s of quals, %d held-out real events", st.name, len(keys)),
					Figure: fmt.Sprintf("%.4f", m),
					Goal:   "< the baseline",
					Anchor: fmt.Sprintf("baseline (rank now ≤ 8) %.4f", b),
					Met:    m < b,
				})
			}
		}
		body.WriteString("\n")
		if held {
			fmt.Fprintf(&body, "\nThe held-out events' ranks, pooled\n\n| at | final rank within the 80 %% range | mean error of the expected rank | of the rank now |\n|---|---:|---:|---:|\n")
			for i, st := range stages {
				p := pooled[i]
				n := float64(p.teams)
				fmt.Fprintf(&body, "| %s | %.1f %% | %.2f | %.2f |\n", st.name, 100*float64(p.inRange)/n, p.errExp/n, p.errNow/n)
			}
		}
	}
	table("Training events (frcstats' K and BonusShrink fitted here)", trainEvents, false)
	table("Held-out events", heldOutEvents, true)
	fmt.Fprintf(&body, "\nHeld-out, the three stages pooled: Brier %.4f, baseline %.4f (%d team forecasts; %d runs each, seed %d).\n",
		heldModel/float64(heldTeams), heldBase/float64(heldTeams), heldTeams, Runs, calibrationSeed)
	if testing.Verbose() {
		fmt.Print(body.String())
	}
	writeBenchPart(t, "forecast-calibration", part.Part{
		Section: "Rank forecast: calibration of P(top 8)",
		Command: "go test -count=1 -run 'TestCalibration$' -v ./internal/frcstats/forecast",
		Goals:   goals,
		Body: "The forecast at ⅓, ½ and ⅔ of each event's quals (never before the 30th match, when it starts), " +
			"scored against the real final rank by the Brier score of P(top 8) over the event's teams; " +
			"the baseline says 1 for the teams ranked 8th or better at that moment, 0 for the others. " +
			"docs/forecast.md has the model and what it approximates.\n" + body.String(),
	})
	if !(heldModel < heldBase) {
		t.Errorf("held-out Brier %.4f is no better than the baseline's %.4f", heldModel/float64(heldTeams), heldBase/float64(heldTeams))
	}
}
