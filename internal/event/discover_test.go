package event

import (
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/event/replay"
)

func TestCurrentEvent(t *testing.T) {
	events := []tbaEvent{
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
	both := []tbaEvent{
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
	if n := e.up.Count(replay.EndpointTBATeamEvents); n != 1 {
		t.Fatalf("events asked %d times, want once", n)
	}
}

func TestHubNoEventToday(t *testing.T) {
	tl := testTimeline()
	tl.Steps[0].TeamEvents = []replay.Event{{Key: "2026old", Name: "Old", Timezone: "America/Chicago", StartDay: -30, EndDay: -28}}
	e := newEnv(t, tl)
	opts := e.options()
	opts.EventKey = ""
	h, _ := e.runHub(t, opts, 1)
	s := h.Current()
	if s.Configured || s.Message != "No event found for team 1209 today; set one with --event KEY" {
		t.Fatalf("Status = %+v, want a calm not-configured", s)
	}
	// It looks again, slowly, and finds the event once it is on.
	e.advance(9*time.Minute, time.Minute, 1)
	if n := e.up.Count(replay.EndpointTBATeamEvents); n != 1 {
		t.Fatalf("events asked %d times in 9 min, want once", n)
	}
	if n := e.up.Count(replay.EndpointNexusEvent); n != 0 {
		t.Fatalf("Nexus asked %d times without an event", n)
	}
}

func TestHubNoEventNoTBAKey(t *testing.T) {
	s := NewHub(Options{}).Current()
	if s.Configured || s.Message == "" || s.Team != 1209 {
		t.Fatalf("Status = %+v", s)
	}
}
