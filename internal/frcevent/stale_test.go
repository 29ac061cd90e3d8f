package frcevent

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

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

// The data turns stale while both sources fail: the hub publishes it at that
// moment, although nothing new came to merge.
func TestHubPublishesWhenDataTurnsStale(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.cachedAfterAMinute(t)

	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	t.Cleanup(dead.Close)
	opts.NexusURL, opts.TBAURL, opts.HTTPClient = dead.URL, dead.URL, dead.Client()
	h, _ := e.runHub(t, opts, 2)
	s := h.Current()
	if s.Stale || !s.AsOf.Equal(start.Add(time.Minute)) {
		t.Fatalf("after the restart: stale %v, as of %v; want fresh data of %v", s.Stale, s.AsOf, start.Add(time.Minute))
	}
	changed, unsubscribe := h.Subscribe()
	defer unsubscribe()
	e.advance(9*time.Minute, time.Second, 2)
	if h.Current().Stale {
		t.Fatalf("stale at %v, 9 min after its data", e.clk.Now())
	}
	select {
	case <-changed: // the sources' failures were published
	default:
	}
	e.advance(time.Minute+time.Second, time.Second, 2)
	if !h.Current().Stale {
		t.Fatalf("not stale at %v, 10 min 1 s after its data", e.clk.Now())
	}
	select {
	case <-changed:
	default:
		t.Fatal("no subscriber was told the data turned stale")
	}
}
