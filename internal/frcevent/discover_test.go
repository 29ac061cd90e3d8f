package frcevent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

func TestCurrentEvent(t *testing.T) {
	events := []board.EventInfo{
		{Key: "2026week1", Timezone: "America/Chicago", StartDate: "2026-03-05", EndDate: "2026-03-07"},
		{Key: "2026week3", Timezone: "America/Chicago", StartDate: "2026-03-19", EndDate: "2026-03-21"},
		{Key: "2026hawaii", Timezone: "Pacific/Honolulu", StartDate: "2026-03-26", EndDate: "2026-03-28"},
		{Key: "2026broken", Timezone: "Nowhere/Else", StartDate: "2026-04-30", EndDate: "bad"},
	}
	tests := []struct {
		name string
		now  time.Time
		want string
	}{
		{"during", time.Date(2026, 3, 6, 18, 0, 0, 0, time.UTC), "2026week1"},
		{"load-in day before", time.Date(2026, 3, 18, 18, 0, 0, 0, time.UTC), "2026week3"},
		{"day after", time.Date(2026, 3, 22, 18, 0, 0, 0, time.UTC), "2026week3"},
		{"two days after", time.Date(2026, 3, 23, 18, 0, 0, 0, time.UTC), ""},
		{"between events", time.Date(2026, 3, 12, 18, 0, 0, 0, time.UTC), ""},
		// 02:00 UTC on the 30th is still the 29th in Honolulu: the day after.
		{"in the event's timezone", time.Date(2026, 3, 30, 2, 0, 0, 0, time.UTC), "2026hawaii"},
		{"not the day after in its timezone", time.Date(2026, 3, 30, 12, 0, 0, 0, time.UTC), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := currentEvent(events, tt.now)
			if got.Key != tt.want || ok != (tt.want != "") {
				t.Fatalf("currentEvent = %q, %v; want %q", got.Key, ok, tt.want)
			}
		})
	}
	// An event on today proper wins over one only touching today.
	both := []board.EventInfo{
		{Key: "ending", Timezone: "UTC", StartDate: "2026-03-12", EndDate: "2026-03-13"},
		{Key: "today", Timezone: "UTC", StartDate: "2026-03-14", EndDate: "2026-03-16"},
	}
	if got, _ := currentEvent(both, start); got.Key != "today" {
		t.Fatalf("currentEvent = %q, want the one on today", got.Key)
	}
}

func TestHubFindsTodaysEvent(t *testing.T) {
	tl := testTimeline()
	other := replay.Event{Key: "2026old", Name: "Old", Timezone: "America/Chicago", StartDay: -30, EndDay: -28}
	tl.Steps[0].TeamEvents = []replay.Event{other, *tl.Steps[0].Event}
	e := newEnv(t, tl)
	opts := e.options()
	opts.EventKey = ""
	h, _ := e.runHub(t, opts, 2)
	s := h.Current()
	if !s.Configured || s.EventKey != "2026test" || s.NexusEventKey != "2026test" || s.NextMatch == nil || s.Message != "" {
		t.Fatalf("Status = %+v, want today's event found and polled", s)
	}
	if n := e.up.Count(frcapi.TBATeamEvents); n != 1 {
		t.Fatalf("events asked %d times, want once", n)
	}
}

func TestHubNoEventToday(t *testing.T) {
	tl := testTimeline()
	tl.Length = replay.Offset(time.Hour)
	old := replay.Event{Key: "2026old", Name: "Old", Timezone: "America/Chicago", StartDay: -30, EndDay: -28}
	tl.Steps[0].TeamEvents = []replay.Event{old}
	// The event only shows on TBA after 5 min.
	tl.Steps = append(tl.Steps, replay.Step{At: replay.Offset(5 * time.Minute), State: replay.State{TeamEvents: []replay.Event{old, *tl.Steps[0].Event}}})
	e := newEnv(t, tl)
	opts := e.options()
	opts.EventKey = ""
	h, _ := e.runHub(t, opts, 2) // the search and the season
	s := h.Current()
	if s.Configured || s.Message != "No event found for team 1209 today; set one with --event KEY" {
		t.Fatalf("Status = %+v, want a calm not-configured", s)
	}
	// It looks again, slowly...
	e.advance(9*time.Minute, time.Minute, 2)
	if n := e.up.Count(frcapi.TBATeamEvents); n != 1 {
		t.Fatalf("events asked %d times in 9 min, want once", n)
	}
	if n := e.up.Count(frcapi.NexusEvent); n != 0 {
		t.Fatalf("Nexus asked %d times without an event", n)
	}
	// ...and at 10 min finds the event, which is then polled.
	e.clk.Advance(time.Minute)
	e.clk.BlockUntilWaiters(2)
	// The event's polls start on goroutines of their own as the search's
	// and the season's loops hand over: two waiters on the clock may be
	// seen before Nexus has answered, so the test waits for its answer.
	waitFor(t, h, "the event found and polled after 10 min", func(s board.Status) bool {
		return s.Configured && s.EventKey == "2026test" && s.Message == "" && s.NextMatch != nil && s.Nexus.State == board.StateOK && s.TBA.State == board.StateOK
	})
	if n := e.up.Count(frcapi.TBATeamEvents); n != 2 {
		t.Fatalf("events asked %d times, want twice", n)
	}
}

// writeCache runs a hub of e on the event given until its first answers,
// to leave a cache of it at opts.CacheFile.
func writeCache(t *testing.T, e *env, opts Options) {
	t.Helper()
	opts.EventKey = "2026test"
	_, stop := e.runHub(t, opts, 2)
	stop()
	if _, err := os.Stat(opts.CacheFile); err != nil {
		t.Fatal(err)
	}
	// The stopped hub's waits are still pending on the fake clock: let them
	// go by, so that they never pass for waits of the next hub.
	e.clk.Advance(time.Hour)
}

func TestHubPollsTheCachedEventWhileTBAIsRefused(t *testing.T) {
	// Searching for today's event needs TBA. The key refused, the event the
	// cache names is still polled on Nexus at once.
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.EventKey, opts.CacheFile = "", filepath.Join(t.TempDir(), "event.json")
	writeCache(t, e, opts)
	asked := e.up.Count(frcapi.NexusEvent)
	opts.TBAKey = "wrong-tba-key"
	h, _ := e.runHub(t, opts, 3) // the search, Nexus and TBA
	s := h.Current()
	if got := e.up.Count(frcapi.NexusEvent) - asked; got != 1 {
		t.Fatalf("Nexus asked %d times with a cached event and TBA refused, want at once", got)
	}
	if !s.Configured || s.EventKey != "2026test" || s.Nexus.State != board.StateOK || s.TBA.State != board.StateKeyRejected || s.NextMatch == nil {
		t.Fatalf("Status = %+v, want the cached event live from Nexus", s)
	}
	if got := e.nexusPollsIn(5*time.Minute, 3); got < 9 {
		t.Fatalf("Nexus asked %d times in the next 5 min, want about every 30 s", got)
	}
}

func TestHubSwitchesFromTheCachedEventToTodays(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.EventKey, opts.CacheFile = "", filepath.Join(t.TempDir(), "event.json")
	cached, err := json.Marshal(cacheFile{Upstream: board.Upstream{Team: 1209, Configured: true, EventKey: "2026old", NexusEventKey: "2026old",
		TBA: board.TBAData{LastGood: start.Add(-time.Hour), Event: &board.EventInfo{Key: "2026old", Name: "Old Regional"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(opts.CacheFile, cached, 0o644); err != nil {
		t.Fatal(err)
	}
	h := NewHub(opts)
	if s := h.Current(); !s.Configured || s.EventName != "Old Regional" {
		t.Fatalf("before Run: %+v, want the cached event", s)
	}
	h, _ = e.runHub(t, opts, 0)
	s := waitFor(t, h, "today's event", func(s board.Status) bool {
		return s.EventKey == "2026test" && s.NextMatch != nil && s.Nexus.State == board.StateOK && s.TBA.State == board.StateOK
	})
	if s.EventName != "Test Regional" || s.Message != "" {
		t.Fatalf("after the switch: %+v", s)
	}
	// The polls of the old event are over: no answer of theirs is left.
	h.mu.Lock()
	for ep, err := range h.errs {
		if err != nil {
			t.Errorf("%s: %v, left from the old event", ep, err)
		}
	}
	h.mu.Unlock()
}

func TestHubStopsPollingACachedEventNotOnToday(t *testing.T) {
	tl := testTimeline()
	tl.Steps[0].TeamEvents = []replay.Event{{Key: "2026old", Name: "Old", Timezone: "America/Chicago", StartDay: -30, EndDay: -28}}
	e := newEnv(t, tl)
	opts := e.options()
	opts.EventKey, opts.CacheFile = "", filepath.Join(t.TempDir(), "event.json")
	writeCache(t, e, opts)
	h, _ := e.runHub(t, opts, 1)
	waitFor(t, h, "no event", func(s board.Status) bool { return !s.Configured })
	e.clk.BlockUntilWaiters(2) // the search and the season
	if got := e.nexusPollsIn(5*time.Minute, 2); got != 0 {
		t.Fatalf("Nexus asked %d times about an event TBA says is not today's", got)
	}
}

func TestHubNoEventNoTBAKey(t *testing.T) {
	s := NewHub(Options{}).Current()
	if s.Configured || s.Message == "" || s.Team != 1209 {
		t.Fatalf("Status = %+v", s)
	}
}
