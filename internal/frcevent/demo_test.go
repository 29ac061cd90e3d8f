package frcevent

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/syncbuf"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/board"
)

func TestDemoPlaysAWholeEvent(t *testing.T) {
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
	if *s.Rank != (board.Rank{Rank: 9, Of: 30, Record: board.Record{Wins: 3, Losses: 2, Ties: 0}}) || s.NextMatch.Label != "Qualification 14" || s.NextMatch.Status != "Queuing soon" {
		t.Fatalf("at start: rank %+v next %+v", s.Rank, s.NextMatch)
	}
	if u := s.Upcoming; len(u) != 2 || u[0].Label != "Qualification 19" || u[1].Label != "Qualification 24" || u[1].BreakAfter != "Lunch" {
		t.Fatalf("upcoming = %+v", u)
	}
	if len(s.Recent) != 2 || s.Recent[0].Result == "" || s.OnField == nil || s.Nexus.State != board.StateOK || s.TBA.State != board.StateOK {
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
	if s := h.Current(); s.Recent[0].Result != "win" || *s.Rank != (board.Rank{Rank: 7, Of: 30, Record: board.Record{Wins: 4, Losses: 2, Ties: 0}}) || len(s.PartsRequests) != 1 {
		t.Fatalf("at 125 s: recent %+v rank %+v parts %v", s.Recent[0], s.Rank, s.PartsRequests)
	}
	e.advance(95*time.Second, time.Second, 2)
	if s := h.Current(); len(s.Announcements) != 1 || s.NextMatch.Label != "Qualification 28" || s.Phase != board.PhaseQualifications {
		t.Fatalf("at 220 s: announcements %d next %q phase %q", len(s.Announcements), s.NextMatch.Label, s.Phase)
	}
	// Every qualification played: alliance selection, then our alliance.
	e.advance(160*time.Second, time.Second, 2)
	if s := h.Current(); s.Phase != board.PhaseAllianceSelection || s.NextMatch != nil {
		t.Fatalf("at 380 s: phase %q next %+v, want alliance selection", s.Phase, s.NextMatch)
	}
	e.advance(40*time.Second, time.Second, 2)
	s = h.Current()
	if p := s.Playoffs; p == nil || !slices.Equal(p.Ours.Partners, []string{"148", "6328"}) || p.Ours.Number != 3 || p.Ours.Role != "first pick" ||
		s.NextMatch == nil || s.NextMatch.Label != "Playoff 4" || p.Next.IfWin != "Playoff 8 (blue)" || p.Next.IfLose != "Playoff 6 (blue)" || len(s.TeamCards) != 6 {
		t.Fatalf("at 420 s: playoffs %+v next %+v cards %d", s.Playoffs, s.NextMatch, len(s.TeamCards))
	}
	// We win Playoff 4, lose Playoff 8 and play on in the lower bracket.
	e.advance(100*time.Second, time.Second, 2)
	if p := h.Current().Playoffs; p.Record != (board.Record{Wins: 1, Losses: 1}) || p.Next == nil || p.Next.Label != "Playoff 10" || p.Next.IfLose != "Eliminated" {
		t.Fatalf("at 520 s: record %+v next %+v", p.Record, p.Next)
	}
	e.advance(80*time.Second, time.Second, 2)
	if p := h.Current().Playoffs; p.Next == nil || p.Next.Series != "Finals: 1–1, match 3" || p.Next.IfWin != "Event winners" {
		t.Fatalf("at 600 s: next %+v, want the third final", p.Next)
	}
	e.advance(20*time.Second, time.Second, 2)
	if s := h.Current(); s.Phase != board.PhaseFinished || s.Playoffs.Outcome != "Event winners" || s.Playoffs.Record != (board.Record{Wins: 6, Losses: 2}) {
		t.Fatalf("at 620 s: phase %q outcome %q record %+v", s.Phase, s.Playoffs.Outcome, s.Playoffs.Record)
	}
	// Then it starts again.
	e.advance(30*time.Second, time.Second, 2)
	if s := h.Current(); s.NextMatch.Label != "Qualification 14" || s.Phase != board.PhaseQualifications || s.Playoffs != nil {
		t.Fatalf("at 650 s: next %+v phase %q playoffs %+v, want the loop back at Qualification 14", s.NextMatch, s.Phase, s.Playoffs)
	}
}
