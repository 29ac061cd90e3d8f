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

// Runs is how many times Forecast plays the rest of the schedule. At 10,000 a probability's
// Monte Carlo error is at most 0.005 (one standard deviation, at 50 %), below the page's whole
// percent.
const Runs = 10_000

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
	// Rules.Tiebreaks; each run adds a normal deviation of the TiebreakSD given to Simulate.
	RedTiebreaks, BlueTiebreaks []float64
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
	// Low and High are the 10th and 90th percentiles of the final rank: in 80 % of the runs the
	// team finished from Low to High (Low the better rank).
	Low, High int
}

// Forecast is the board's question: given the qualification matches played so far (in any
// order), the ones still to play and the season's rules, each team's chance of finishing in the
// top 8, its expected final rank and the range it lands in 80 % of the time, in the order of the
// ranking now. ok is false before frcstats.MinPlayed matches, or while the ratings are not
// determined (frcstats.OPR); then the page shows no forecast. With no match left the forecast is
// the ranking itself.
func Forecast(r Rules, played []Played, remaining []Scheduled, seed uint64) (teams []TeamForecast, ok bool) {
	coming, sd, ok := Expect(r, played, remaining)
	if !ok {
		return nil, false
	}
	return Simulate(r, played, coming, sd, Runs, seed), true
}

// Expect is the model of Forecast: what it expects of each remaining match, and the alliance
// scale of each tiebreak's spread (TiebreakSD) around what it expects.
//
//   - The winner: frcstats.Predict from the played matches; an alliance with a team that has
//     not played yet gets an even chance.
//   - Each bonus ranking point: the event's mean plus the alliance's teams' deviations from it,
//     each team's rate shrunk toward the mean by BonusShrink.
//   - Each tiebreak: the sum of the alliance's teams' OPR for that value (frcstats.OPR on the
//     tiebreak instead of the score), with the standard deviation of that fit's residuals.
func Expect(r Rules, played []Played, remaining []Scheduled) (coming []Coming, tiebreakSD []float64, ok bool) {
	if len(played) < frcstats.MinPlayed {
		return nil, nil, false
	}
	byScore := make([]frcstats.Played, len(played))
	for i, m := range played {
		byScore[i] = frcstats.Played{Red: m.Red.Teams, Blue: m.Blue.Teams, RedScore: m.Red.Score, BlueScore: m.Blue.Score}
	}
	if _, ok := frcstats.OPR(byScore); !ok {
		return nil, nil, false
	}

	bonus := bonusRates(r, played, BonusShrink)

	// One OPR per tiebreak, on the same schedule as the score's (so determined when it is).
	tbOPR := make([]map[string]float64, len(r.Tiebreaks))
	tbMean := make([]float64, len(r.Tiebreaks))
	tiebreakSD = make([]float64, len(r.Tiebreaks))
	for i := range r.Tiebreaks {
		by := make([]frcstats.Played, len(played))
		for j, m := range played {
			by[j] = frcstats.Played{Red: m.Red.Teams, Blue: m.Blue.Teams,
				RedScore: int(math.Round(m.Red.Tiebreaks[i])), BlueScore: int(math.Round(m.Blue.Tiebreaks[i]))}
		}
		opr, ok := frcstats.OPR(by)
		if !ok {
			return nil, nil, false
		}
		tbOPR[i] = opr
		ss := 0.0
		for _, m := range played {
			for _, a := range []Alliance{m.Red, m.Blue} {
				d := a.Tiebreaks[i] - sumOf(opr, a.Teams, 0)
				ss += d * d
				tbMean[i] += a.Tiebreaks[i]
			}
		}
		tiebreakSD[i] = math.Sqrt(ss / float64(2*len(played)))
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
		coming = append(coming, c)
	}
	return coming, tiebreakSD, true
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

// Simulate plays the coming matches runs times from the standings of the played ones and
// returns each team's forecast, in the order of the ranking now. Each run draws every winner
// (RedWins), every bonus ranking point, a normal deviation of tiebreakSD around each expected
// tiebreak value, and lots for teams that every sort order leaves tied. The same seed gives the
// same forecast.
func Simulate(r Rules, played []Played, coming []Coming, tiebreakSD []float64, runs int, seed uint64) []TeamForecast {
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
	type seats struct{ red, blue []int }
	seated := make([]seats, len(coming))
	for j, c := range coming {
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
	hist := make([]int, n*n) // hist[team*n + place] counts the runs team finished at place (0 = first)
	for range runs {
		copy(matches, baseMatches)
		copy(rp, baseRP)
		copy(tb, baseTB)
		for j, c := range coming {
			var redRP, blueRP float64
			if rng.Float64() < c.RedWins {
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
