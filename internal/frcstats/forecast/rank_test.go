package forecast

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"testing"
)

// TestRankAgainstTBA ranks every event of testdata that has TBA's final rankings from its full
// list of qualification matches, with Rank and the season's rules, and compares each team's
// rank, matches counted and sort-order values with what TBA published. It checks the rules'
// fields, the surrogate and DQ handling and the tiebreak order on real events at once.
func TestRankAgainstTBA(t *testing.T) {
	for _, key := range slices.Concat(trainEvents, heldOutEvents) {
		ev := loadEvent(t, key)
		if ev.rankings == nil {
			continue
		}
		t.Run(key, func(t *testing.T) {
			year, err := strconv.Atoi(key[:4])
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := RulesFor(year, ev.rankings.SortOrderInfo); !ok {
				t.Fatalf("RulesFor(%d, %q) declined", year, ev.rankings.SortOrderInfo)
			}
			ours := map[string]Standing{}
			for _, s := range Rank(ev.rules, ev.played) {
				ours[s.Team] = s
			}
			if len(ours) != len(ev.rankings.Rankings) {
				t.Errorf("%d teams ranked, TBA %d", len(ours), len(ev.rankings.Rankings))
			}
			for _, row := range ev.rankings.Rankings {
				var team string
				var rank, matches int
				var values []float64
				for i, dst := range []any{&team, &rank, &matches} {
					if err := json.Unmarshal(row[i], dst); err != nil {
						t.Fatal(err)
					}
				}
				for _, raw := range row[3 : 3+1+len(ev.rules.Tiebreaks)] {
					var v float64
					if err := json.Unmarshal(raw, &v); err != nil {
						t.Fatal(err)
					}
					values = append(values, v)
				}
				s := ours[team]
				got := append([]float64{s.RankingScore}, s.Tiebreaks...)
				near := true
				for i := range got {
					// TBA shows two decimals (sort_order_info's precision), rounded for some
					// events and cut for others (2023njfla's 2.666… is 2.66).
					near = near && math.Abs(got[i]-values[i]) < 0.01+1e-9
				}
				if s.Rank != rank || s.Matches != matches || !near {
					t.Errorf("team %s: rank %d, %d matches, %v; TBA rank %d, %d matches, %v",
						team, s.Rank, s.Matches, got, rank, matches, values)
				}
			}
		})
	}
}

func TestRulesFor(t *testing.T) {
	tests := []struct {
		name       string
		year       int
		sortOrders []string
		ok         bool
	}{
		{"2025 as TBA lists it", 2025, []string{"Ranking Score", "Avg Coop", "Avg Match", "Avg Auto", "Avg Barge"}, true},
		{"2019 as TBA lists it", 2019, []string{"Ranking Score", "Cargo", "Hatch Panel", "HAB Climb", "Sandstorm Bonus"}, true},
		{"2025 with a sort order missing", 2025, []string{"Ranking Score", "Avg Coop", "Avg Match", "Avg Auto"}, false},
		{"2024's list for 2025", 2025, []string{"Ranking Score", "Avg Coop", "Avg Match", "Avg Auto", "Avg Stage"}, false},
		{"2025 in another order", 2025, []string{"Ranking Score", "Avg Match", "Avg Coop", "Avg Auto", "Avg Barge"}, false},
		{"2016, not supported", 2016, []string{"Ranking Score", "Auto", "Scale/Challenge", "Goals", "Defense"}, false},
		{"2022, not supported", 2022, []string{"Ranking Score", "Avg Match", "Avg Hangar", "Avg Taxi + Auto Cargo"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := RulesFor(tt.year, tt.sortOrders); ok != tt.ok {
				t.Errorf("RulesFor ok = %v, want %v", ok, tt.ok)
			}
		})
	}
}

// TestRankTiebreaks: the sort orders in turn, averages against totals, surrogates and DQs, on
// hand-made matches of one-team alliances.
func TestRankTiebreaks(t *testing.T) {
	avgRules := Rules{WinRP: 2, TieRP: 1, Tiebreaks: []Tiebreak{{Name: "A"}, {Name: "B"}}}
	totalRules := Rules{WinRP: 2, TieRP: 1, Tiebreaks: []Tiebreak{{Name: "A", Total: true}, {Name: "B", Total: true}}}
	al := func(team string, rp int, a, b float64) Alliance {
		return Alliance{Teams: []string{team}, RP: rp, Tiebreaks: []float64{a, b}}
	}
	m := func(red, blue Alliance) Played { return Played{Red: red, Blue: blue} }
	tests := []struct {
		name   string
		rules  Rules
		played []Played
		want   []string // teams in rank order
	}{
		{"ranking score first", avgRules, []Played{m(al("1", 2, 0, 0), al("2", 0, 99, 99))}, []string{"1", "2"}},
		{"first tiebreak when the scores tie", avgRules, []Played{m(al("1", 1, 10, 0), al("2", 1, 20, 0))}, []string{"2", "1"}},
		{"second tiebreak when the first ties too", avgRules, []Played{m(al("1", 1, 10, 5), al("2", 1, 10, 6))}, []string{"2", "1"}},
		{"every sort order tied: team number", avgRules, []Played{m(al("1209", 1, 10, 5), al("254", 1, 10, 5))}, []string{"254", "1209"}},
		{"ranking score is per match, not the total", avgRules, []Played{ // 1: 3 in 2, 2: 2 in 1
			m(al("1", 2, 0, 0), al("2", 2, 0, 0)), m(al("1", 1, 0, 0), al("3", 1, 0, 0)),
		}, []string{"2", "1", "3"}},
		{"averages: fewer matches, higher average", avgRules, []Played{
			m(al("1", 0, 30, 0), al("2", 0, 20, 0)), m(al("2", 0, 20, 0), al("3", 0, 0, 0)),
		}, []string{"1", "2", "3"}},
		{"totals: more matches, higher total", totalRules, []Played{
			m(al("1", 0, 30, 0), al("2", 0, 20, 0)), m(al("2", 0, 20, 0), al("3", 0, 0, 0)),
		}, []string{"2", "1", "3"}},
		{"a surrogate match counts for nothing", avgRules, []Played{
			m(al("1", 2, 0, 0), al("2", 0, 0, 0)),
			m(Alliance{Teams: []string{"2"}, Surrogates: []string{"2"}, RP: 2, Tiebreaks: []float64{0, 0}}, al("3", 0, 0, 0)),
		}, []string{"1", "2", "3"}},
		{"a DQ has no ranking points but counts as played", avgRules, []Played{
			m(al("1", 2, 0, 0), al("2", 0, 0, 0)),
			m(Alliance{Teams: []string{"1"}, DQ: []string{"1"}, RP: 2, Tiebreaks: []float64{0, 0}}, al("3", 2, 0, 0)),
		}, []string{"3", "1", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for i, s := range Rank(tt.rules, tt.played) {
				if s.Rank != i+1 {
					t.Errorf("%s has rank %d at place %d", s.Team, s.Rank, i+1)
				}
				got = append(got, s.Team)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ranked %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRulesRankingPoints checks each season's win and tie points and bonus fields against every
// played match of testdata: an alliance's "rp" is its result's points plus its bonuses.
func TestRulesRankingPoints(t *testing.T) {
	for _, key := range slices.Concat(trainEvents, heldOutEvents) {
		ev := loadEvent(t, key)
		bad := 0
		for _, m := range ev.played {
			for _, side := range [][2]Alliance{{m.Red, m.Blue}, {m.Blue, m.Red}} {
				a, other := side[0], side[1]
				want := 0
				switch {
				case a.Score > other.Score:
					want = ev.rules.WinRP
				case a.Score == other.Score:
					want = ev.rules.TieRP
				}
				for _, b := range a.Bonus {
					if b {
						want++
					}
				}
				if a.RP != want {
					bad++
					t.Logf("%s: %v scored %d to %d, rp %d, want %d", key, a.Teams, a.Score, other.Score, a.RP, want)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d alliances' ranking points differ from the rules", key, bad, 2*len(ev.played))
		}
	}
}
