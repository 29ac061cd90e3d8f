package frcevent

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/syncbuf"

	"github.com/robohornets/robohornets/internal/clock"
)

func TestDemoPlaysAQualificationDay(t *testing.T) {
	clk := clock.NewFake(start)
	logs := &syncbuf.Buffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	demo, err := StartDemo(ctx, clk, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = demo.Close() }() // teardown: a close error changes nothing here
	opts := demo.Apply(Options{Clock: clk, Logger: logger, CacheFile: "/should/not/be/used"})
	if opts.CacheFile != "" || opts.NexusKey == "" || opts.TBAKey == "" {
		t.Fatalf("Apply = %+v", opts)
	}
	e := &env{clk: clk}
	h, _ := e.runHub(t, opts, 2)
	changed, unsubscribe := h.Subscribe()
	defer unsubscribe()

	s := h.Current()
	if s.EventName != "RoboHornets Demo Regional" || s.Timezone != "America/Chicago" || s.Pit != "B12" || len(s.Webcasts) != 2 {
		t.Fatalf("event = %q %q pit %q webcasts %v", s.EventName, s.Timezone, s.Pit, s.Webcasts)
	}
	if *s.Rank != (Rank{9, 30, Record{3, 2, 0}}) || s.NextMatch.Label != "Qualification 14" || s.NextMatch.Status != "Queuing soon" {
		t.Fatalf("at start: rank %+v next %+v", s.Rank, s.NextMatch)
	}
	if got := labels(s.Upcoming); !slices.Equal(got, []string{"Qualification 19", "Qualification 24"}) || s.Upcoming[1].BreakAfter != "Lunch" {
		t.Fatalf("upcoming = %v", got)
	}
	if len(s.Recent) != 2 || s.Recent[0].Result == "" || s.OnField == nil || s.Nexus.State != StateOK || s.TBA.State != StateOK {
		t.Fatalf("recent %+v on field %+v sources %+v %+v", s.Recent, s.OnField, s.Nexus, s.TBA)
	}

	// Within 30 s something changes on screen.
	e.advance(30*time.Second, time.Second, 2)
	if !notified(changed) || h.Current().NextMatch.Status != "Now queuing" {
		t.Fatalf("at 30 s: next %+v", h.Current().NextMatch)
	}
	e.advance(30*time.Second, time.Second, 2)
	if s := h.Current(); s.NextMatch.Status != "On deck" || len(s.Announcements) != 2 {
		t.Fatalf("at 60 s: next %+v, announcements %d", s.NextMatch, len(s.Announcements))
	}
	e.advance(30*time.Second, time.Second, 2)
	if s := h.Current(); s.NextMatch.Label != "Qualification 19" || s.OnField.Label != "Qualification 14" || s.Recent[0].Label != "Qualification 14" {
		t.Fatalf("at 90 s: next %q on field %+v recent %q", s.NextMatch.Label, s.OnField, s.Recent[0].Label)
	}
	e.advance(35*time.Second, time.Second, 2)
	if s := h.Current(); s.Recent[0].Result != "win" || *s.Rank != (Rank{7, 30, Record{4, 2, 0}}) || len(s.PartsRequests) != 1 {
		t.Fatalf("at 125 s: recent %+v rank %+v parts %v", s.Recent[0], s.Rank, s.PartsRequests)
	}
	e.advance(95*time.Second, time.Second, 2)
	if s := h.Current(); len(s.Announcements) != 1 || s.NextMatch.Label != "Qualification 24" {
		t.Fatalf("at 220 s: announcements %d next %q", len(s.Announcements), s.NextMatch.Label)
	}
	e.advance(50*time.Second, time.Second, 2)
	if s := h.Current(); s.OnField != nil || s.Recent[0].Label != "Qualification 24" || s.Recent[0].BreakAfter != "Lunch" {
		t.Fatalf("at 270 s: on field %+v (want lunch), recent %+v", s.OnField, s.Recent[0])
	}
	// Then it starts again.
	e.advance(40*time.Second, time.Second, 2)
	if s := h.Current(); s.NextMatch.Label != "Qualification 14" || s.NextMatch.Status != "Queuing soon" {
		t.Fatalf("at 310 s: next %+v, want the loop back at Qualification 14", s.NextMatch)
	}
}
