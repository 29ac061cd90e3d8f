package board

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcstats/forecast"
)

// Forecast is every team's forecast final qualification rank, worked out
// by the hub from the event's matches (ForecastInputs, forecast.Forecast):
// a Monte Carlo too slow to run at every merge, so it is run once per new
// result and kept beside the answers it rests on.
type Forecast struct {
	// Played and Remaining are how many qualification matches it rests on
	// and how many it simulated: the hub runs it again when either changes.
	Played    int `json:"played"`
	Remaining int `json:"remaining"`
	// Teams are the teams' forecasts by team number.
	Teams map[string]RankForecast `json:"teams"`
}

// RankForecast is a team's forecast final qualification rank.
type RankForecast struct {
	// Top8 is the chance, from 0 to 1, of a final rank of 8 or better:
	// of being an alliance captain, or first pick of one.
	Top8 float64 `json:"top8"`
	// ExpectedRank is the mean final rank, to a tenth.
	ExpectedRank float64 `json:"expectedRank"`
	// Low and High are the range of final ranks it lands in 80 % of the
	// time, Low the better.
	Low  int `json:"low"`
	High int `json:"high"`
}

// ForecastInputs reads the forecast's inputs from the event's matches as
// TBA lists them (/event/{key}/matches, with score breakdowns): the
// season's ranking rules, when the sort orders TBA lists are those the
// forecast knows for the season of eventKey (forecast.RulesFor); the
// qualification matches played, with their breakdowns; and those still to
// play. A qualification match with scores but no readable breakdown yet
// counts as still to play: its ranking points are not known. ok is false
// for a season or sort orders the forecast does not know.
func ForecastInputs(eventKey string, sortOrders []frcapi.TBAStatInfo, matches []frcapi.TBAMatch) (r forecast.Rules, played []forecast.Played, remaining []forecast.Scheduled, ok bool) {
	year, err := strconv.Atoi(eventKey[:min(4, len(eventKey))])
	if err != nil {
		return forecast.Rules{}, nil, nil, false
	}
	names := make([]string, len(sortOrders))
	for i, s := range sortOrders {
		names[i] = s.Name
	}
	if r, ok = forecast.RulesFor(year, names); !ok {
		return forecast.Rules{}, nil, nil, false
	}
	for _, m := range matches {
		red, blue := tbaTeams(m.Alliances.Red), tbaTeams(m.Alliances.Blue)
		if m.CompLevel != "qm" || len(red) == 0 || len(blue) == 0 {
			continue
		}
		if p, err := r.Match(side(m, "red"), side(m, "blue")); err == nil && tbaScore(m.Alliances.Red) != nil && tbaScore(m.Alliances.Blue) != nil {
			played = append(played, p)
			continue
		}
		remaining = append(remaining, forecast.Scheduled{Red: red, Blue: blue})
	}
	return r, played, remaining, true
}

// side is one alliance of a TBA match as the forecast reads it; its
// Breakdown is nil when TBA sent none or one that is not an object.
func side(m frcapi.TBAMatch, colour string) forecast.Side {
	a := frcapi.Deref(m.Alliances.Red)
	if colour == "blue" {
		a = frcapi.Deref(m.Alliances.Blue)
	}
	s := forecast.Side{Teams: tbaTeams(&a), Surrogates: numbers(a.Surrogates), DQ: numbers(a.DQ), Score: frcapi.Deref(a.Score)}
	if raw, ok := m.ScoreBreakdown[colour]; ok {
		_ = json.Unmarshal(raw, &s.Breakdown) // not an object: nil, and r.Match refuses it
	}
	return s
}

// numbers are the team numbers of TBA team keys.
func numbers(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = frcapi.TeamNumber(k)
	}
	return out
}

// ForecastOf rounds the forecast's answer for the wire, by team.
func ForecastOf(teams []forecast.TeamForecast) map[string]RankForecast {
	out := make(map[string]RankForecast, len(teams))
	for _, t := range teams {
		out[t.Team] = RankForecast{Top8: math.Round(t.Top8*1000) / 1000, ExpectedRank: math.Round(t.ExpectedRank*10) / 10, Low: t.Low, High: t.High}
	}
	return out
}

// rankForecast is team's forecast while the qualifications go on and some
// are left to play; nil otherwise (once they are over, the ranking is final).
func rankForecast(f *Forecast, phase Phase, team string) *RankForecast {
	if f == nil || phase != PhaseQualifications || f.Remaining == 0 {
		return nil
	}
	if t, ok := f.Teams[team]; ok {
		return &t
	}
	return nil
}
