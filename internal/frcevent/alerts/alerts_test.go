package alerts

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

var t0 = time.Date(2026, 3, 14, 19, 0, 0, 0, time.UTC) // 2 PM in Tulsa (CDT)

// match is our qualification match n, red with 2357 and 4500 against
// 118, 254 and 1678, starting 20 minutes after t0 by Nexus's estimate.
func match(n int, step int) board.Match {
	return board.Match{Key: "2026okok_qm" + itoa(n), Label: "Qualification " + itoa(n), Step: step, Alliance: board.ColourRed,
		Red: []string{"1209", "2357", "4500"}, Blue: []string{"118", "254", "1678"}, Partners: []string{"2357", "4500"},
		When: &board.When{Kind: board.TimeEstimated, At: t0.Add(20 * time.Minute)}}
}

func itoa(n int) string { return strconv.Itoa(n) }

// field is a match of others on the field.
func field(n int) *board.Match {
	return &board.Match{Label: "Qualification " + itoa(n), Step: board.StepOnField}
}

// played is our match n with its result.
func played(n int, red, blue int, result board.Result) board.Match {
	m := match(n, board.StepNone)
	m.RedScore, m.BlueScore, m.Result = &red, &blue, result
	return m
}

// status is a qualification board of 2026okok with our next match and the
// match on the field.
func status(next *board.Match, onField *board.Match, schedule ...board.Match) board.Status {
	return board.Status{Configured: true, Team: 1209, EventKey: "2026okok", Timezone: "America/Chicago", Phase: board.PhaseQualifications,
		NextMatch: next, OnField: onField, Schedule: schedule, Rank: &board.Rank{Rank: 7, Of: 40, Record: board.Record{Wins: 5, Losses: 2}}}
}

func ptr(m board.Match) *board.Match { return &m }

func ids(as []Alert) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

func TestChanges(t *testing.T) {
	ours := board.OurAlliance{Number: 3, Role: "first pick", Partners: []string{"254", "1678"}}
	playoffs := func(o *board.OurAlliance, done bool, outcome board.Outcome) board.Status {
		s := status(nil, nil)
		s.Phase = board.PhasePlayoffs
		s.Playoffs = &board.Playoffs{Ours: o, SelectionDone: done, Outcome: outcome, Round: "Round 4", Record: board.Record{Wins: 2, Losses: 2}}
		return s
	}
	other := status(ptr(match(44, board.StepQueuing)), field(42))
	other.EventKey = "2026txha"
	tests := []struct {
		name       string
		prev, next board.Status
		want       []string
	}{
		{"now queuing", status(ptr(match(44, board.StepNone)), field(42)), status(ptr(match(44, board.StepQueuing)), field(43)),
			[]string{"queue/2026okok/qm44/0"}},
		{"on deck without queuing seen", status(ptr(match(44, board.StepNone)), field(41)), status(ptr(match(44, board.StepOnDeck)), field(43)),
			[]string{"queue/2026okok/qm44/0"}},
		{"queuing, still", status(ptr(match(44, board.StepQueuing)), field(42)), status(ptr(match(44, board.StepOnDeck)), field(43)), []string{}},
		{"on the field", status(ptr(match(44, board.StepOnDeck)), field(43)), status(ptr(match(44, board.StepOnField)), field(44)), []string{}},
		{"three away", status(ptr(match(44, board.StepNone)), field(40)), status(ptr(match(44, board.StepNone)), field(41)),
			[]string{"queue/2026okok/qm44/3"}},
		{"two away", status(ptr(match(44, board.StepNone)), field(41)), status(ptr(match(44, board.StepNone)), field(42)),
			[]string{"queue/2026okok/qm44/2"}},
		{"from five to one away: every lead crossed", status(ptr(match(44, board.StepNone)), field(39)), status(ptr(match(44, board.StepNone)), field(43)),
			[]string{"queue/2026okok/qm44/3", "queue/2026okok/qm44/2", "queue/2026okok/qm44/1"}},
		{"four away", status(ptr(match(44, board.StepNone)), field(39)), status(ptr(match(44, board.StepNone)), field(40)), []string{}},
		{"a new next match already two away", status(ptr(match(40, board.StepOnField)), field(40)), status(ptr(match(44, board.StepNone)), field(42)),
			[]string{"queue/2026okok/qm44/3", "queue/2026okok/qm44/2"}},
		{"nothing on the field", status(ptr(match(44, board.StepNone)), nil), status(ptr(match(44, board.StepNone)), nil), []string{}},
		{"a result", status(ptr(match(49, board.StepNone)), field(44), match(44, board.StepOnField)),
			status(ptr(match(49, board.StepNone)), field(45), played(44, 87, 64, board.ResultWin)), []string{"result/2026okok/qm44"}},
		{"a result seen before", status(nil, nil, played(44, 87, 64, board.ResultWin)), status(nil, nil, played(44, 87, 64, board.ResultWin)), []string{}},
		{"a replay's result", status(nil, nil, played(44, 87, 64, board.ResultWin)),
			status(nil, nil, played(44, 87, 64, board.ResultWin), func() board.Match {
				m := played(45, 70, 71, board.ResultLoss)
				m.Key, m.Label, m.ReplayOf = "2026okok_qm44r", "Replay of Qualification 44", "Qualification 44"
				return m
			}()), []string{"result/2026okok/qm44r"}},
		{"our alliance", playoffs(nil, false, board.OutcomeNone), playoffs(&ours, false, board.OutcomeNone), []string{"selection/2026okok/alliance-3"}},
		{"our alliance, still", playoffs(&ours, true, board.OutcomeNone), playoffs(&ours, true, board.OutcomeNone), []string{}},
		{"not selected", playoffs(nil, false, board.OutcomeNone), playoffs(nil, true, board.OutcomeNone), []string{"selection/2026okok/none"}},
		{"eliminated", playoffs(&ours, true, board.OutcomeNone), playoffs(&ours, true, board.OutcomeEliminated), []string{"playoffs/2026okok/eliminated"}},
		{"winners", playoffs(&ours, true, board.OutcomeNone), playoffs(&ours, true, board.OutcomeWinners), []string{"playoffs/2026okok/winners"}},
		{"a start: no previous board", board.Status{}, status(ptr(match(44, board.StepQueuing)), field(43), played(40, 1, 2, board.ResultLoss)), []string{}},
		{"another event", other, status(ptr(match(44, board.StepQueuing)), field(43)), []string{}},
		{"not configured", status(ptr(match(44, board.StepNone)), field(42)), board.Status{EventKey: "2026okok"}, []string{}},
	}
	for _, tt := range tests {
		got := ids(Changes(tt.prev, tt.next, t0))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestWords checks what a follower reads, and that every alert fits a
// phone's notification.
func TestWords(t *testing.T) {
	q := Changes(status(ptr(match(44, board.StepNone)), field(42)), status(ptr(match(44, board.StepQueuing)), field(43)), t0)
	if len(q) != 1 {
		t.Fatalf("%d alerts", len(q))
	}
	a := q[0]
	if a.Title != "1209 is queuing for Qualification 44" ||
		a.Body != "Red alliance with 2357 and 4500 vs 118, 254 and 1678. Starts about 2:20 PM CDT." ||
		!a.Urgent || !a.Expires.Equal(t0.Add(20*time.Minute)) || a.Tag != "match/2026okok/qm44" || a.Path != FollowPath || a.Kind != KindQueuing {
		t.Errorf("queue call %+v", a)
	}
	r := Changes(status(nil, nil, match(44, board.StepOnField)), status(nil, nil, played(44, 87, 64, board.ResultWin)), t0)[0]
	if r.Title != "1209 won Qualification 44, 87–64" || r.Body != "Rank so far: 7 of 40, record 5-2-0." || r.Tag != a.Tag || r.Urgent {
		t.Errorf("result %+v", r)
	}
	blue := played(45, 80, 60, board.ResultLoss)
	blue.Alliance = board.ColourBlue
	if l := Changes(status(nil, nil), status(nil, nil, blue), t0)[0]; l.Title != "1209 lost Qualification 45, 60–80" {
		t.Errorf("a loss on blue: %q", l.Title)
	}
	n := NewsPosted("kickoff", strings.Repeat("A very long headline ", 10))
	if n.ID != "news/kickoff" || n.Path != "/news/kickoff" || utf8.RuneCountInString(n.Title) != MaxTitle || !strings.HasSuffix(n.Title, "…") {
		t.Errorf("news %+v", n)
	}
	long := status(ptr(match(44, board.StepQueuing)), field(43))
	long.NextMatch.Red = []string{"1209", "12345", "67890", "11111"}
	long.NextMatch.Blue = []string{"22222", "33333", "44444", "55555"}
	long.NextMatch.Label = strings.Repeat("Qualification ", 6) + "44"
	for _, a := range Changes(status(ptr(match(44, board.StepNone)), nil), long, t0) {
		if utf8.RuneCountInString(a.Title) > MaxTitle || utf8.RuneCountInString(a.Body) > MaxBody {
			t.Errorf("too long: %q / %q", a.Title, a.Body)
		}
	}
}

// TestSameBoardTwice: a board compared with itself changes nothing, in
// every phase.
func TestSameBoardTwice(t *testing.T) {
	ours := &board.OurAlliance{Number: 3, Role: "captain"}
	for _, s := range []board.Status{
		status(ptr(match(44, board.StepQueuing)), field(43), played(40, 1, 2, board.ResultLoss)),
		status(ptr(match(44, board.StepNone)), field(42)),
		{Configured: true, EventKey: "2026okok", Playoffs: &board.Playoffs{Ours: ours, SelectionDone: true, Outcome: board.OutcomeEliminated}},
		{Configured: true, EventKey: "2026okok", Playoffs: &board.Playoffs{SelectionDone: true}},
	} {
		if got := Changes(s, s, t0); len(got) != 0 {
			t.Errorf("%v from a board to itself", ids(got))
		}
	}
}
