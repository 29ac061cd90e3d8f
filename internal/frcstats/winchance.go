package frcstats

import "math"

// K scales the logistic of WinChance: a rating-sum lead of K·spread points gives the leading
// alliance a chance of 1/(1+e⁻¹) ≈ 0.73. Lambda is the prior's weight in Ratings, in alliance
// scores. Both were fitted once, together, as the smallest Brier score on the training
// events of testdata (Lambda from 0.5 to 5 in steps of 0.5, K from 0.10 to 3.00 in steps of
// 0.01, over every prediction Predict makes there) and are fixed here, so that the held-out
// events measure the model rather than the fit; docs/win-chance.md has the figures.
// TestCalibration fails if the training optimum moves away from them, as it would if the
// rating, the spread or MinPlayed changed without a refit.
const (
	K      = 0.48
	Lambda = 2.5
)

// MinPlayed is how many qualification matches must be played before Predict gives a chance.
// Before it the ratings rest on about one play per team and the chances are a coin's to within
// noise: on the training events (every match scored, 0.5 where no chance is given) the Brier
// score is the same, 0.174–0.176, whether chances are given from the first match or from any of
// the first sixteen, and it rises from about the twentieth on (0.179 at 20, 0.189 at 30), as
// the matches left to "not enough matches yet" lose what the model knows. Twelve is about two
// plays per team at a 36-team event. It was chosen on the training events only, like K.
const MinPlayed = 12

// Spread is the standard deviation of the alliance scores of the played matches (both
// alliances of every match, population formula), the event's scale of points for WinChance. It
// is 0 with no matches.
func Spread(matches []Played) float64 {
	n := 2 * len(matches)
	if n == 0 {
		return 0
	}
	mean := 0.0
	for _, m := range matches {
		mean += float64(m.RedScore + m.BlueScore)
	}
	mean /= float64(n)
	ss := 0.0
	for _, m := range matches {
		dr, db := float64(m.RedScore)-mean, float64(m.BlueScore)-mean
		ss += dr*dr + db*db
	}
	return math.Sqrt(ss / float64(n))
}

// WinChance is the chance that an alliance whose OPRs sum to ours beats one whose OPRs sum to
// theirs, at an event whose alliance scores have the given Spread: a logistic in the difference
// measured in units of K·spread. A spread that is not positive (no matches, or every score
// equal) carries no scale, so the chance is then an even 0.5.
func WinChance(ours, theirs, spread float64) float64 {
	return winChance(ours, theirs, spread, K)
}

// winChance is WinChance with the scale k in place of K, for fitting K.
func winChance(ours, theirs, spread, k float64) float64 {
	if !(spread > 0) {
		return 0.5
	}
	return 1 / (1 + math.Exp(-(ours-theirs)/(k*spread)))
}

// Predict is the pit display's whole question: given the qualification matches played so far
// at an event, the chance that the alliance red beats the alliance blue (a tie counting as half
// a win when the chance is measured). A team that has not played yet is rated at the event's
// mean (see Ratings). ok is false, and the page should say "not enough matches yet", before
// MinPlayed matches; it is also false when an alliance has no team, since an alliance not known
// yet has no chance to give.
func Predict(played []Played, red, blue []string) (chance float64, ok bool) {
	if len(played) < MinPlayed || len(red) == 0 || len(blue) == 0 {
		return 0, false
	}
	ratings, prior, ok := Ratings(played)
	if !ok {
		return 0, false
	}
	return WinChance(allianceSum(ratings, prior, red), allianceSum(ratings, prior, blue), Spread(played)), true
}

// allianceSum adds the ratings of an alliance's teams, a team without one counting at prior.
func allianceSum(ratings map[string]float64, prior float64, teams []string) float64 {
	s := 0.0
	for _, t := range teams {
		if v, ok := ratings[t]; ok {
			s += v
		} else {
			s += prior
		}
	}
	return s
}
