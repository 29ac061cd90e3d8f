package faultreplay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

type fixture = replaytest.Fixture[*Replay]

func newFixture(t *testing.T) fixture { return newFixtureWith(t, Options{}) }

// newFixtureWith is newFixture with faults' options; their clock is the
// fixture's.
func newFixtureWith(t *testing.T, faults Options) fixture {
	return replaytest.NewFixture(t, func(opts replay.Options) *Replay { return NewReplay(opts, faults) })
}

func TestFaults(t *testing.T) {
	f := newFixture(t)
	f.Server.SetFault("tba", Status500)
	if resp, _ := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("500: %d", resp.StatusCode)
	}
	if resp, _ := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 200 {
		t.Fatalf("a TBA fault reached Nexus: %d", resp.StatusCode)
	}
	f.Server.SetFault("nexus", Status403)
	if resp, _ := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 403 {
		t.Fatalf("403 with the right key: %d", resp.StatusCode)
	}
	f.Server.SetFault("", Malformed)
	if _, body := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk"); json.Valid(body) || len(body) == 0 {
		t.Fatalf("malformed: %q is valid JSON", body)
	}
	f.Server.SetFault("", Down)
	if _, err := f.Web.Client().Get(f.Web.URL + replaytest.NexusPath); err == nil {
		t.Fatal("down: got an answer")
	}
	f.Server.SetFault("", Slow)
	type result struct {
		code int
		err  error
	}
	got := make(chan result, 1)
	go func() {
		// Not f.Get: t.Fatal must not be called from another goroutine.
		resp, err := f.Do(context.Background(), replaytest.TBAPath, "X-TBA-Auth-Key", "tk")
		if err != nil {
			got <- result{err: err}
			return
		}
		_ = resp.Body.Close() // closing a read body cannot lose data
		got <- result{code: resp.StatusCode}
	}()
	f.Clock.BlockUntilWaiters(1)
	f.Clock.Advance(30 * time.Second)
	if r := <-got; r.err != nil || r.code != 200 {
		t.Fatalf("slow: %d, %v after the delay", r.code, r.err)
	}
	f.Server.SetFault("", None)
	if resp, _ := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("after the faults: %d", resp.StatusCode)
	}
}

func TestHangLastsUntilTheClientGivesUp(t *testing.T) {
	f := newFixture(t)
	f.Server.SetFault("nexus", Hang)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	began := time.Now()
	if resp, err := f.Do(ctx, replaytest.NexusPath, "Nexus-Api-Key", "nk"); !errors.Is(err, context.DeadlineExceeded) {
		if err == nil {
			_ = resp.Body.Close() // closing a read body cannot lose data
		}
		t.Fatalf("hang: %v, want the client's own deadline", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("the client waited %v for a 100 ms deadline", took)
	}
	// The handler ends once the server sees the client gone: nothing of
	// the request stays behind in the server. Its clock is fake, so this
	// wait is on real time.
	for deadline := time.Now().Add(5 * time.Second); f.Server.Active() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests still held 5 s after their client gave up", f.Server.Active())
		}
	}
	if resp, _ := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("a Nexus hang reached TBA: %d", resp.StatusCode)
	}
}

func TestFlapAlternates(t *testing.T) {
	f := newFixtureWith(t, Options{FlapEvery: 10 * time.Second, FlapFault: Status500})
	code := func() int {
		resp, _ := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk")
		return resp.StatusCode
	}
	f.Clock.Advance(3 * time.Second) // a flap starts when it is set, not on the clock's tens
	f.Server.SetFault("", Flap)
	var got []int
	for range 6 {
		got = append(got, code())
		f.Clock.Advance(5 * time.Second)
	}
	if want := []int{500, 500, 200, 200, 500, 500}; !slices.Equal(got, want) {
		t.Fatalf("every 5 s of a 10 s flap: %v, want %v", got, want)
	}
	f.Server.SetFault("", None)
	if c := code(); c != 200 {
		t.Fatalf("after the flap: %d", c)
	}
	defer func() {
		if recover() == nil {
			t.Error("Wrap took FlapFault flap")
		}
	}()
	Wrap(http.NotFoundHandler(), Options{FlapFault: Flap})
}

// TestScheduledFaultsAndTimeline schedules a fault at 5 min that ends at
// 6 min, when the timeline lists the event as down: both show at their
// offsets, and a fault set at run time goes first while it lasts.
func TestScheduledFaultsAndTimeline(t *testing.T) {
	f := newFixtureWith(t, Options{Schedule: []Scheduled{
		{At: 6 * time.Minute, Fault: None}, // out of order: the schedule sorts them
		{At: 5 * time.Minute, Fault: Status500},
		{At: 5 * time.Minute, API: frcapi.Nexus, Fault: Status403},
	}})
	f.Clock.Advance(5*time.Minute - time.Second)
	if resp, _ := f.Get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("before the scheduled fault: %d", resp.StatusCode)
	}
	f.Clock.Advance(time.Second)
	if resp, _ := f.Get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("scheduled fault at 5 min: %d", resp.StatusCode)
	}
	if resp, _ := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 403 {
		t.Fatalf("Nexus's own scheduled fault at 5 min: %d", resp.StatusCode)
	}
	f.Server.SetFault(frcapi.TBA, Status403)
	if resp, _ := f.Get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 403 {
		t.Fatalf("a fault set over the schedule's: %d", resp.StatusCode)
	}
	f.Server.SetFault(frcapi.TBA, None)
	if resp, _ := f.Get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("back to the schedule's fault: %d", resp.StatusCode)
	}
	f.Clock.Advance(time.Minute)
	resp, body := f.Get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"down_events":["2026test"]`) {
		t.Fatalf("at 6 min: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 200 {
		t.Fatalf("Nexus at 6 min: %d", resp.StatusCode)
	}
}

// TestFailedRequestsStillCount: a client's pace is read from the server's
// count, failures included, so every request counts, at its arrival.
func TestFailedRequestsStillCount(t *testing.T) {
	f := newFixture(t)
	for _, fault := range []Fault{Status500, Status403, Down, Malformed} {
		f.Server.SetFault(frcapi.Nexus, fault)
		if resp, err := f.Do(context.Background(), replaytest.NexusPath, "Nexus-Api-Key", "nk"); err == nil {
			_ = resp.Body.Close() // closing a read body cannot lose data
		}
		f.Clock.Advance(time.Second)
	}
	got := f.Server.Requests(frcapi.NexusEvent)
	want := []time.Time{replaytest.Start, replaytest.Start.Add(time.Second), replaytest.Start.Add(2 * time.Second), replaytest.Start.Add(3 * time.Second)}
	if !slices.EqualFunc(got, want, time.Time.Equal) {
		t.Fatalf("requests at %v, want %v", got, want)
	}
}

// TestWrapsAnyHandler: the wrapper needs no replay server, and leaves
// alone what is neither API.
func TestWrapsAnyHandler(t *testing.T) {
	h := Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }), Options{})
	h.SetFault(frcapi.TBA, Status500)
	for path, want := range map[string]int{"/tba/api/v3/status": 500, "/nexus/api/v1/event/x": 200, "/healthz": 200} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("GET %s with TBA failing: %d, want %d", path, rec.Code, want)
		}
	}
}
