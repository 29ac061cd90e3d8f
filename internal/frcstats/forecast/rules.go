package forecast

import (
	"fmt"
	"slices"
	"strings"
)

// Rules are a season's ranking rules as far as the forecast needs them: the ranking points a
// win and a tie give, the bonus ranking points an alliance can earn in a match, and the sort
// orders that break ties in the ranking score, each read from TBA's score breakdown.
type Rules struct {
	// WinRP and TieRP are the ranking points of a win and of a tie; a loss gives none.
	WinRP, TieRP int
	// Bonus names the breakdown field of each bonus ranking point, true (or 1) when the
	// alliance earned it.
	Bonus []string
	// Tiebreaks are the sort orders after the ranking score, in TBA's order
	// (sort_order_info[1:]).
	Tiebreaks []Tiebreak
}

// Tiebreak is one sort order after the ranking score: a value per alliance and match, taken
// from the score breakdown, summed over a team's matches or averaged over them.
type Tiebreak struct {
	// Name is TBA's name of the sort order ("Avg Match").
	Name string
	// Plus and Minus are breakdown fields (a dot steps into a nested object, "hubScore.autoPoints")
	// added and subtracted to make the alliance's value.
	Plus, Minus []string
	// Total is true when the sort order is the sum over the team's matches (2018, 2019), false
	// when it is their average.
	Total bool
	// Both, when set, makes the value a coopertition instead: 1 when this field is at least
	// BothMin for both alliances of the match, else 0 (Plus and Minus unused).
	Both    string
	BothMin float64
}

// rankingScore is the name TBA gives the first sort order of every supported season: the
// ranking points per match counted.
const rankingScore = "Ranking Score"

// matchPoints is "Avg Match" of 2023 on: the score without the points the other alliance's fouls
// gave.
var matchPoints = Tiebreak{Name: "Avg Match", Plus: []string{"totalPoints"}, Minus: []string{"foulPoints"}}

// avg is a sort order averaged over a team's matches: the sum of fields.
func avg(name string, fields ...string) Tiebreak { return Tiebreak{Name: name, Plus: fields} }

// total is a sort order summed over a team's matches: the sum of fields.
func total(name string, fields ...string) Tiebreak {
	return Tiebreak{Name: name, Plus: fields, Total: true}
}

// seasons are the supported seasons' rules, with TBA's sort_order_info names and breakdown
// fields. The tests check the ranking points of every season against every match of testdata
// (TestRulesRankingPoints), and the sort orders against TBA's published final rankings of 2018,
// 2019, 2023, 2024 and 2025 (TestRankAgainstTBA); 2026's "Avg Match" is taken to exclude foul
// points as in 2023–2025.
var seasons = map[int]Rules{
	2018: {WinRP: 2, TieRP: 1, Bonus: []string{"autoQuestRankingPoint", "faceTheBossRankingPoint"},
		Tiebreaks: []Tiebreak{total("Park/Climb Points", "endgamePoints"), total("Auto", "autoPoints"),
			total("Ownership", "autoOwnershipPoints", "teleopOwnershipPoints"), total("Vault", "vaultPoints")}},
	2019: {WinRP: 2, TieRP: 1, Bonus: []string{"completeRocketRankingPoint", "habDockingRankingPoint"},
		Tiebreaks: []Tiebreak{total("Cargo", "cargoPoints"), total("Hatch Panel", "hatchPanelPoints"),
			total("HAB Climb", "habClimbPoints"), total("Sandstorm Bonus", "sandStormBonusPoints")}},
	2023: {WinRP: 2, TieRP: 1, Bonus: []string{"sustainabilityBonusAchieved", "activationBonusAchieved"},
		Tiebreaks: []Tiebreak{matchPoints, avg("Avg Charge Station", "totalChargeStationPoints"), avg("Avg Auto", "autoPoints")}},
	2024: {WinRP: 2, TieRP: 1, Bonus: []string{"melodyBonusAchieved", "ensembleBonusAchieved"},
		Tiebreaks: []Tiebreak{avg("Avg Coop", "coopertitionBonusAchieved"), matchPoints,
			avg("Avg Auto", "autoPoints"), avg("Avg Stage", "endGameTotalStagePoints")}},
	2025: {WinRP: 3, TieRP: 1, Bonus: []string{"autoBonusAchieved", "coralBonusAchieved", "bargeBonusAchieved"},
		// The coopertition is two algae in the processor by each alliance (wallAlgaeCount):
		// TBA's own coopertitionCriteriaMet disagrees with its rankings' Avg Coop on its 2025
		// events, the algae counts agree.
		Tiebreaks: []Tiebreak{{Name: "Avg Coop", Both: "wallAlgaeCount", BothMin: 2}, matchPoints,
			avg("Avg Auto", "autoPoints"), avg("Avg Barge", "endGameBargePoints")}},
	2026: {WinRP: 3, TieRP: 1, Bonus: []string{"energizedAchieved", "superchargedAchieved", "traversalAchieved"},
		Tiebreaks: []Tiebreak{matchPoints, avg("Avg Auto Fuel", "hubScore.autoPoints"), avg("Avg Tower", "totalTowerPoints")}},
}

// RulesFor returns the ranking rules of the season year when the sort orders TBA lists for the
// event (the names of /event/{key}/rankings' sort_order_info, in order) are the ones those rules
// compute. ok is false for a season the forecast does not support (before 2018, 2020–2022) or a
// list that differs from it: then there is no forecast, rather than one ranked by other rules.
func RulesFor(year int, sortOrders []string) (Rules, bool) {
	r, ok := seasons[year]
	if !ok {
		return Rules{}, false
	}
	names := []string{rankingScore}
	for _, t := range r.Tiebreaks {
		names = append(names, t.Name)
	}
	// TBA pads sort_order_info's values with zeros, never its names, so the lists must match
	// exactly.
	if !slices.Equal(names, sortOrders) {
		return Rules{}, false
	}
	return r, true
}

// Side is one alliance of a played match as TBA gives it.
type Side struct {
	// Teams are team numbers ("1209"); Surrogates and DQ are those of them TBA lists as
	// surrogates and as disqualified.
	Teams, Surrogates, DQ []string
	Score                 int
	// Breakdown is the alliance's score_breakdown, decoded from JSON.
	Breakdown map[string]any
}

// Match reads a played match from TBA's two alliances. It fails when a breakdown lacks a field
// the rules read.
func (r Rules) Match(red, blue Side) (Played, error) {
	rs, err := r.alliance(red, blue)
	if err != nil {
		return Played{}, err
	}
	bs, err := r.alliance(blue, red)
	if err != nil {
		return Played{}, err
	}
	return Played{Red: rs, Blue: bs}, nil
}

// alliance reads one side of a match; other is the opposing side, for a coopertition.
func (r Rules) alliance(s, other Side) (Alliance, error) {
	a := Alliance{Teams: s.Teams, Surrogates: s.Surrogates, DQ: s.DQ, Score: s.Score}
	rp, err := field(s.Breakdown, "rp")
	if err != nil {
		return Alliance{}, err
	}
	a.RP = int(rp)
	for _, f := range r.Bonus {
		v, err := field(s.Breakdown, f)
		if err != nil {
			return Alliance{}, err
		}
		a.Bonus = append(a.Bonus, v != 0)
	}
	for _, t := range r.Tiebreaks {
		v, err := t.value(s.Breakdown, other.Breakdown)
		if err != nil {
			return Alliance{}, err
		}
		a.Tiebreaks = append(a.Tiebreaks, v)
	}
	return a, nil
}

// value is the tiebreak's value for the alliance whose breakdown is own.
func (t Tiebreak) value(own, other map[string]any) (float64, error) {
	if t.Both != "" {
		for _, b := range []map[string]any{own, other} {
			x, err := field(b, t.Both)
			if err != nil {
				return 0, err
			}
			if x < t.BothMin {
				return 0, nil
			}
		}
		return 1, nil
	}
	v := 0.0
	for _, f := range t.Plus {
		x, err := field(own, f)
		if err != nil {
			return 0, err
		}
		v += x
	}
	for _, f := range t.Minus {
		x, err := field(own, f)
		if err != nil {
			return 0, err
		}
		v -= x
	}
	return v, nil
}

// field reads a number or a boolean (1 or 0) at a dotted path of a decoded breakdown.
func field(breakdown map[string]any, path string) (float64, error) {
	var v any = breakdown
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return 0, fmt.Errorf("forecast: breakdown has no %q", path)
		}
		if v, ok = m[k]; !ok {
			return 0, fmt.Errorf("forecast: breakdown has no %q", path)
		}
	}
	switch x := v.(type) {
	case float64:
		return x, nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("forecast: breakdown's %q is %T, not a number", path, v)
}
