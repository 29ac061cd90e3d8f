package frcevent

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

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
