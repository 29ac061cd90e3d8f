package frcevent

import (
	"reflect"
	"testing"
	"time"
)

func TestPhaseOf(t *testing.T) {
	q := func(label string, step int) Match { return Match{Label: label, Step: step} }
	formed := &Playoffs{Bracket: []BracketMatch{{Label: "Finals"}}}
	won := &Playoffs{Bracket: []BracketMatch{{Label: "Finals", Winner: "blue"}}}
	tests := []struct {
		name    string
		matches []Match
		done    []bool
		p       *Playoffs
		want    string
	}{
		{"no schedule", nil, nil, nil, ""},
		{"qualifications", []Match{q("Qualification 1", 0), q("Qualification 2", 0)}, []bool{true, false}, nil, PhaseQualifications},
		{"every qualification played", []Match{q("Qualification 1", 0), q("Qualification 2", 0)}, []bool{true, true}, nil, PhaseAllianceSelection},
		{"alliances listed", []Match{q("Qualification 1", 0), q("Playoff 1", 0)}, []bool{true, false}, formed, PhaseAllianceSelection},
		{"a playoff match queuing", []Match{q("Qualification 1", 0), q("Playoff 1", StepQueuing)}, []bool{true, false}, formed, PhasePlayoffs},
		{"a playoff match played", []Match{q("Qualification 1", 0), q("Playoff 1", 0)}, []bool{true, true}, formed, PhasePlayoffs},
		{"finals won", []Match{q("Final 2", 0)}, []bool{true}, won, PhaseFinished},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := phaseOf(tt.matches, tt.done, tt.p); got != tt.want {
				t.Errorf("phaseOf = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTurnaround(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	at := func(min int) *time.Time { x := t0.Add(time.Duration(min) * time.Minute); return &x }
	list := []Match{
		{Label: "Q1", Times: MatchTimes{ActualStart: at(0)}},
		{Label: "Q2", Times: MatchTimes{Start: at(7)}},
		{Label: "Q3", Times: MatchTimes{Start: at(14)}},
		{Label: "Q4", Times: MatchTimes{Scheduled: at(18)}},
		{Label: "Q5", Times: MatchTimes{Scheduled: at(21)}},
		{Label: "Q6"},
	}
	tests := []struct {
		prev, next int
		want       string
	}{
		{0, 1, "Back to back"},
		{0, 2, "2-match turnaround"},
		{0, 3, "18 min turnaround"},
		{0, 4, ""}, // 21 min: time enough
		{0, 5, ""}, // no time known
	}
	for _, tt := range tests {
		if got := turnaround(list, tt.prev, tt.next); got != tt.want {
			t.Errorf("turnaround(%d, %d) = %q, want %q", tt.prev, tt.next, got, tt.want)
		}
	}
	for i, want := range []string{"actual", "estimated", "estimated", "scheduled", "scheduled", ""} {
		if got := timeKind(list[i]); got != want {
			t.Errorf("timeKind(%s) = %q, want %q", list[i].Label, got, want)
		}
	}
}

func TestFieldLate(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	at := func(min int) *time.Time { x := t0.Add(time.Duration(min) * time.Minute); return &x }
	late := []Match{
		{Times: MatchTimes{Scheduled: at(0), ActualStart: at(3)}},
		{Times: MatchTimes{Scheduled: at(7), ActualStart: at(19)}},
		{Times: MatchTimes{Scheduled: at(14)}},
	}
	if got := fieldLate(late); got == nil || *got != 12 {
		t.Errorf("fieldLate = %v, want 12 (the latest match that started)", got)
	}
	early := []Match{{Times: MatchTimes{Scheduled: at(10), ActualStart: at(5)}}}
	if got := fieldLate(early); got == nil || *got != -5 {
		t.Errorf("fieldLate = %v, want -5", got)
	}
	if got := fieldLate([]Match{{Times: MatchTimes{Scheduled: at(0)}}}); got != nil {
		t.Errorf("fieldLate before any start = %d, want nil", *got)
	}
}

func TestCriteriaAndTrend(t *testing.T) {
	tba := tbaData{
		SortOrders: []tbaSortOrder{{"Ranking Score", 2}, {"Avg Coop", 2}, {"Avg Match", 0}},
		Rankings: []tbaRanking{
			{Team: "254", Rank: 1, SortOrders: []float64{3.5, 1, 100, 0}},
			{Team: "1209", Rank: 7, SortOrders: []float64{2.333333, 0.666, 71.4, 0}},
		},
	}
	want := []Criterion{{"Ranking Score", 2.33, 2}, {"Avg Coop", 0.67, 2}, {"Avg Match", 71, 0}}
	if got := criteria(tba, "1209"); !reflect.DeepEqual(got, want) {
		t.Errorf("criteria = %+v, want %+v", got, want)
	}
	var points []rankPoint
	for _, step := range []struct{ played, rank int }{{1, 20}, {1, 18}, {2, 12}, {2, 12}, {3, 7}} {
		points = trendWith(points, []tbaRanking{{Team: "1209", Rank: step.rank, Played: step.played}}, "1209")
	}
	if got := trend(points); !reflect.DeepEqual(got, []int{18, 12, 7}) {
		t.Errorf("trend = %v, want [18 12 7]: one rank per count of played matches, the latest", got)
	}
}
