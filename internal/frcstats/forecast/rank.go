package forecast

import (
	"cmp"
	"slices"
)

// Alliance is one alliance of a played qualification match, as it counts for the ranking.
type Alliance struct {
	// Teams are its team numbers ("1209").
	Teams []string
	// Surrogates are the teams of Teams playing a surrogate match: it counts for nothing of
	// theirs (no ranking points, no sort order, not a match played).
	Surrogates []string
	// DQ are the teams of Teams disqualified from the match: it counts as played, with no
	// ranking points and nothing toward the sort orders.
	DQ []string
	// Score is the alliance's final score.
	Score int
	// RP are the ranking points the alliance earned, as TBA lists them (breakdown "rp"): the win
	// or tie points and every bonus.
	RP int
	// Bonus holds, for each of Rules.Bonus, whether the alliance earned it.
	Bonus []bool
	// Tiebreaks holds the alliance's value of each of Rules.Tiebreaks in this match.
	Tiebreaks []float64
}

// Played is a played qualification match.
type Played struct {
	Red, Blue Alliance
}

// Standing is a team's place in the ranking.
type Standing struct {
	Team string
	// Rank is 1 for the first.
	Rank int
	// Matches is how many matches count for the team (surrogate matches do not).
	Matches int
	// RankingScore is the ranking points per match counted (0 before any).
	RankingScore float64
	// Tiebreaks are the values of Rules.Tiebreaks: the sum over the matches counted, or its
	// average.
	Tiebreaks []float64
}

// tally is a team's sums, before they become a Standing.
type tally struct {
	matches   int
	rp        float64
	tiebreaks []float64
}

// sortKeys writes the tiebreak values of a tally under rules r into tb and returns its ranking
// score.
func (t tally) sortKeys(r Rules, tb []float64) (rs float64) {
	if t.matches == 0 {
		clear(tb)
		return 0
	}
	n := float64(t.matches)
	for i, v := range t.tiebreaks {
		if r.Tiebreaks[i].Total {
			tb[i] = v
		} else {
			tb[i] = v / n
		}
	}
	return t.rp / n
}

// compareKeys orders two teams by the sort orders, the better first: the ranking score, then each
// tiebreak in turn, larger first. 0 means the sort orders cannot tell them apart (the event then
// draws lots; the caller decides).
func compareKeys(rsA float64, tbA []float64, rsB float64, tbB []float64) int {
	if c := cmp.Compare(rsB, rsA); c != 0 {
		return c
	}
	for i := range tbA {
		if c := cmp.Compare(tbB[i], tbA[i]); c != 0 {
			return c
		}
	}
	return 0
}

// tallies sums the played matches per team.
func tallies(r Rules, played []Played) map[string]*tally {
	out := map[string]*tally{}
	add := func(a Alliance) {
		for _, team := range a.Teams {
			t := out[team]
			if t == nil {
				t = &tally{tiebreaks: make([]float64, len(r.Tiebreaks))}
				out[team] = t
			}
			if slices.Contains(a.Surrogates, team) {
				continue
			}
			t.matches++
			if slices.Contains(a.DQ, team) {
				continue
			}
			t.rp += float64(a.RP)
			for i, v := range a.Tiebreaks {
				t.tiebreaks[i] += v
			}
		}
	}
	for _, m := range played {
		add(m.Red)
		add(m.Blue)
	}
	return out
}

// Rank ranks every team that has played by the rules' sort orders. Teams the sort orders cannot
// tell apart (which the event would settle by lot) are ranked by team number, so that the
// ranking is a function of the matches.
func Rank(r Rules, played []Played) []Standing {
	var out []Standing
	for team, t := range tallies(r, played) {
		tb := make([]float64, len(r.Tiebreaks))
		rs := t.sortKeys(r, tb)
		out = append(out, Standing{Team: team, Matches: t.matches, RankingScore: rs, Tiebreaks: tb})
	}
	slices.SortFunc(out, func(a, b Standing) int {
		if c := compareKeys(a.RankingScore, a.Tiebreaks, b.RankingScore, b.Tiebreaks); c != 0 {
			return c
		}
		return compareTeams(a.Team, b.Team)
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// compareTeams orders team numbers numerically ("254" before "1209"): shorter first, then by
// text.
func compareTeams(a, b string) int {
	return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
}
