package frcevent

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// pushed is an EventStatus as Nexus pushes it, dated asOf.
func pushed(asOf time.Time, announcement string) string {
	return fmt.Sprintf(`{"eventKey":"2026test","dataAsOfTime":%d,"nowQueuing":"Qualification 3",
		"matches":[{"label":"Qualification 3","status":"Now queuing","redTeams":["1209","666","777"],"blueTeams":["888","999","101"],"times":{}}],
		"announcements":[{"id":"w1","announcement":%q,"postedTime":%d}],"partsRequests":[]}`,
		asOf.UnixMilli(), announcement, asOf.UnixMilli())
}

func TestPushNexus(t *testing.T) {
	e := newEnv(t, testTimeline())
	h, _ := e.runHub(t, e.options(), 2)
	changed, unsubscribe := h.Subscribe()
	defer unsubscribe()
	polled := h.Current().Nexus.AsOf

	tests := []struct {
		name    string
		body    string
		applied bool
		err     error
	}{
		{"malformed", `{"eventKey":"2026test","matches":[`, false, ErrMalformedPush},
		{"no eventKey", strings.Replace(pushed(start.Add(time.Hour), "x"), `"eventKey":"2026test",`, "", 1), false, ErrMalformedPush},
		{"empty eventKey", strings.Replace(pushed(start.Add(time.Hour), "x"), "2026test", "", 1), false, ErrMalformedPush},
		{"older than the poll", pushed(polled.Add(-time.Minute), "old"), false, nil},
		{"as old as the poll", pushed(polled, "same"), false, nil},
		{"another event", strings.Replace(pushed(start.Add(time.Minute), "x"), "2026test", "2026else", 1), false, ErrOtherEvent},
		{"from the future", pushed(start.Add(time.Hour), "future"), false, ErrFuturePush},
		{"newer", pushed(start.Add(time.Minute), "Pushed news"), true, nil},
		{"older than the last push", pushed(start.Add(30*time.Second), "stale"), false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			applied, err := h.PushNexus([]byte(tt.body))
			if applied != tt.applied || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Fatalf("PushNexus = %v, %v; want %v, %v", applied, err, tt.applied, tt.err)
			}
			if got := notified(changed); got != tt.applied {
				t.Fatalf("notified = %v, want %v", got, tt.applied)
			}
		})
	}
	s := h.Current()
	if s.Announcements[0].Text != "Pushed news" || s.NowQueuing != "Qualification 3" || !s.Nexus.AsOf.Equal(start.Add(time.Minute)) {
		t.Fatalf("after the push: %+v", s)
	}
	if !strings.Contains(e.logs.String(), "dated in the future") {
		t.Errorf("log does not tell of the push from the future:\n%s", e.logs)
	}
	// The next poll brings older data than the push: the push stays.
	e.advance(30*time.Second, time.Second, 2)
	if s := h.Current(); s.Announcements[0].Text != "Pushed news" {
		t.Fatalf("a poll of older data replaced the push: %+v", s.Announcements)
	}
}

func TestPushNexusWithoutAnEvent(t *testing.T) {
	h := NewHub(Options{Logger: newEnv(t, testTimeline()).options().Logger})
	if applied, err := h.PushNexus([]byte(pushed(start, "hi"))); applied || !errors.Is(err, ErrNoEvent) {
		t.Fatalf("PushNexus = %v, %v; want ErrNoEvent", applied, err)
	}
}

func TestPushNexusWithoutNexusKey(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.NexusKey = ""
	h, _ := e.runHub(t, opts, 1)
	if s := h.Current(); s.Nexus.State != board.StateOff {
		t.Fatalf("Nexus = %+v before any push", s.Nexus)
	}
	if applied, err := h.PushNexus([]byte(pushed(start, "hi"))); !applied || err != nil {
		t.Fatalf("push: %v, %v", applied, err)
	}
	if s := h.Current(); s.Nexus.State != board.StateOK || s.NextMatch == nil || s.NextMatch.Label != "Qualification 3" {
		t.Fatalf("after a push: Nexus %+v next %+v", s.Nexus, s.NextMatch)
	}
	// Pushes keep Nexus live: the last is what counts.
	// advance waits for the TBA polls and the hub's timer of the last push.
	e.advance(8*time.Minute, time.Minute, 2)
	if applied, err := h.PushNexus([]byte(pushed(start.Add(8*time.Minute), "again"))); !applied || err != nil {
		t.Fatalf("second push: %v, %v", applied, err)
	}
	e.advance(8*time.Minute, time.Minute, 2)
	if s := h.Current(); s.Nexus.State != board.StateOK || s.NextMatch.Label != "Qualification 3" {
		t.Fatalf("8 min after a push: Nexus %+v next %+v, want it live", s.Nexus, s.NextMatch)
	}
	// Ten minutes without a push: Nexus is stale and TBA's schedule stands in.
	e.clk.Advance(2 * time.Minute)
	s := waitFor(t, h, "TBA standing in for a silent Nexus", func(s board.Status) bool { return s.Nexus.State == board.StateUnreachable })
	if s.NowQueuing != "" || s.NextMatch == nil || s.NextMatch.Key == "" || s.NextMatch.Status != "" {
		t.Fatalf("10 min after the last push: next %+v, queuing %q; want TBA's schedule", s.NextMatch, s.NowQueuing)
	}
	if !s.Nexus.AsOf.Equal(start.Add(8 * time.Minute)) {
		t.Errorf("Nexus AsOf = %v, want the last push's", s.Nexus.AsOf)
	}
}

func TestPushNexusGoesStaleWithoutAnySource(t *testing.T) {
	// Neither key: only pushes merge, and the hub itself lets the last go
	// stale, or its "Now queuing" would hold the kiosk on the pit display
	// all day.
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.NexusKey, opts.TBAKey = "", ""
	h, _ := e.runHub(t, opts, 0)
	if applied, err := h.PushNexus([]byte(pushed(start, "hi"))); !applied || err != nil {
		t.Fatalf("push: %v, %v", applied, err)
	}
	if !h.Current().QueueHold(e.clk.Now()) {
		t.Fatal("no queue hold for a live Now queuing")
	}
	e.clk.Advance(webhookStaleAfter)
	s := waitFor(t, h, "stale Nexus", func(s board.Status) bool { return s.Nexus.State == board.StateUnreachable })
	if s.QueueHold(e.clk.Now()) || s.NowQueuing != "" {
		t.Fatalf("a stale push still holds: %+v", s.NextMatch)
	}
}
