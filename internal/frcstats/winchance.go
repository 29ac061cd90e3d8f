package frcstats

import "math"

// K scales the logistic of WinChance: an OPR-sum lead of K·spread points gives the leading
// alliance a chance of 1/(1+e⁻¹) ≈ 0.73. It was fitted once as the smallest Brier score on the
// training events of testdata (a grid from 0.10 to 3.00 in steps of 0.01, over every
// prediction Predict makes there) and is fixed here, so that the held-out events measure the
// model rather than the fit; docs/win-chance.md has the figures. TestCalibration fails if the
// training optimum moves away from it, as it would if the rating, the spread or MinPlayed
// changed without a refit.
const K = 0.74

// MinPlayed is how many qualification matches must be played before Predict gives a chance.
// OPR exists from about three plays per team (each match seats six teams but gives only two
// equations), and there it is exactly determined: it fits every score, noise included, and the
// chances it gives are little better than a coin's. Thirty matches is about four plays per team
// at a 45-team event. It was chosen on the training events only, like K, and the page says "not
// enough matches yet" before it.
const MinPlayed = 30

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
	if !(spread > 0) {
		return 0.5
	}
	return 1 / (1 + math.Exp(-(ours-theirs)/(K*spread)))
}

// Predict is the pit display's whole question: given the qualification matches played so far
// at an event, the chance that the alliance red beats the alliance blue (a tie counting as half
// a win when the chance is measured). ok is false, and the page should say "not enough matches
// yet", before MinPlayed matches, while OPR is not determined, or when a team of the coming
// match has not played yet and so has no rating.
func Predict(played []Played, red, blue []string) (chance float64, ok bool) {
	if len(played) < MinPlayed {
		return 0, false
	}
	opr, ok := OPR(played)
	if !ok {
		return 0, false
	}
	rs, ok := allianceSum(opr, red)
	if !ok {
		return 0, false
	}
	bs, ok := allianceSum(opr, blue)
	if !ok {
		return 0, false
	}
	return WinChance(rs, bs, Spread(played)), true
}

// allianceSum adds the ratings of an alliance's teams; false if one has none.
func allianceSum(opr map[string]float64, teams []string) (float64, bool) {
	s := 0.0
	for _, t := range teams {
		v, ok := opr[t]
		if !ok {
			return 0, false
		}
		s += v
	}
	return s, true
}
