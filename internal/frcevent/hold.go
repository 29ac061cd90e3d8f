package frcevent

import "time"

// QueueSoon is how far ahead of our match's queue time the kiosk holds on
// the pit display.
const QueueSoon = 5 * time.Minute

// Statuses of a match as Nexus names them.
const (
	StatusQueuingSoon = "Queuing soon"
	StatusNowQueuing  = "Now queuing"
	StatusOnDeck      = "On deck"
	StatusOnField     = "On field"
)

// QueueHold reports whether our next match needs the crew now: it is
// queuing or on deck, or its queue time is less than QueueSoon away. A kiosk
// rotation then stays on the pit display until the match is on field.
func (s Status) QueueHold(now time.Time) bool {
	m := s.NextMatch
	if !s.Configured || m == nil {
		return false
	}
	switch m.Status {
	case StatusNowQueuing, StatusOnDeck:
		return true
	case StatusOnField:
		return false
	}
	return m.Times.Queue != nil && m.Times.Queue.Sub(now) < QueueSoon
}
