// Package frcstats rates FRC teams from the qualification matches played so far at an event and
// turns the ratings into a win chance for a coming match. It is pure: no I/O, no clock, no
// network; the caller passes the played matches in.
//
// # The rating: OPR
//
// The offensive power rating (OPR) models each alliance's score as the sum of one number per
// team on it:
//
//	score(alliance) ≈ Σ_{t ∈ alliance} opr[t]
//
// Every played match gives two such equations (red and blue). Stacked, they are A·x ≈ b with A
// the alliance-by-team 0/1 matrix, x the ratings and b the scores. OPR is the least-squares
// solution, found from the normal equations AᵀA·x = Aᵀb. AᵀA is symmetric and, when the system
// is determined, positive definite, so it is solved by a Cholesky factorisation; a pivot that
// comes out (near) zero means the matches do not separate some teams (too few matches, or two
// teams that have only ever played together) and OPR reports that instead of a number.
//
// The model ignores defence, penalties that score for the other alliance, and that a team's
// contribution depends on its partners; it is the usual event-day rating because it needs
// nothing but the scores.
//
// # The win chance
//
// OPR is exactly determined at about three plays per team, where it fits every score, noise
// included, and its differences are mostly noise. The win chance therefore rates teams with
// Ratings, OPR with a prior: each rating is pulled toward the event's mean score per team
// (the prior), as if the team had also played Lambda matches alone and scored exactly the
// prior in each. Early in an event the
// ratings stay near the prior and the chances near even; as a team's matches add up, its own
// scores outweigh the prior. (This is ridge regression, the posterior mean of a Gaussian prior
// on each rating.)
//
// A coming match is predicted from the difference d of the two alliances' rating sums, scaled
// by how widely scores vary at this event (Spread, the standard deviation of the alliance scores
// played so far), through a logistic:
//
//	p(red wins) = 1 / (1 + exp(−d / (K·spread)))
//
// Scaling by the spread makes one K serve every game year, whose scores differ by an order of
// magnitude. Lambda, K and MinPlayed were fitted once on past events and are fixed;
// docs/win-chance.md has how, and the measured calibration on held-out events.
package frcstats

import (
	"maps"
	"math"
	"slices"
)

// Played is one played qualification match: the team numbers ("1209") of each alliance and
// their final scores. A team must not appear twice in one alliance; surrogates are not marked
// and count like any other team, since they played and their robot added to the score.
type Played struct {
	Red, Blue           []string
	RedScore, BlueScore int
}

// singularTol is how small a Cholesky pivot may get, relative to the largest diagonal entry of
// AᵀA, before the system counts as singular. AᵀA holds small integers (how many alliances two
// teams shared), so a truly singular system leaves pivots at rounding-error size, many orders
// below this, while a determined one keeps them far above it.
const singularTol = 1e-9

// OPR returns each team's offensive power rating, the least-squares fit of the alliance scores
// by sums of per-team ratings (see the package comment). ok is false when the matches do not
// determine the ratings: fewer alliance scores than teams, or a singular system (some teams
// never separated by the schedule so far). Then the page should say "not enough matches yet"
// rather than show numbers.
func OPR(matches []Played) (opr map[string]float64, ok bool) {
	ne := normalEquations(matches)
	n := len(ne.teams)
	if n == 0 || 2*len(matches) < n {
		return nil, false
	}
	x, ok := solveCholesky(ne.ata, ne.atb, n)
	if !ok {
		return nil, false
	}
	return ne.byTeam(x), true
}

// Ratings returns each team's rating for the win chance: the least-squares fit of OPR with a
// prior that pulls every rating toward the event's mean score per team (the prior), with the
// weight of Lambda alliance scores (see the package comment). Unlike OPR it exists from the first
// match, since the prior determines what the scores do not; a team that has not played yet is
// rated at the prior. ok is false only with no matches.
func Ratings(matches []Played) (ratings map[string]float64, prior float64, ok bool) {
	return ratingsAt(matches, Lambda)
}

// ratingsAt is Ratings with the prior's weight lambda in place of Lambda, for fitting Lambda.
func ratingsAt(matches []Played, lambda float64) (ratings map[string]float64, prior float64, ok bool) {
	ne := normalEquations(matches)
	n := len(ne.teams)
	if n == 0 {
		return nil, 0, false
	}
	prior = ne.scoreSum / float64(ne.seats)
	for i := range n {
		ne.ata[i*n+i] += lambda
		ne.atb[i] += lambda * prior
	}
	x, ok := solveCholesky(ne.ata, ne.atb, n)
	if !ok {
		return nil, 0, false
	}
	return ne.byTeam(x), prior, true
}

// normal holds the normal equations AᵀA·x = Aᵀb of the matches, the teams in sorted order.
type normal struct {
	teams []string
	// ata[i*n+j] counts the alliances teams i and j shared; atb[i] sums team i's alliance
	// scores.
	ata, atb []float64
	// scoreSum adds every alliance score, each counted once; seats counts the teams of
	// every alliance.
	scoreSum float64
	seats    int
}

func normalEquations(matches []Played) normal {
	index := map[string]int{}
	for _, m := range matches {
		for _, t := range m.Red {
			index[t] = 0
		}
		for _, t := range m.Blue {
			index[t] = 0
		}
	}
	// Sorted team order makes the floating-point sums, and so the result, the same on every
	// run whatever the map's iteration order.
	ne := normal{teams: slices.Sorted(maps.Keys(index))}
	for i, t := range ne.teams {
		index[t] = i
	}
	n := len(ne.teams)
	ne.ata = make([]float64, n*n)
	ne.atb = make([]float64, n)
	add := func(alliance []string, score int) {
		ne.scoreSum += float64(score)
		ne.seats += len(alliance)
		for _, t := range alliance {
			i := index[t]
			ne.atb[i] += float64(score)
			for _, u := range alliance {
				ne.ata[i*n+index[u]]++
			}
		}
	}
	for _, m := range matches {
		add(m.Red, m.RedScore)
		add(m.Blue, m.BlueScore)
	}
	return ne
}

// byTeam maps the solution x back to the teams.
func (ne normal) byTeam(x []float64) map[string]float64 {
	out := make(map[string]float64, len(ne.teams))
	for i, t := range ne.teams {
		out[t] = x[i]
	}
	return out
}

// solveCholesky solves a·x = b for the symmetric n×n matrix a (row-major), factorising it in
// place as L·Lᵀ. It reports false when a is not positive definite to within singularTol.
// Cholesky needs no pivoting on a positive definite matrix and is stable there, which is why it
// suits the normal equations.
func solveCholesky(a, b []float64, n int) ([]float64, bool) {
	maxDiag := 0.0
	for i := range n {
		maxDiag = max(maxDiag, a[i*n+i])
	}
	if maxDiag <= 0 {
		return nil, false
	}
	tol := singularTol * maxDiag
	for j := range n {
		d := a[j*n+j]
		for k := range j {
			d -= a[j*n+k] * a[j*n+k]
		}
		if !(d > tol) { // also catches NaN
			return nil, false
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := range j {
				s -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = s / d
		}
	}
	// Forward substitution L·y = b, then back substitution Lᵀ·x = y, both in x.
	x := slices.Clone(b)
	for i := range n {
		s := x[i]
		for k := range i {
			s -= a[i*n+k] * x[k]
		}
		x[i] = s / a[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < n; k++ {
			s -= a[k*n+i] * x[k]
		}
		x[i] = s / a[i*n+i]
	}
	return x, true
}
