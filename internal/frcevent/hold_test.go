package frcevent

import (
	"testing"
	"time"
)

func TestQueueHold(t *testing.T) {
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	match := func(status string, queue *time.Time) *Match {
		return &Match{Label: "Qualification 14", Status: status, Times: MatchTimes{Queue: queue}}
	}
	tests := []struct {
		name   string
		status Status
		want   bool
	}{
		{"not configured", Status{NextMatch: match(StatusNowQueuing, nil)}, false},
		{"no next match", Status{Configured: true}, false},
		{"now queuing", Status{Configured: true, NextMatch: match(StatusNowQueuing, at(time.Hour))}, true},
		{"on deck", Status{Configured: true, NextMatch: match(StatusOnDeck, nil)}, true},
		{"on field", Status{Configured: true, NextMatch: match(StatusOnField, at(-time.Minute))}, false},
		{"queuing soon, queue in 4:59", Status{Configured: true, NextMatch: match(StatusQueuingSoon, at(QueueSoon-time.Second))}, true},
		{"queuing soon, queue in 5:00", Status{Configured: true, NextMatch: match(StatusQueuingSoon, at(QueueSoon))}, false},
		{"TBA only, queue time passed", Status{Configured: true, NextMatch: match("", at(-time.Minute))}, true},
		{"TBA only, no times", Status{Configured: true, NextMatch: match("", nil)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.status.QueueHold(now); got != tt.want {
				t.Errorf("QueueHold = %v, want %v", got, tt.want)
			}
		})
	}
}
