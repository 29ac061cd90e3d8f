package forecast

import (
	"encoding/json"
	"github.com/robohornets/robohornets/bench/part"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The real events of testdata (see testdata/SOURCES.md). The training events are frcstats'
// (its K was fitted on them) and BonusShrink was fitted on them too; the held-out events are
// fitted on by nothing and are used only to report the calibration.
var (
	trainEvents   = []string{"2023cada", "2023njfla", "2024nytr", "2025mndu", "2025oncmp2"}
	heldOutEvents = []string{"2018necmp", "2019micmp3", "2019nyny", "2023mijac", "2023onlon", "2025isde1", "2025mndu2", "2026marea"}
)

// realEvent is one event's qualification matches in the order they were played, and TBA's final
// rankings when testdata has them.
type realEvent struct {
	key      string
	rules    Rules
	played   []Played
	rankings *tbaRankings
}

// tbaRankings is the reduced /event/{key}/rankings: sort_order_info's names, and per team
// [team, rank, matches_played, sort_orders...].
type tbaRankings struct {
	SortOrderInfo []string            `json:"sort_order_info"`
	Rankings      [][]json.RawMessage `json:"rankings"`
}

// loadEvent reads testdata/<key>.json: per match its key and each alliance as [teams, score,
// breakdown values in the order of "fields"], with the match's surrogates and disqualified
// teams.
func loadEvent(t testing.TB, key string) realEvent {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", key+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Event   string   `json:"event"`
		Fields  []string `json:"fields"`
		Matches []struct {
			Key        string             `json:"key"`
			Red        [3]json.RawMessage `json:"red"`
			Blue       [3]json.RawMessage `json:"blue"`
			Surrogates []string           `json:"surrogates"`
			DQ         []string           `json:"dq"`
		} `json:"matches"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	year, _ := strconv.Atoi(key[:4])
	ev := realEvent{key: key, rules: seasons[year]}
	for _, m := range f.Matches {
		side := func(raw [3]json.RawMessage) Side {
			var teams []string
			var score int
			var values []float64
			for j, dst := range []any{&teams, &score, &values} {
				if err := json.Unmarshal(raw[j], dst); err != nil {
					t.Fatalf("%s %s: %v", key, m.Key, err)
				}
			}
			s := Side{Teams: teams, Score: score, Breakdown: map[string]any{}}
			for j, name := range f.Fields {
				// Rebuild the nesting a dotted name stands for, as TBA sends it.
				path := strings.Split(name, ".")
				node := s.Breakdown
				for _, p := range path[:len(path)-1] {
					if node[p] == nil {
						node[p] = map[string]any{}
					}
					node = node[p].(map[string]any)
				}
				node[path[len(path)-1]] = values[j]
			}
			for _, team := range teams {
				if slices.Contains(m.Surrogates, team) {
					s.Surrogates = append(s.Surrogates, team)
				}
				if slices.Contains(m.DQ, team) {
					s.DQ = append(s.DQ, team)
				}
			}
			return s
		}
		p, err := ev.rules.Match(side(m.Red), side(m.Blue))
		if err != nil {
			t.Fatalf("%s %s: %v", key, m.Key, err)
		}
		ev.played = append(ev.played, p)
	}
	if b, err := os.ReadFile(filepath.Join("testdata", key+"_rankings.json")); err == nil {
		ev.rankings = &tbaRankings{}
		if err := json.Unmarshal(b, ev.rankings); err != nil {
			t.Fatal(err)
		}
	}
	return ev
}

// schedule is the remaining schedule: the alliances of the matches from played on.
func schedule(matches []Played) []Scheduled {
	out := make([]Scheduled, len(matches))
	for i, m := range matches {
		out[i] = Scheduled{Red: m.Red.Teams, Blue: m.Blue.Teams}
	}
	return out
}

// writeBenchPart writes make bench's part name (bench/part) when make bench asks for it.
func writeBenchPart(t testing.TB, name string, p part.Part) {
	t.Helper()
	if err := part.Write(name, p); err != nil {
		t.Fatal(err)
	}
}

// stages are the points of the quals the calibration forecasts from: a third, a half and two
// thirds of the event's qualification matches, but never before MinPlayed, when there
// is no forecast.
var stages = []struct {
	name     string
	num, den int
}{{"⅓", 1, 3}, {"½", 1, 2}, {"⅔", 2, 3}}

func stageAt(n, num, den int) int {
	return max((n*num+den/2)/den, MinPlayed)
}

// calibrationSeed is the seed of every forecast of the calibration.
const calibrationSeed = 1209
