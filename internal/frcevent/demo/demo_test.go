package demo_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/alerts"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/demo"
)

// TestMain checks that every hub the tests started is gone: the demo
// itself starts no goroutine.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start is a Saturday afternoon in Chicago, the demo event's timezone.
var start = time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)

// polls is how many loops of the hub wait on the clock between two rounds
// of requests: Nexus's and TBA's.
const polls = 2

// advance moves fake time by d a second at a time, letting the hub's polls
// answer each second before the next.
func advance(clk *clock.Fake, d time.Duration) {
	for ; d > 0; d -= time.Second {
		clk.Advance(time.Second)
		clk.BlockUntilWaiters(polls)
	}
}

func notified(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestDemoPlaysAWholeEvent(t *testing.T) {
	clk := clock.NewFake(start)
	opts := demo.Apply(frcevent.Options{Clock: clk, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), CacheFile: "/should/not/be/used", NexusKey: "user-key"})
	if opts.CacheFile != "" || opts.NexusKey != "" || opts.TBAKey != "" || !opts.Keyless {
		t.Fatalf("Apply = %+v, want no cache, no key, keyless", opts)
	}
	h := frcevent.NewHub(opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = h.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	clk.BlockUntilWaiters(polls)
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
	advance(clk, 30*time.Second)
	if !notified(changed) || h.Current().NextMatch.Status != "Now queuing" {
		t.Fatalf("at 30 s: next %+v", h.Current().NextMatch)
	}
	advance(clk, 30*time.Second)
	if s := h.Current(); s.NextMatch.Status != "On deck" || len(s.Announcements) != 2 {
		t.Fatalf("at 60 s: next %+v, announcements %d", s.NextMatch, len(s.Announcements))
	}
	advance(clk, 30*time.Second)
	if s := h.Current(); s.NextMatch.Label != "Qualification 19" || s.OnField.Label != "Qualification 14" || s.Recent[0].Label != "Qualification 14" {
		t.Fatalf("at 90 s: next %q on field %+v recent %q", s.NextMatch.Label, s.OnField, s.Recent[0].Label)
	}
	advance(clk, 35*time.Second)
	if s := h.Current(); s.Recent[0].Result != "win" || *s.Rank != (board.Rank{Rank: 7, Of: 30, Record: board.Record{Wins: 4, Losses: 2, Ties: 0}}) || len(s.PartsRequests) != 1 {
		t.Fatalf("at 125 s: recent %+v rank %+v parts %v", s.Recent[0], s.Rank, s.PartsRequests)
	}
	advance(clk, 95*time.Second)
	if s := h.Current(); len(s.Announcements) != 1 || s.NextMatch.Label != "Qualification 28" || s.Phase != board.PhaseQualifications {
		t.Fatalf("at 220 s: announcements %d next %q phase %q", len(s.Announcements), s.NextMatch.Label, s.Phase)
	}
	// Every qualification played: alliance selection, then our alliance.
	advance(clk, 160*time.Second)
	if s := h.Current(); s.Phase != board.PhaseAllianceSelection || s.NextMatch != nil {
		t.Fatalf("at 380 s: phase %q next %+v, want alliance selection", s.Phase, s.NextMatch)
	}
	advance(clk, 40*time.Second)
	s = h.Current()
	if p := s.Playoffs; p == nil || !slices.Equal(p.Ours.Partners, []string{"148", "6328"}) || p.Ours.Number != 3 || p.Ours.Role != "first pick" ||
		s.NextMatch == nil || s.NextMatch.Label != "Playoff 4" || p.Next.IfWin != (board.Route{Kind: board.RoutePlayoff, Match: 8, Colour: board.ColourBlue}) ||
		p.Next.IfLose != (board.Route{Kind: board.RoutePlayoff, Match: 6, Colour: board.ColourBlue}) || len(s.TeamCards) != 6 {
		t.Fatalf("at 420 s: playoffs %+v next %+v cards %d", s.Playoffs, s.NextMatch, len(s.TeamCards))
	}
	// We win Playoff 4, lose Playoff 8 and play on in the lower bracket.
	advance(clk, 100*time.Second)
	if p := h.Current().Playoffs; p.Record != (board.Record{Wins: 1, Losses: 1}) || p.Next == nil || p.Next.Match != 10 || p.Next.IfLose.Kind != board.RouteEliminated {
		t.Fatalf("at 520 s: record %+v next %+v", p.Record, p.Next)
	}
	advance(clk, 80*time.Second)
	if p := h.Current().Playoffs; p.Next == nil || p.Next.Series == nil || *p.Next.Series != (board.Series{Ours: 1, Theirs: 1}) || p.Next.Game != 3 || p.Next.IfWin.Kind != board.RouteWinners {
		t.Fatalf("at 600 s: next %+v, want the third final", p.Next)
	}
	advance(clk, 20*time.Second)
	if s := h.Current(); s.Phase != board.PhaseFinished || s.Playoffs.Outcome != board.OutcomeWinners || s.Playoffs.Record != (board.Record{Wins: 6, Losses: 2}) {
		t.Fatalf("at 620 s: phase %q outcome %q record %+v", s.Phase, s.Playoffs.Outcome, s.Playoffs.Record)
	}
	// Then it starts again.
	advance(clk, 30*time.Second)
	if s := h.Current(); s.NextMatch.Label != "Qualification 14" || s.Phase != board.PhaseQualifications || s.Playoffs != nil {
		t.Fatalf("at 650 s: next %+v phase %q playoffs %+v, want the loop back at Qualification 14", s.NextMatch, s.Phase, s.Playoffs)
	}
}

// The demo's client answers in this process: its upstream's name resolves
// nowhere, so an answer proves that no request left. The request it is given
// comes back unchanged, and a request already cancelled is not served.
func TestTransportAnswersInProcess(t *testing.T) {
	opts := demo.Apply(frcevent.Options{Clock: clock.NewFake(start)})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name     string
		ctx      context.Context
		url      string
		wantCode int
		wantErr  error
	}{
		{"nexus event", context.Background(), opts.NexusURL + "/event/2026demo", http.StatusOK, nil},
		{"tba event", context.Background(), opts.TBAURL + "/event/2026demo", http.StatusOK, nil},
		{"unknown path", context.Background(), opts.TBAURL + "/nope", http.StatusNotFound, nil},
		{"cancelled", cancelled, opts.NexusURL + "/event/2026demo", 0, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(tt.ctx, http.MethodGet, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := opts.HTTPClient.Do(req)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			defer func() { _ = resp.Body.Close() }() // a read body: nothing to lose
			body, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != tt.wantCode || tt.wantCode == http.StatusOK && (len(body) == 0 || body[0] != '{') {
				t.Fatalf("answer %d %q, %v; want %d", resp.StatusCode, body, err, tt.wantCode)
			}
			if req.Pattern != "" || req.RequestURI != "" {
				t.Errorf("request changed: pattern %q, RequestURI %q", req.Pattern, req.RequestURI)
			}
		})
	}
}

// The product is built without the test helpers: the fault injection of
// internal/testutil, httptest and the testing package stay in the tests
// and cmd/replayd.
func TestProductBinaryHasNoTestCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/robohornets/robohornets").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "testing" || pkg == "net/http/httptest" || strings.Contains(pkg, "/internal/testutil/") {
			t.Errorf("the product imports %s", pkg)
		}
	}
}

// TestDemoAlerts plays the whole demo event through the hub and turns
// each change a follower would see into alerts, as serve does: each
// result of ours that comes out while following comes once, our alliance
// once and the end of our playoffs once, matches are called when they
// queue (13 of the 14: the demo decides Playoff 13's alliances a second
// before it goes on the field, when it was already on deck), and no alert
// twice.
func TestDemoAlerts(t *testing.T) {
	clk := clock.NewFake(start)
	h := frcevent.NewHub(demo.Apply(frcevent.Options{Clock: clk, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = h.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	clk.BlockUntilWaiters(polls)

	count := map[string]int{}
	byKind := map[alerts.Kind]int{}
	prev := h.Current()
	before := map[string]bool{} // results out before the follower came
	for _, m := range prev.Schedule {
		before[m.Key] = m.Result != board.ResultNone
	}
	for range 640 {
		advance(clk, time.Second)
		cur := h.Current()
		for _, a := range alerts.Changes(prev, cur, clk.Now()) {
			count[a.ID]++
			byKind[a.Kind]++
		}
		prev = cur
	}
	for id, n := range count {
		if n != 1 {
			t.Errorf("%s sent %d times", id, n)
		}
	}
	var results, queued int
	for _, m := range prev.Schedule {
		if m.Result == board.ResultNone || before[m.Key] {
			continue
		}
		results++
		id := strings.ToLower(strings.ReplaceAll(m.Label, " ", "-"))
		if count["result/2026demo/"+id] != 1 {
			t.Errorf("%s's result: %d alerts", m.Label, count["result/2026demo/"+id])
		}
		if count["queue/2026demo/"+id+"/0"] == 1 {
			queued++
		}
	}
	if results == 0 || queued == 0 || byKind[alerts.KindSelection] != 1 || byKind[alerts.KindPlayoffs] != 1 {
		t.Errorf("%d results, %d queue calls; by kind %v", results, queued, byKind)
	}
	t.Logf("%d results, %d of their matches called when queuing; %v", results, queued, byKind)
}
