package board

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

func TestPhaseOf(t *testing.T) {
	q := func(label string, step int) Match { return Match{Label: label, Step: step} }
	formed := &Playoffs{Bracket: []BracketMatch{{Number: 0}}}
	won := &Playoffs{Bracket: []BracketMatch{{Number: 0, Winner: ColourBlue}}}
	tests := []struct {
		name    string
		matches []Match
		done    []bool
		p       *Playoffs
		want    Phase
	}{
		{"no schedule", nil, nil, nil, PhaseNone},
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
		{Label: "Final 1"},
		{Label: "Final 2"},
	}
	tests := []struct {
		prev, next int
		want       *Turnaround
	}{
		{0, 1, &Turnaround{Kind: TurnaroundBackToBack}},
		{0, 2, &Turnaround{Kind: TurnaroundOneBetween}},
		{0, 3, &Turnaround{Kind: TurnaroundMinutes, Minutes: 18}},
		{0, 4, nil}, // 21 min: time enough
		{0, 5, nil}, // no time known
		{6, 7, nil}, // two finals: their gaps are fixed
		{5, 6, &Turnaround{Kind: TurnaroundBackToBack}}, // the last playoff match, then the first final
	}
	for _, tt := range tests {
		if got := turnaround(list, tt.prev, tt.next); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("turnaround(%d, %d) = %+v, want %+v", tt.prev, tt.next, got, tt.want)
		}
	}
	wants := []*When{
		{TimeActual, *at(0)}, {TimeEstimated, *at(7)}, {TimeEstimated, *at(14)}, {TimeScheduled, *at(18)}, {TimeScheduled, *at(21)}, nil,
	}
	for i, want := range wants {
		if got := whenOf(list[i]); !reflect.DeepEqual(got, want) {
			t.Errorf("whenOf(%s) = %+v, want %+v", list[i].Label, got, want)
		}
	}
}

func TestFieldLate(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	at := func(min int) *time.Time { x := t0.Add(time.Duration(min) * time.Minute); return &x }
	played := func(scheduled, started int) Match {
		return Match{Times: MatchTimes{Scheduled: at(scheduled), ActualStart: at(started)}}
	}
	for _, tt := range []struct {
		name    string
		matches []Match
		done    int // how many of matches are played
		want    *int
	}{
		{"the next match's estimate, not an hour-old late start", []Match{
			played(0, 10), played(7, 17), played(14, 24),
			{Times: MatchTimes{Scheduled: at(70), Start: at(75)}},
			{Times: MatchTimes{Scheduled: at(77), Start: at(84)}},
		}, 3, new(5)},
		{"the median of the last three starts without an estimate", []Match{
			played(0, 30), played(7, 10), played(14, 26), played(21, 25),
			{Times: MatchTimes{Scheduled: at(28)}},
		}, 4, new(4)},
		{"the match on the field has started: the next to start is after it", []Match{
			played(0, 2), played(7, 9), played(14, 16), {Times: MatchTimes{Scheduled: at(21), Start: at(24)}},
		}, 2, new(3)},
		{"ahead of schedule", []Match{played(10, 5)}, 1, new(-5)},
		{"nothing started and no estimate", []Match{{Times: MatchTimes{Scheduled: at(0)}}}, 0, nil},
	} {
		done := make([]bool, len(tt.matches))
		for i := range tt.done {
			done[i] = true
		}
		got := fieldLate(tt.matches, done)
		if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
			t.Errorf("%s: fieldLate = %v, want %v", tt.name, deref(got), deref(tt.want))
		}
	}
}

// deref prints an optional figure.
func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestCriteriaAndTrend(t *testing.T) {
	tba := TBAData{
		SortOrders: []frcapi.TBAStatInfo{{Name: "Ranking Score", Precision: 2}, {Name: "Avg Coop", Precision: 2}, {Name: "Avg Match"}},
		Rankings: []RankingLine{
			{Team: "254", Rank: 1, SortOrders: []float64{3.5, 1, 100, 0}},
			{Team: "1209", Rank: 7, SortOrders: []float64{2.333333, 0.666, 71.4, 0}},
		},
	}
	want := []Criterion{{"Ranking Score", 2.33, 2}, {"Avg Coop", 0.67, 2}, {"Avg Match", 71, 0}}
	if got := criteria(tba, "1209"); !reflect.DeepEqual(got, want) {
		t.Errorf("criteria = %+v, want %+v", got, want)
	}
	var points []RankPoint
	for _, step := range []struct{ played, rank int }{{1, 20}, {1, 18}, {2, 12}, {2, 12}, {3, 7}} {
		points = TrendWith(points, []RankingLine{{Team: "1209", Rank: step.rank, Played: step.played}}, "1209")
	}
	if got := trend(points); !reflect.DeepEqual(got, []int{18, 12, 7}) {
		t.Errorf("trend = %v, want [18 12 7]: one rank per count of played matches, the latest", got)
	}
}

// TestTeamCards rates the teams of our next match from the played
// qualification matches: scores made from known ratings give them back.
func TestTeamCards(t *testing.T) {
	truth := map[string]int{"1209": 30, "11": 25, "12": 20, "13": 15, "14": 10, "15": 5, "16": 12, "17": 18, "18": 22, "19": 8}
	teams := []string{"1209", "11", "12", "13", "14", "15", "16", "17", "18", "19"}
	var played []frcapi.TBAMatch
	for i := 0; len(played) < 40; i++ {
		pick := func(k int) string { return teams[(i*7+k*3+i/3)%len(teams)] }
		red, blue := []string{pick(0), pick(1), pick(2)}, []string{pick(3), pick(4), pick(5)}
		seen := map[string]bool{}
		ok := true
		for _, x := range append(append([]string{}, red...), blue...) {
			ok = ok && !seen[x]
			seen[x] = true
		}
		if !ok {
			continue
		}
		sum := func(ts []string) (s int) {
			for _, x := range ts {
				s += truth[x]
			}
			return s
		}
		played = append(played, frcapi.TBAMatch{CompLevel: "qm", MatchNumber: len(played) + 1, Alliances: sides(red, blue, sum(red), sum(blue))})
	}
	next := &Match{Label: "Qualification 41", Alliance: "blue", Red: []string{"13", "14", "15"}, Blue: []string{"1209", "11", "12"}}
	cards, pred := teamCards(next, nil, TBAData{EventMatches: played, TeamNames: map[string]string{"1209": "RoboHornets"}})
	if len(cards) != 6 || cards[0].Team != "1209" || cards[0].Name != "RoboHornets" || cards[0].Alliance != "blue" || cards[3].Alliance != "red" {
		t.Fatalf("cards = %+v, want ours (blue) first, then red", cards)
	}
	for _, c := range cards {
		if c.OPR == nil || *c.OPR != float64(truth[c.Team]) {
			t.Errorf("OPR of %s = %v, want %d", c.Team, c.OPR, truth[c.Team])
		}
	}
	if pred == nil || pred.Matches != 40 || pred.WinChance <= 0.9 {
		t.Fatalf("prediction = %+v, want ours (75 against 30 points) well above 0.9 on 40 matches", pred)
	}
	if cards, pred := teamCards(next, nil, TBAData{EventMatches: played[:5]}); pred != nil || cards[0].OPR != nil {
		t.Errorf("after 5 matches: %+v, %+v; want no ratings and no chance", cards[0], pred)
	}

	// A win chance only when all six teams who play are known.
	ours, theirs := []string{"1209", "11", "12"}, []string{"13", "14", "15"}
	bracket := func(opponent BracketSource) *Playoffs {
		return &Playoffs{
			Alliances: []Alliance{{Number: 1, Teams: append(slices.Clone(ours), "16")}, {Number: 2, Teams: theirs}},
			Ours:      &OurAlliance{Number: 1, Role: "captain", Partners: []string{"11", "12", "16"}},
			Next:      &PlayoffNext{Match: 7, Alliance: ColourRed, Opponent: opponent},
		}
	}
	for _, tt := range []struct {
		name string
		m    Match
		p    *Playoffs
		want bool
	}{
		{"a qualification match", Match{Label: "Qualification 41", Alliance: ColourRed, Red: ours, Blue: theirs}, nil, true},
		{"a listed seat undecided", Match{Label: "Playoff 7", Alliance: ColourRed, Red: ours, Blue: []string{"13", "14", ""}}, nil, false},
		{"two teams a side", Match{Label: "Qualification 41", Alliance: ColourRed, Red: ours, Blue: theirs[:2]}, nil, false},
		{"not ours", Match{Label: "Qualification 41", Red: ours, Blue: theirs}, nil, false},
		{"the opponent by alliance, our alliance of four", Match{Label: "Playoff 7", Alliance: ColourRed}, bracket(BracketSource{Kind: SourceAlliance, Alliance: 2}), true},
		{"the opponent the loser of a match to come", Match{Label: "Playoff 7", Alliance: ColourRed}, bracket(BracketSource{Kind: SourceLoserOf, Match: 3}), false},
		{"the opponent the winner of a match to come", Match{Label: "Playoff 7", Alliance: ColourRed}, bracket(BracketSource{Kind: SourceWinnerOf, Match: 5}), false},
	} {
		_, pred := teamCards(&tt.m, tt.p, TBAData{EventMatches: played})
		if (pred != nil) != tt.want {
			t.Errorf("%s: prediction %+v, want one: %v", tt.name, pred, tt.want)
		}
	}
}

// TestMergePlayoffNextMatch: Nexus queues our next playoff match before
// anyone lists its teams; the bracket says it is ours, so the pit display
// counts down to it and the kiosk holds on it.
func TestMergePlayoffNextMatch(t *testing.T) {
	now := time.Date(2026, 3, 14, 15, 0, 0, 0, time.UTC)
	queue := now.Add(2 * time.Minute)
	a := eightAlliances()
	up := Upstream{Team: 1209, Configured: true, EventKey: "2026test", NexusEventKey: "2026test",
		Nexus: NexusData{Health: Health{State: StateOK}, LastGood: now, Event: &frcapi.NexusEventStatus{EventKey: "2026test", DataAsOfTime: new(now.UnixMilli()), Matches: []frcapi.NexusMatch{
			nx("Qualification 60", "On field", []string{"1209", "11", "12"}, []string{"13", "14", "15"}),
			{Label: "Playoff 1", Status: "On field"},
			{Label: "Playoff 4", Status: "Now queuing", Times: frcapi.NexusTimes{EstimatedQueueTime: new(queue.UnixMilli())}},
		}}},
		TBA: TBAData{Health: Health{State: StateOK}, LastGood: now, Event: &EventInfo{PlayoffType: PlayoffDoubleElim8}, Alliances: a},
	}
	s := Merge(up, now)
	if s.Phase != PhasePlayoffs {
		t.Errorf("phase = %q, want playoffs", s.Phase)
	}
	m := s.NextMatch
	if m == nil || m.Label != "Playoff 4" || m.Alliance != "red" || !m.Urgent || !reflect.DeepEqual(m.Partners, []string{"301", "303"}) {
		t.Fatalf("next match = %+v, want Playoff 4, red with 301 and 303, urgent", m)
	}
	if !s.QueueHold(now) {
		t.Error("the kiosk does not hold on /pit while our playoff match queues")
	}
	if len(s.TeamCards) != 6 || s.TeamCards[0].Team != "301" || s.TeamCards[3].Team != "601" {
		t.Errorf("team cards = %+v, want Alliance 3 then Alliance 6 from the bracket", s.TeamCards)
	}
}
