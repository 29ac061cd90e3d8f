// Package forecast forecasts an event's final qualification ranking from the matches played so
// far: a Monte Carlo over the rest of the schedule, each match's winner drawn from frcstats' win
// chance, each bonus ranking point from the alliance's teams' observed rates, and ties broken
// by the season's sort orders as The Blue Alliance lists them. It is pure like frcstats: no I/O,
// no clock, no goroutines; one seed gives one answer.
//
// docs/forecast.md has the model, what it approximates, and its calibration on real events.
package forecast

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/robohornets/robohornets/internal/frcstats"
)

// MinPlayed is how many qualification matches must be played before Forecast answers: from
// the 30th on, about four plays per team at a 45-team event, so every team's strength and bonus
// rates rest on some matches of its own. It is larger than frcstats.MinPlayed, from which a
// single match's win chance is already worth showing.
const MinPlayed = 30

// Runs is how many times Forecast plays the rest of the schedule. At 10,000 a probability's
// Monte Carlo error is at most 0.005 (one standard deviation, at 50 %), below the page's whole
// percent.
const Runs = 10_000

// StrengthSpread scales the uncertainty of a team's strength: each run moves the logit of its
// win chances by a normal offset of standard deviation StrengthSpread/√(matches it has played),
// one offset for all its matches. Without it every run would play the event as if the ratings
// were exact, and the final ranks would spread too little. It was fitted once as the smallest
// Brier score of P(top 8) on the training events (a grid of 0 to 2 in steps of 0.25;
// TestStrengthSpread fails if the optimum moves away); the optimum is shallow, docs/forecast.md
// has the figures.
const StrengthSpread = 0.75

// BonusShrink is how many matches' worth of the event's mean rate a team's observed rate of a
// bonus ranking point is blended with: rate = (earned + BonusShrink·mean) / (played +
// BonusShrink). A team whose alliances earned it in 3 of its 4 matches, at an event where
// alliances earn it half the time, is given (3 + 8.5·0.5)/(4 + 8.5) = 0.58, not 0.75: four
// matches say little, and each was earned with two partners. An alliance's chance is the
// event's mean plus its teams' deviations from it, so unshrunk rates would count every lucky
// partner three times over. It was fitted once as the smallest Brier score of the bonus
// predictions on the training events (a grid of 0 to 20 in steps of 0.5; TestBonusShrink fails
// if the optimum moves away); docs/forecast.md has the figures.
const BonusShrink = 8.5

// Scheduled is a qualification match not played yet: its alliances' team numbers.
type Scheduled struct {
	Red, Blue []string
}

// Coming is a match not played yet with what the model expects of it.
type Coming struct {
	Red, Blue []string
	// RedWins is the chance that red wins; ties are not simulated.
	RedWins float64
	// RedBonus and BlueBonus are each alliance's chance of each bonus ranking point (one per
	// Rules.Bonus).
	RedBonus, BlueBonus []float64
	// RedTiebreaks and BlueTiebreaks are each alliance's expected value of each of
	// Rules.Tiebreaks; each run adds a normal deviation of Model.TiebreakSD.
	RedTiebreaks, BlueTiebreaks []float64
}

// Model is what the forecast expects of the rest of the schedule.
type Model struct {
	Coming []Coming
	// TiebreakSD is, for each of Rules.Tiebreaks, the standard deviation of an alliance's value
	// around its expected one.
	TiebreakSD []float64
	// StrengthSD is, per team, the standard deviation of an offset to its strength that each
	// run draws once, in units of the win chance's logit: the ratings' own uncertainty, which
	// moves all of a team's matches together. A team not listed has none.
	StrengthSD map[string]float64
}

// TeamForecast is one team's forecast final rank.
type TeamForecast struct {
	Team string
	// Rank is the team's rank now, by the same rules (Rank); 0 for a team that has not played.
	Rank int
	// Top8 is the chance of a final rank of 8 or better.
	Top8 float64
	// ExpectedRank is the mean final rank over the runs.
	ExpectedRank float64
	// Low and High are the 10th and 90th percentiles of the final rank: in at least 80 % of
	// the runs the team finished from Low to High (Low the better rank).
	Low, High int
}

// Forecast is the board's question: given the qualification matches played so far (in any
// order), the ones still to play and the season's rules, each team's chance of finishing in the
// top 8, its expected final rank and the range it lands in 80 % of the time, in the order of the
// ranking now. ok is false before MinPlayed matches, or while the ratings are not
// determined (frcstats.OPR); then the page shows no forecast. With no match left the forecast is
// the ranking itself, but for lots between teams level on every sort order.
func Forecast(r Rules, played []Played, remaining []Scheduled, seed uint64) (teams []TeamForecast, ok bool) {
	m, ok := Expect(r, played, remaining)
	if !ok {
		return nil, false
	}
	return Simulate(r, played, m, Runs, seed), true
}

// Expect is the model of Forecast: what it expects of each remaining match, and how uncertain
// that is.
//
//   - The winner: frcstats.Predict from the played matches; an alliance with a team that has
//     not played yet gets an even chance.
//   - Each bonus ranking point: the event's mean plus the alliance's teams' deviations from it,
//     each team's rate shrunk toward the mean by BonusShrink.
//   - Each tiebreak: the sum of the alliance's teams' OPR for that value (frcstats.OPR on the
//     tiebreak instead of the score), with the standard deviation of that fit's residuals.
//   - Each team's strength: uncertain by StrengthSpread/√(matches it has played) in the
//     logit of the win chance.
func Expect(r Rules, played []Played, remaining []Scheduled) (m Model, ok bool) {
	return expect(r, played, remaining, StrengthSpread)
}

// expect is Expect with the strength's uncertainty as a parameter (StrengthSpread; the fit
// tries others).
func expect(r Rules, played []Played, remaining []Scheduled, strengthSpread float64) (m Model, ok bool) {
	if len(played) < MinPlayed {
		return Model{}, false
	}
	byScore := make([]frcstats.Played, len(played))
	for i, m := range played {
		byScore[i] = frcstats.Played{Red: m.Red.Teams, Blue: m.Blue.Teams, RedScore: m.Red.Score, BlueScore: m.Blue.Score}
	}
	if _, ok := frcstats.OPR(byScore); !ok {
		return Model{}, false
	}

	bonus := bonusRates(r, played, BonusShrink)

	// One OPR per tiebreak, on the same schedule as the score's (so determined when it is).
	tbOPR := make([]map[string]float64, len(r.Tiebreaks))
	tbMean := make([]float64, len(r.Tiebreaks))
	m.TiebreakSD = make([]float64, len(r.Tiebreaks))
	for i := range r.Tiebreaks {
		by := make([]frcstats.Played, len(played))
		for j, m := range played {
			by[j] = frcstats.Played{Red: m.Red.Teams, Blue: m.Blue.Teams,
				RedScore: int(math.Round(m.Red.Tiebreaks[i])), BlueScore: int(math.Round(m.Blue.Tiebreaks[i]))}
		}
		opr, ok := frcstats.OPR(by)
		if !ok {
			return Model{}, false
		}
		tbOPR[i] = opr
		ss := 0.0
		for _, p := range played {
			for _, a := range []Alliance{p.Red, p.Blue} {
				d := a.Tiebreaks[i] - sumOf(opr, a.Teams, 0)
				ss += d * d
				tbMean[i] += a.Tiebreaks[i]
			}
		}
		m.TiebreakSD[i] = math.Sqrt(ss / float64(2*len(played)))
		tbMean[i] /= float64(2 * len(played))
	}

	for _, s := range remaining {
		c := Coming{Red: s.Red, Blue: s.Blue}
		c.RedWins, ok = frcstats.Predict(byScore, s.Red, s.Blue)
		if !ok {
			c.RedWins = 0.5
		}
		c.RedBonus, c.BlueBonus = bonus.alliance(s.Red), bonus.alliance(s.Blue)
		for i := range r.Tiebreaks {
			// A team with no rating yet counts as an average team: a third of an alliance's mean.
			unrated := tbMean[i] / 3
			c.RedTiebreaks = append(c.RedTiebreaks, sumOf(tbOPR[i], s.Red, unrated))
			c.BlueTiebreaks = append(c.BlueTiebreaks, sumOf(tbOPR[i], s.Blue, unrated))
		}
		m.Coming = append(m.Coming, c)
	}

	plays := map[string]int{}
	for _, p := range played {
		for _, t := range slices.Concat(p.Red.Teams, p.Blue.Teams) {
			plays[t]++
		}
	}
	m.StrengthSD = map[string]float64{}
	for t, n := range plays {
		m.StrengthSD[t] = strengthSpread / math.Sqrt(float64(n))
	}
	return m, true
}

// sumOf adds the ratings of teams, counting unrated for a team without one.
func sumOf(rating map[string]float64, teams []string, unrated float64) float64 {
	s := 0.0
	for _, t := range teams {
		if v, ok := rating[t]; ok {
			s += v
		} else {
			s += unrated
		}
	}
	return s
}

// rates are the shrunk rates of each bonus ranking point per team, and the event's means.
type rates struct {
	team map[string][]float64
	mean []float64
}

// bonusRates counts each team's bonus ranking points over every match it played in (surrogate
// or not: the alliance earned them with it) and shrinks the rates toward the event's mean by
// shrink matches (BonusShrink; the fit tries others).
func bonusRates(r Rules, played []Played, shrink float64) rates {
	k := len(r.Bonus)
	earned := map[string][]float64{}
	plays := map[string]float64{}
	mean := make([]float64, k)
	for _, m := range played {
		for _, a := range []Alliance{m.Red, m.Blue} {
			for _, t := range a.Teams {
				if earned[t] == nil {
					earned[t] = make([]float64, k)
				}
				plays[t]++
				for i, b := range a.Bonus {
					if b {
						earned[t][i]++
					}
				}
			}
			for i, b := range a.Bonus {
				if b {
					mean[i]++
				}
			}
		}
	}
	for i := range mean {
		mean[i] /= float64(2 * len(played))
	}
	out := rates{team: map[string][]float64{}, mean: mean}
	for t, e := range earned {
		rs := make([]float64, k)
		for i := range rs {
			rs[i] = (e[i] + shrink*mean[i]) / (plays[t] + shrink)
		}
		out.team[t] = rs
	}
	return out
}

// alliance is the chance of each bonus for an alliance: the event's mean plus the sum of its
// teams' deviations from it (the event's mean for a team that has not played), within [0, 1].
func (rt rates) alliance(teams []string) []float64 {
	p := slices.Clone(rt.mean)
	for _, t := range teams {
		rs, ok := rt.team[t]
		if !ok {
			continue
		}
		for i, v := range rs {
			p[i] += v - rt.mean[i]
		}
	}
	for i := range p {
		p[i] = min(max(p[i], 0), 1)
	}
	return p
}

// Simulate plays the model's coming matches runs times from the standings of the played ones
// and returns each team's forecast, in the order of the ranking now. Each run draws an offset
// to every team's strength (StrengthSD), then every winner (RedWins moved by the offsets),
// every bonus ranking point, a normal deviation of TiebreakSD around each expected tiebreak
// value, and lots for teams that every sort order leaves tied. The same seed gives the same
// forecast.
func Simulate(r Rules, played []Played, m Model, runs int, seed uint64) []TeamForecast {
	coming, tiebreakSD := m.Coming, m.TiebreakSD
	now := Rank(r, played)
	index := map[string]int{}
	var teams []string
	for _, s := range now {
		index[s.Team] = len(teams)
		teams = append(teams, s.Team)
	}
	for _, c := range coming {
		for _, t := range slices.Concat(c.Red, c.Blue) {
			if _, ok := index[t]; !ok {
				index[t] = len(teams)
				teams = append(teams, t)
			}
		}
	}
	n, nt := len(teams), len(r.Tiebreaks)

	// The played matches' sums, the start of every run.
	baseMatches := make([]int, n)
	baseRP := make([]float64, n)
	baseTB := make([]float64, n*nt)
	for team, t := range tallies(r, played) {
		i := index[team]
		baseMatches[i], baseRP[i] = t.matches, t.rp
		copy(baseTB[i*nt:], t.tiebreaks)
	}
	// Each match's win chance as a logit, which the strength offsets move.
	type seats struct {
		red, blue []int
		logit     float64
	}
	seated := make([]seats, len(coming))
	for j, c := range coming {
		seated[j].logit = math.Log(c.RedWins / (1 - c.RedWins)) // ±Inf for a sure result, which stays sure
		for _, t := range c.Red {
			seated[j].red = append(seated[j].red, index[t])
		}
		for _, t := range c.Blue {
			seated[j].blue = append(seated[j].blue, index[t])
		}
	}

	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	matches := make([]int, n)
	rp := make([]float64, n)
	tb := make([]float64, n*nt)
	rs := make([]float64, n)
	keys := make([]float64, n*nt)
	lots := make([]float64, n)
	order := make([]int, n)
	redTB, blueTB := make([]float64, nt), make([]float64, nt)
	strengthSD := make([]float64, n)
	for i, t := range teams {
		strengthSD[i] = m.StrengthSD[t]
	}
	offset := make([]float64, n)
	hist := make([]int, n*n) // hist[team*n + place] counts the runs team finished at place (0 = first)
	for range runs {
		copy(matches, baseMatches)
		copy(rp, baseRP)
		copy(tb, baseTB)
		for i, sd := range strengthSD {
			offset[i] = 0
			if sd > 0 {
				offset[i] = sd * rng.NormFloat64()
			}
		}
		for j, c := range coming {
			logit := seated[j].logit
			for _, i := range seated[j].red {
				logit += offset[i]
			}
			for _, i := range seated[j].blue {
				logit -= offset[i]
			}
			var redRP, blueRP float64
			if rng.Float64() < 1/(1+math.Exp(-logit)) {
				redRP = float64(r.WinRP)
			} else {
				blueRP = float64(r.WinRP)
			}
			for k := range c.RedBonus {
				if rng.Float64() < c.RedBonus[k] {
					redRP++
				}
				if rng.Float64() < c.BlueBonus[k] {
					blueRP++
				}
			}
			for k := range nt {
				redTB[k] = c.RedTiebreaks[k] + tiebreakSD[k]*rng.NormFloat64()
				blueTB[k] = c.BlueTiebreaks[k] + tiebreakSD[k]*rng.NormFloat64()
			}
			for _, i := range seated[j].red {
				matches[i]++
				rp[i] += redRP
				for k, v := range redTB {
					tb[i*nt+k] += v
				}
			}
			for _, i := range seated[j].blue {
				matches[i]++
				rp[i] += blueRP
				for k, v := range blueTB {
					tb[i*nt+k] += v
				}
			}
		}
		for i := range n {
			t := tally{matches: matches[i], rp: rp[i], tiebreaks: tb[i*nt : (i+1)*nt]}
			rs[i] = t.sortKeys(r, keys[i*nt:(i+1)*nt])
			lots[i] = rng.Float64()
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			if c := compareKeys(rs[a], keys[a*nt:(a+1)*nt], rs[b], keys[b*nt:(b+1)*nt]); c != 0 {
				return c
			}
			return cmp.Compare(lots[a], lots[b])
		})
		for place, i := range order {
			hist[i*n+place]++
		}
	}

	rankNow := map[string]int{}
	for _, s := range now {
		rankNow[s.Team] = s.Rank
	}
	out := make([]TeamForecast, n)
	for i, team := range teams {
		f := TeamForecast{Team: team, Rank: rankNow[team]}
		cum, sum := 0, 0
		for place := range n {
			c := hist[i*n+place]
			cum += c
			sum += c * (place + 1)
			if place+1 == 8 {
				f.Top8 = float64(cum) / float64(runs)
			}
			if f.Low == 0 && 10*cum >= runs {
				f.Low = place + 1
			}
			if f.High == 0 && 10*cum >= 9*runs {
				f.High = place + 1
			}
		}
		if n < 8 {
			f.Top8 = 1
		}
		f.ExpectedRank = float64(sum) / float64(runs)
		out[i] = f
	}
	return out
}
