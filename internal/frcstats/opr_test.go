package frcstats

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOPRByHand checks a case small enough to solve on paper. Four teams A, B, C, D play in
// two-team alliances, every pair exactly once:
//
//	match 1: A+B = 10, C+D = 6
//	match 2: A+C = 9,  B+D = 7
//	match 3: A+D = 8,  B+C = 9
//
// Six equations for four unknowns, with no exact solution (A+B+C+D would be 16 from match 1 and
// 17 from match 3), so this tests least squares and not mere interpolation.
//
// Each team is in 3 alliances and each pair shares exactly 1, so AᵀA = 2I + J (J all ones).
// Aᵀb is each team's total: A 10+9+8 = 27, B 10+7+9 = 26, C 6+9+9 = 24, D 6+7+8 = 21.
// With S = A+B+C+D, row i reads 2xᵢ + S = sᵢ. Summing the rows: 2S + 4S = 98, so S = 49/3 and
// xᵢ = (sᵢ − 49/3)/2:
//
//	A = (81−49)/6 = 16/3, B = (78−49)/6 = 29/6, C = (72−49)/6 = 23/6, D = (63−49)/6 = 7/3.
func TestOPRByHand(t *testing.T) {
	matches := []Played{
		{Red: []string{"A", "B"}, Blue: []string{"C", "D"}, RedScore: 10, BlueScore: 6},
		{Red: []string{"A", "C"}, Blue: []string{"B", "D"}, RedScore: 9, BlueScore: 7},
		{Red: []string{"A", "D"}, Blue: []string{"B", "C"}, RedScore: 8, BlueScore: 9},
	}
	want := map[string]float64{"A": 16.0 / 3, "B": 29.0 / 6, "C": 23.0 / 6, "D": 7.0 / 3}
	got, ok := OPR(matches)
	if !ok {
		t.Fatal("OPR not ok on a determined system")
	}
	if len(got) != len(want) {
		t.Fatalf("got %d teams, want %d: %v", len(got), len(want), got)
	}
	for team, w := range want {
		if math.Abs(got[team]-w) > 1e-12 {
			t.Errorf("OPR[%s] = %.15g, want %.15g", team, got[team], w)
		}
	}
}

// TestOPRThreeTeamsExact: three teams, two one-on-two matches whose scores fit exactly.
//
//	match 1: X+Y = 30 vs Z = 12
//	match 2: X+Z = 25 vs Y = 17
//
// From the singles Z = 12 and Y = 17, so X = 13 from either pair; the four equations agree, so
// least squares returns that exact solution.
func TestOPRThreeTeamsExact(t *testing.T) {
	matches := []Played{
		{Red: []string{"X", "Y"}, Blue: []string{"Z"}, RedScore: 30, BlueScore: 12},
		{Red: []string{"X", "Z"}, Blue: []string{"Y"}, RedScore: 25, BlueScore: 17},
	}
	got, ok := OPR(matches)
	if !ok {
		t.Fatal("OPR not ok")
	}
	for team, w := range map[string]float64{"X": 13, "Y": 17, "Z": 12} {
		if math.Abs(got[team]-w) > 1e-12 {
			t.Errorf("OPR[%s] = %.15g, want %g", team, got[team], w)
		}
	}
}

func TestOPRNotDetermined(t *testing.T) {
	for _, tc := range []struct {
		name    string
		matches []Played
	}{
		{"no matches", nil},
		{"empty alliances", []Played{{RedScore: 3, BlueScore: 4}}},
		// 2 alliance scores, 6 teams.
		{"fewer scores than teams", []Played{
			{Red: []string{"1", "2", "3"}, Blue: []string{"4", "5", "6"}, RedScore: 50, BlueScore: 40},
		}},
		// 6 alliance scores for 5 teams, but 1 and 2 always play together, so only their sum is
		// known: AᵀA has two equal columns.
		{"two teams never apart", []Played{
			{Red: []string{"1", "2"}, Blue: []string{"3", "4"}, RedScore: 20, BlueScore: 15},
			{Red: []string{"1", "2"}, Blue: []string{"3", "5"}, RedScore: 22, BlueScore: 14},
			{Red: []string{"1", "2"}, Blue: []string{"4", "5"}, RedScore: 18, BlueScore: 16},
		}},
		// Enough rows, but only alliance totals of a closed group: 1+2+3 and 4+5+6 each appear,
		// yet nothing splits 1, 2 and 3 apart.
		{"same alliances replayed", []Played{
			{Red: []string{"1", "2", "3"}, Blue: []string{"4", "5", "6"}, RedScore: 50, BlueScore: 40},
			{Red: []string{"1", "2", "3"}, Blue: []string{"4", "5", "6"}, RedScore: 55, BlueScore: 42},
			{Red: []string{"4", "5", "6"}, Blue: []string{"1", "2", "3"}, RedScore: 41, BlueScore: 52},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if opr, ok := OPR(tc.matches); ok || opr != nil {
				t.Errorf("OPR = %v, %v; want nil, false", opr, ok)
			}
			if len(tc.matches) > 0 && len(tc.matches[0].Red) > 0 && !rankDeficient(tc.matches) {
				t.Error("the exact oracle finds this case full rank; the case is wrong")
			}
		})
	}
}

// TestOPRRecoversSyntheticRatings: scores made noise-free from known ratings on random
// schedules must give those ratings back, whatever the event's size and alliance size.
func TestOPRRecoversSyntheticRatings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1209, 2026))
	const trials = 200
	solved := 0
	for trial := range trials {
		perAlliance := 1 + rng.IntN(3)
		nTeams := 2*perAlliance + rng.IntN(40)
		// From 2 to 12 plays per team: the sparse end leaves some schedules singular, which
		// checks that OPR refuses exactly those.
		nMatches := nTeams*(2+rng.IntN(11))/(2*perAlliance) + 1
		// Played holds integer scores, so the true ratings are integers (some negative, as
		// real OPRs can be): every alliance sum is then exact.
		truth := make(map[string]float64, nTeams)
		names := make([]string, nTeams)
		for i := range names {
			names[i] = fmt.Sprint(100 + i)
			truth[names[i]] = float64(rng.IntN(90) - 10)
		}
		matches := make([]Played, nMatches)
		for m := range matches {
			pick := rng.Perm(nTeams)[:2*perAlliance]
			red, blue := namesOf(names, pick[:perAlliance]), namesOf(names, pick[perAlliance:])
			matches[m] = Played{Red: red, Blue: blue,
				RedScore: int(sumOf(truth, red)), BlueScore: int(sumOf(truth, blue))}
		}
		got, ok := OPR(matches)
		if !ok {
			// A random schedule can leave a team unseen or two teams never apart; that is
			// the singular case, not a failure, as long as it is genuinely rank deficient.
			if rankDeficient(matches) {
				continue
			}
			t.Fatalf("trial %d: OPR not ok on a full-rank system (%d teams, %d matches)", trial, nTeams, nMatches)
		}
		for team, v := range got {
			if math.Abs(v-truth[team]) > 1e-9 {
				t.Fatalf("trial %d: OPR[%s] = %.15g, want %g", trial, team, v, truth[team])
			}
		}
		solved++
	}
	t.Logf("%d of %d random schedules full rank and solved; the rest rank deficient", solved, trials)
	// The property must not hold vacuously: most random schedules are full rank.
	if solved < trials/2 || solved == trials {
		t.Errorf("%d of %d random schedules solved; want most but not all", solved, trials)
	}
}

// rankDeficient reports whether the alliance-by-team matrix A of matches has rank below the
// number of teams in it, by exact Gaussian elimination over the rationals: an oracle that shares
// neither the normal equations nor floating point with OPR.
func rankDeficient(matches []Played) bool {
	col := map[string]int{}
	for _, m := range matches {
		for _, t := range append(slices.Clone(m.Red), m.Blue...) {
			if _, seen := col[t]; !seen {
				col[t] = len(col)
			}
		}
	}
	n := len(col)
	var rows [][]*big.Rat
	for _, m := range matches {
		for _, alliance := range [][]string{m.Red, m.Blue} {
			r := make([]*big.Rat, n)
			for j := range r {
				r[j] = new(big.Rat)
			}
			for _, t := range alliance {
				r[col[t]].Add(r[col[t]], big.NewRat(1, 1))
			}
			rows = append(rows, r)
		}
	}
	rank := 0
	for c := 0; c < n && rank < len(rows); c++ {
		p := -1
		for i := rank; i < len(rows); i++ {
			if rows[i][c].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[rank], rows[p] = rows[p], rows[rank]
		for i := rank + 1; i < len(rows); i++ {
			if rows[i][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(rows[i][c], rows[rank][c])
			for j := c; j < n; j++ {
				rows[i][j].Sub(rows[i][j], new(big.Rat).Mul(f, rows[rank][j]))
			}
		}
		rank++
	}
	return rank < n
}

func namesOf(names []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = names[j]
	}
	return out
}

func sumOf(r map[string]float64, teams []string) float64 {
	s := 0.0
	for _, t := range teams {
		s += r[t]
	}
	return s
}
