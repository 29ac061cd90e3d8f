package board

import (
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// QueueSoon is how far ahead of our match's queue time the kiosk holds on
// the pit display.
const QueueSoon = 5 * time.Minute

// StaleAfter is how old the newest data may be before the page says it is
// stale (Status.Stale): Nexus updates every minute or two while matches
// run, TBA at least every few, so ten minutes of silence is a dead link.
const StaleAfter = 10 * time.Minute

// The steps of a match through the queue (Match.Step), in order.
const (
	// StepNone: not queuing yet, or Nexus does not say.
	StepNone = iota
	// StepQueuing: Nexus says "Now queuing".
	StepQueuing
	// StepOnDeck: Nexus says "On deck".
	StepOnDeck
	// StepOnField: Nexus says "On field".
	StepOnField
)

// stepOf is the queue step of Nexus's status word.
func stepOf(status string) int {
	switch status {
	case frcapi.NowQueuing:
		return StepQueuing
	case frcapi.OnDeck:
		return StepOnDeck
	case frcapi.OnField:
		return StepOnField
	}
	return StepNone
}

// urgentStep reports whether a match at step needs its crew now: it is
// queuing or on deck.
func urgentStep(step int) bool { return step == StepQueuing || step == StepOnDeck }

// QueueHold reports whether our next match needs the crew now: it is
// urgent, or its queue time is less than QueueSoon away. A kiosk rotation
// then stays on the pit display until the match is on field.
func (s Status) QueueHold(now time.Time) bool {
	m := s.NextMatch
	switch {
	case !s.Configured || m == nil || m.Step == StepOnField:
		return false
	case m.Urgent:
		return true
	}
	return m.Times.Queue != nil && m.Times.Queue.Sub(now) < QueueSoon
}

// stale reports whether data as of asOf is older than StaleAfter at now;
// no data at all is not stale, it is missing.
func stale(asOf, now time.Time) bool {
	return !asOf.IsZero() && now.Sub(asOf) > StaleAfter
}

// setStatus sets Nexus's status word of m and what follows from it.
func (m *Match) setStatus(status string) {
	m.Status, m.Step = status, stepOf(status)
	m.Urgent = urgentStep(m.Step)
}
