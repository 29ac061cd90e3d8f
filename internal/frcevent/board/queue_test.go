package board

import (
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

func TestQueueHold(t *testing.T) {
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	match := func(status string, queue *time.Time) *Match {
		m := &Match{Label: "Qualification 14", Times: MatchTimes{Queue: queue}}
		m.setStatus(status)
		return m
	}
	tests := []struct {
		name   string
		status Status
		want   bool
	}{
		{"not configured", Status{NextMatch: match(frcapi.NowQueuing, nil)}, false},
		{"no next match", Status{Configured: true}, false},
		{"now queuing", Status{Configured: true, NextMatch: match(frcapi.NowQueuing, at(time.Hour))}, true},
		{"on deck", Status{Configured: true, NextMatch: match(frcapi.OnDeck, nil)}, true},
		{"on field", Status{Configured: true, NextMatch: match(frcapi.OnField, at(-time.Minute))}, false},
		{"queuing soon, queue in 4:59", Status{Configured: true, NextMatch: match(frcapi.QueuingSoon, at(QueueSoon-time.Second))}, true},
		{"queuing soon, queue in 5:00", Status{Configured: true, NextMatch: match(frcapi.QueuingSoon, at(QueueSoon))}, false},
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

func TestStale(t *testing.T) {
	asOf := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		asOf time.Time
		now  time.Time
		want bool
	}{
		{"no data", time.Time{}, asOf, false},
		{"just now", asOf, asOf, false},
		{"exactly 10 min", asOf, asOf.Add(10 * time.Minute), false},
		{"10 min 1 s", asOf, asOf.Add(10*time.Minute + time.Second), true},
		{"an hour", asOf, asOf.Add(time.Hour), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stale(tt.asOf, tt.now); got != tt.want {
				t.Errorf("stale(%v, %v) = %v, want %v", tt.asOf, tt.now, got, tt.want)
			}
		})
	}
}
