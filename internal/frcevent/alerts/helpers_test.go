package alerts

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// t0 is the time of every next Status of the hand-built tests.
var t0 = time.Date(2026, 3, 14, 19, 0, 0, 0, time.UTC)

// quals is a qualification day of 2026okok at t0: nothing on the field,
// our next match Qualification 44 (red with 2357 and 4500 against 1234,
// 5678 and 9012, estimated to start 12 min after t0), not queuing.
func quals() board.Status {
	m := qm(44)
	return board.Status{
		Configured: true, Team: 1209, EventKey: "2026okok", NexusEventKey: "2026okok", EventName: "Green Country Regional",
		Timezone: "America/Chicago", Phase: board.PhaseQualifications,
		NextMatch: &m, Upcoming: []board.Match{}, Recent: []board.Match{}, Schedule: []board.Match{m},
	}
}

// qm is our qualification match n as quals shows it.
func qm(n int) board.Match {
	start := t0.Add(12 * time.Minute)
	return board.Match{
		Key: "2026okok_qm" + strconv.Itoa(n), Label: "Qualification " + strconv.Itoa(n), Alliance: board.ColourRed,
		Red: []string{"1209", "2357", "4500"}, Blue: []string{"1234", "5678", "9012"}, Partners: []string{"2357", "4500"},
		Times: board.MatchTimes{Start: &start}, When: &board.When{Kind: board.TimeEstimated, At: start},
	}
}

// field is a match of others on the field, by its label.
func field(label string) *board.Match {
	return &board.Match{Label: label, Step: board.StepOnField, Red: []string{"1", "2", "3"}, Blue: []string{"4", "5", "6"}, Partners: []string{}}
}

// with returns s changed by each change, in order.
func with(s board.Status, changes ...func(*board.Status)) board.Status {
	for _, c := range changes {
		c(&s)
	}
	return s
}

// onField puts the match labelled label on the field ("" for none).
func onField(label string) func(*board.Status) {
	return func(s *board.Status) {
		s.OnField = nil
		if label != "" {
			s.OnField = field(label)
		}
	}
}

// step sets the queue step of our next match.
func step(st int) func(*board.Status) {
	return func(s *board.Status) {
		m := *s.NextMatch
		m.Step, m.Urgent = st, st == board.StepQueuing || st == board.StepOnDeck
		m.Status = map[int]string{board.StepQueuing: "Now queuing", board.StepOnDeck: "On deck"}[st]
		s.NextMatch = &m
	}
}

// scored scores m as played with red and blue, our result from our colour.
func scored(m board.Match, red, blue int) board.Match {
	m.RedScore, m.BlueScore = &red, &blue
	m.Step, m.Status = board.StepOnField, "On field"
	ours, theirs := red, blue
	if m.Alliance == board.ColourBlue {
		ours, theirs = blue, red
	}
	switch {
	case ours > theirs:
		m.Result = board.ResultWin
	case ours < theirs:
		m.Result = board.ResultLoss
	default:
		m.Result = board.ResultTie
	}
	return m
}

// ids are the IDs of alerts, in order.
func ids(alerts []Alert) []string {
	out := []string{}
	for _, a := range alerts {
		out = append(out, a.ID)
	}
	return out
}

// checkWords holds every alert to the package's rules of form: a title of
// at most MaxTitle characters that starts with the team's number, a body of
// at most MaxBody, a path, a tag and, for a queue call, a lead in range.
func checkWords(t *testing.T, team int, alerts []Alert) {
	t.Helper()
	for _, a := range alerts {
		if n := utf8.RuneCountInString(a.Title); n == 0 || n > MaxTitle || !strings.HasPrefix(a.Title, strconv.Itoa(team)) {
			t.Errorf("%s: title %q (%d characters)", a.ID, a.Title, n)
		}
		if n := utf8.RuneCountInString(a.Body); n > MaxBody {
			t.Errorf("%s: body %q has %d characters", a.ID, a.Body, n)
		}
		if a.Path == "" || a.Tag == "" || a.Kind == "" {
			t.Errorf("%s: path %q, tag %q, kind %q", a.ID, a.Path, a.Tag, a.Kind)
		}
		if a.MatchesAhead < 0 || a.MatchesAhead > MaxMatchesAhead || a.Kind != KindQueuing && (a.MatchesAhead != 0 || a.Urgent || !a.Expires.IsZero()) {
			t.Errorf("%s: matchesAhead %d, urgent %v, expires %v", a.ID, a.MatchesAhead, a.Urgent, a.Expires)
		}
	}
}
