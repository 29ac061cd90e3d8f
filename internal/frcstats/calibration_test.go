package frcstats

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The events of testdata (see testdata/SOURCES.md), split before any figure was looked at: in
// the order of their keys, alternately one to fit K and one held out. Held-out events are used
// only to report.
var (
	trainEvents   = []string{"2023cada", "2023njfla", "2024nytr", "2025mndu", "2025oncmp2"}
	heldOutEvents = []string{"2023mijac", "2023onlon", "2025isde1", "2025mndu2", "2026marea"}
)

// tbaMatch is one qualification match as reduced into testdata from TBA's API v3 match list.
type tbaMatch struct {
	Key             string   `json:"key"`
	Red             []string `json:"red"`
	Blue            []string `json:"blue"`
	RedScore        int      `json:"red_score"`
	BlueScore       int      `json:"blue_score"`
	WinningAlliance string   `json:"winning_alliance"`
	ActualTime      int64    `json:"actual_time"`
	Time            int64    `json:"time"`
}

// event is one event's qualification matches in the order they were played, with red's result:
// 1 a red win, 0 a blue win, ½ a tie.
type event struct {
	key     string
	keys    []string
	played  []Played
	outcome []float64
}

func loadEvent(t testing.TB, key string) event {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", key+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Event   string     `json:"event"`
		Matches []tbaMatch `json:"matches"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	if f.Event != key || len(f.Matches) == 0 {
		t.Fatalf("%s: event %q with %d matches", key, f.Event, len(f.Matches))
	}
	// Replay in the order results became known: a match replayed at the end of a day (as
	// 2023mijac's 47 and 2025mndu's 1 were) counts from then, not from its number.
	when := func(m tbaMatch) int64 { return cmp.Or(m.ActualTime, m.Time) }
	slices.SortStableFunc(f.Matches, func(a, b tbaMatch) int { return cmp.Compare(when(a), when(b)) })
	ev := event{key: key}
	for _, m := range f.Matches {
		var y float64
		switch m.WinningAlliance {
		case "red":
			y = 1
		case "blue":
			y = 0
		case "":
			y = 0.5
		default:
			t.Fatalf("%s: winning_alliance %q", m.Key, m.WinningAlliance)
		}
		ev.played = append(ev.played, Played{
			Red: teamNumbers(m.Red), Blue: teamNumbers(m.Blue),
			RedScore: m.RedScore, BlueScore: m.BlueScore,
		})
		ev.outcome = append(ev.outcome, y)
		ev.keys = append(ev.keys, m.Key)
	}
	return ev
}

// teamNumbers turns TBA's team keys ("frc1209") into the team numbers Played holds.
func teamNumbers(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.TrimPrefix(k, "frc")
	}
	return out
}

// sample is one match predicted from the matches before it: the rating-sum difference red minus
// blue, the spread, red's result, and how many matches had been played.
type sample struct {
	diff, spread, outcome float64
	played                int
}

// replay rates before every match of ev from the matches before it, with the prior's weight
// lambda, and returns the matches a rating existed for: every match but the first. The filter
// by MinPlayed is the caller's, so one replay serves every threshold.
func replay(ev event, lambda float64) []sample {
	var out []sample
	for i := range ev.played {
		before := ev.played[:i]
		ratings, prior, ok := ratingsAt(before, lambda)
		if !ok {
			continue
		}
		d := allianceSum(ratings, prior, ev.played[i].Red) - allianceSum(ratings, prior, ev.played[i].Blue)
		out = append(out, sample{diff: d, spread: Spread(before), outcome: ev.outcome[i], played: i})
	}
	return out
}

// brier is the mean of (p − outcome)² over samples with at least minPlayed matches before them.
func brier(samples []sample, minPlayed int, chance func(sample) float64) (score float64, n int) {
	for _, s := range samples {
		if s.played < minPlayed {
			continue
		}
		d := chance(s) - s.outcome
		score += d * d
		n++
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return score / float64(n), n
}

func logisticAt(k float64) func(sample) float64 {
	return func(s sample) float64 { return winChance(s.diff, 0, s.spread, k) }
}

// kGrid and lambdaGrid are the grid K and Lambda were fitted on: every K from 0.10 to 3.00 in
// steps of 0.01 with every Lambda from 0.5 to 5 in steps of 0.5 (computed from integers, so
// the steps do not drift).
func kGrid() []float64 {
	var ks []float64
	for i := 10; i <= 300; i++ {
		ks = append(ks, float64(i)/100)
	}
	return ks
}

func lambdaGrid() []float64 {
	var ls []float64
	for i := 1; i <= 10; i++ {
		ls = append(ls, float64(i)/2)
	}
	return ls
}

func stepRule(s sample) float64 {
	switch {
	case s.diff > 0:
		return 1
	case s.diff < 0:
		return 0
	}
	return 0.5
}

func coinFlip(sample) float64 { return 0.5 }

// TestCalibration replays the events of testdata match by match, predicting each qualification
// match from the ones before it exactly as the pit display would (Predict), and measures the
// predictions by their Brier score, beside a coin flip and the rule "the higher rating sum wins for
// sure". With -v it prints the markdown tables of docs/win-chance.md. It fails if the model does
// not beat both baselines on the held-out events, or if K and Lambda are no longer the training
// optimum (the rating or the spread changed without a refit).
func TestCalibration(t *testing.T) {
	load := func(keys []string) (evs []event, samples [][]sample) {
		for _, key := range keys {
			ev := loadEvent(t, key)
			evs = append(evs, ev)
			samples = append(samples, replay(ev, Lambda))
		}
		return evs, samples
	}
	trainEv, trainS := load(trainEvents)
	heldEv, heldS := load(heldOutEvents)

	// The replay's samples must be what Predict says, so the figures measure the product's own
	// path; Predict must also decline exactly where the replay has no sample or MinPlayed bars.
	allEv, allS := slices.Concat(trainEv, heldEv), slices.Concat(trainS, heldS)
	for i, ev := range allEv {
		byPlayed := map[int]sample{}
		for _, s := range allS[i] {
			byPlayed[s.played] = s
		}
		for j, m := range ev.played {
			p, ok := Predict(ev.played[:j], m.Red, m.Blue)
			s, have := byPlayed[j]
			if want := have && j >= MinPlayed; ok != want {
				t.Fatalf("%s match %d: Predict ok = %v, want %v", ev.key, j+1, ok, want)
			}
			if ok && math.Abs(p-logisticAt(K)(s)) > 1e-12 {
				t.Fatalf("%s match %d: Predict = %v, replay %v", ev.key, j+1, p, logisticAt(K)(s))
			}
		}
	}

	// K and Lambda are the training optimum on the grid, to within a Brier score of 0.0005 (the
	// surface is flat near its minimum, so the constants are rounded rather than the grid's
	// exact argmin).
	bestK, bestL, bestB := 0.0, 0.0, math.Inf(1)
	for _, l := range lambdaGrid() {
		var pooled []sample
		for _, ev := range trainEv {
			pooled = append(pooled, replay(ev, l)...)
		}
		for _, k := range kGrid() {
			if b, _ := brier(pooled, MinPlayed, logisticAt(k)); b < bestB {
				bestK, bestL, bestB = k, l, b
			}
		}
	}
	atK, _ := brier(slices.Concat(trainS...), MinPlayed, logisticAt(K))
	if atK-bestB > 0.0005 {
		t.Errorf("training Brier %.4f at K = %v, Lambda = %v, but %.4f at K = %.2f, Lambda = %v: refit",
			atK, K, Lambda, bestB, bestK, bestL)
	}

	type row struct {
		name                 string
		n                    int
		model, coin, stepped float64
	}
	score := func(name string, ss []sample) row {
		r := row{name: name}
		r.model, r.n = brier(ss, MinPlayed, logisticAt(K))
		r.coin, _ = brier(ss, MinPlayed, coinFlip)
		r.stepped, _ = brier(ss, MinPlayed, stepRule)
		return r
	}
	table := func(title string, keys []string, ss [][]sample) row {
		var b strings.Builder
		fmt.Fprintf(&b, "\n%s\n\n| event | predicted | Brier (model) | coin flip | higher rating sum wins |\n|---|---:|---:|---:|---:|\n", title)
		for i, key := range keys {
			r := score(key, ss[i])
			fmt.Fprintf(&b, "| %s | %d | %.4f | %.4f | %.4f |\n", r.name, r.n, r.model, r.coin, r.stepped)
		}
		all := score("all", slices.Concat(ss...))
		fmt.Fprintf(&b, "| **all** | %d | **%.4f** | %.4f | %.4f |\n", all.n, all.model, all.coin, all.stepped)
		if testing.Verbose() {
			fmt.Print(b.String())
		}
		return all
	}
	if testing.Verbose() {
		fmt.Printf("\nK = %v, Lambda = %v (training optimum on the grid: %.2f, %v), MinPlayed = %d\n", K, Lambda, bestK, bestL, MinPlayed)
	}
	table("Training events (K fitted here)", trainEvents, trainS)
	held := table("Held-out events", heldOutEvents, heldS)
	all := score("all", slices.Concat(allS...))
	if testing.Verbose() {
		fmt.Printf("\nAll ten events pooled: %d predicted, Brier %.4f (coin flip %.4f, higher rating sum wins %.4f)\n",
			all.n, all.model, all.coin, all.stepped)
	}
	pooledHeld := slices.Concat(heldS...)
	if testing.Verbose() {
		b, n := brier(pooledHeld, 30, logisticAt(K))
		fmt.Printf("\nHeld-out events from the 31st match on (where the model before the prior began): %d predicted, Brier %.4f\n", n, b)
	}
	byStage(pooledHeld)
	reliability(pooledHeld)

	if !(held.model < held.coin) {
		t.Errorf("held-out Brier %.4f is no better than a coin flip's %.4f", held.model, held.coin)
	}
	if !(held.model < held.stepped) {
		t.Errorf("held-out Brier %.4f is no better than the sure-thing rule's %.4f", held.model, held.stepped)
	}
}

// reliability prints, for buckets of red's predicted chance, how often red actually won: a
// calibrated model's observed rate sits near the bucket's mean prediction.
func reliability(ss []sample) {
	type bucket struct {
		n          int
		sumP, sumY float64
	}
	var bs [10]bucket
	for _, s := range ss {
		if s.played < MinPlayed {
			continue
		}
		p := logisticAt(K)(s)
		i := min(int(p*10), 9)
		bs[i].n++
		bs[i].sumP += p
		bs[i].sumY += s.outcome
	}
	if !testing.Verbose() {
		return
	}
	fmt.Print("\nReliability on the held-out events (red's predicted chance; ties count half)\n\n")
	fmt.Print("| predicted | matches | mean predicted | observed red wins |\n|---|---:|---:|---:|\n")
	for i, b := range bs {
		if b.n == 0 {
			fmt.Printf("| %.1f–%.1f | 0 | – | – |\n", float64(i)/10, float64(i+1)/10)
			continue
		}
		fmt.Printf("| %.1f–%.1f | %d | %.3f | %.3f |\n", float64(i)/10, float64(i+1)/10, b.n, b.sumP/float64(b.n), b.sumY/float64(b.n))
	}
}

// byStage prints the held-out Brier score by how many matches had been played: the ratings
// firm up as the event goes on, so the early predictions are the weak ones.
func byStage(ss []sample) {
	if !testing.Verbose() {
		return
	}
	fmt.Print("\nHeld-out events by stage\n\n| matches played before | predicted | Brier (model) | higher rating sum wins |\n|---|---:|---:|---:|\n")
	for _, band := range [][2]int{{MinPlayed, 44}, {45, 59}, {60, math.MaxInt}} {
		var in []sample
		for _, s := range ss {
			if s.played >= band[0] && s.played <= band[1] {
				in = append(in, s)
			}
		}
		label := fmt.Sprintf("%d–%d", band[0], band[1])
		if band[1] == math.MaxInt {
			label = fmt.Sprintf("%d or more", band[0])
		}
		b, n := brier(in, MinPlayed, logisticAt(K))
		st, _ := brier(in, MinPlayed, stepRule)
		fmt.Printf("| %s | %d | %.4f | %.4f |\n", label, n, b, st)
	}
}
