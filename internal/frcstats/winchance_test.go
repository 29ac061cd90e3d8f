package frcstats

import (
	"math"
	"testing"
)

// TestSpreadByHand: alliance scores 10, 20, 30, 40 have mean 25 and deviations ±5, ±15, so a
// population variance of (225+25+25+225)/4 = 125.
func TestSpreadByHand(t *testing.T) {
	got := Spread([]Played{{RedScore: 10, BlueScore: 20}, {RedScore: 30, BlueScore: 40}})
	if want := math.Sqrt(125); math.Abs(got-want) > 1e-12 {
		t.Errorf("Spread = %v, want %v", got, want)
	}
	if got := Spread(nil); got != 0 {
		t.Errorf("Spread(nil) = %v, want 0", got)
	}
}

func TestWinChance(t *testing.T) {
	if got := WinChance(50, 50, 20); got != 0.5 {
		t.Errorf("equal sums: %v, want 0.5", got)
	}
	// A lead of exactly K·spread is one unit of the logistic.
	if got, want := WinChance(60+K*20, 60, 20), 1/(1+math.Exp(-1)); math.Abs(got-want) > 1e-12 {
		t.Errorf("lead of K·spread: %v, want %v", got, want)
	}
	for _, spread := range []float64{0, -1, math.NaN()} {
		if got := WinChance(80, 20, spread); got != 0.5 {
			t.Errorf("spread %v: %v, want 0.5", spread, got)
		}
	}
	// The two sides' chances add to one, and a bigger lead never lowers the chance.
	prev := 0.0
	for d := -300.0; d <= 300; d += 7.5 {
		p, q := WinChance(100+d, 100, 35), WinChance(100, 100+d, 35)
		if math.Abs(p+q-1) > 1e-12 {
			t.Fatalf("lead %v: %v + %v != 1", d, p, q)
		}
		if p < prev || p < 0 || p > 1 {
			t.Fatalf("lead %v: chance %v after %v", d, p, prev)
		}
		prev = p
	}
}

func TestPredictDeclines(t *testing.T) {
	// The hand-solved schedule of TestOPRByHand, repeated to pass MinPlayed.
	base := []Played{
		{Red: []string{"A", "B"}, Blue: []string{"C", "D"}, RedScore: 10, BlueScore: 6},
		{Red: []string{"A", "C"}, Blue: []string{"B", "D"}, RedScore: 9, BlueScore: 7},
		{Red: []string{"A", "D"}, Blue: []string{"B", "C"}, RedScore: 8, BlueScore: 9},
	}
	var played []Played
	for len(played) < MinPlayed {
		played = append(played, base...)
	}
	if _, ok := Predict(played[:MinPlayed-1], []string{"A", "B"}, []string{"C", "D"}); ok {
		t.Error("Predict gave a chance before MinPlayed matches")
	}
	for _, alliances := range [][2][]string{{nil, {"C", "D"}}, {{"A", "B"}, {}}} {
		if _, ok := Predict(played, alliances[0], alliances[1]); ok {
			t.Errorf("Predict gave a chance against an alliance not known yet: %q", alliances)
		}
	}
	p, ok := Predict(played, []string{"A", "B"}, []string{"C", "D"})
	if !ok {
		t.Fatal("Predict declined after MinPlayed matches")
	}
	ratings, prior, _ := Ratings(played)
	if want := WinChance(ratings["A"]+ratings["B"], ratings["C"]+ratings["D"], Spread(played)); math.Abs(p-want) > 1e-12 || p <= 0.5 {
		t.Errorf("Predict = %v, want %v (> 0.5)", p, want)
	}
	// A team that has not played counts at the prior.
	p, _ = Predict(played, []string{"A", "E"}, []string{"C", "D"})
	if want := WinChance(ratings["A"]+prior, ratings["C"]+ratings["D"], Spread(played)); math.Abs(p-want) > 1e-12 {
		t.Errorf("Predict with a team yet to play = %v, want %v", p, want)
	}
}

// TestRatingsByHand: one match, A alone scores 10 against B alone's 4. The prior is the mean
// score per team, (10+4)/2 = 7. With lambda = 2.5 each team's equation reads
// (1 + 2.5)·x = score + 2.5·7, so A = 27.5/3.5 = 55/7 and B = 21.5/3.5 = 43/7: pulled from 10
// and 4 toward 7, by the same amount each.
func TestRatingsByHand(t *testing.T) {
	got, prior, ok := ratingsAt([]Played{{Red: []string{"A"}, Blue: []string{"B"}, RedScore: 10, BlueScore: 4}}, 2.5)
	if !ok || prior != 7 {
		t.Fatalf("ok %v, prior %v, want true, 7", ok, prior)
	}
	for team, want := range map[string]float64{"A": 55.0 / 7, "B": 43.0 / 7} {
		if math.Abs(got[team]-want) > 1e-12 {
			t.Errorf("rating of %s = %.15g, want %.15g", team, got[team], want)
		}
	}
	if _, _, ok := Ratings(nil); ok {
		t.Error("Ratings of no matches is ok")
	}
}
