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

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

var start = time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)

func s(v string) *string { return &v }

func timeline() replay.Timeline {
	return replay.Timeline{
		Team: 1209, Event: "2026test", NexusEvent: "2026test_div", Length: replay.Offset(10 * time.Minute),
		Steps: []replay.Step{
			{State: replay.State{
				Nexus: &replay.NexusEvent{Matches: []replay.NexusMatch{
					{Label: "Qualification 1", RedTeams: []*string{s("1209"), nil, s("3")}, Times: replay.NexusTimes{
						EstimatedStart: replay.At(2 * time.Minute), ActualQueue: replay.At(time.Minute), ActualOnDeck: replay.At(90 * time.Second), ActualOnField: replay.At(2 * time.Minute)}},
					{Label: "Qualification 2", Status: "Queuing soon"},
				}},
				Announcements: []replay.Announcement{{ID: "a", Text: "later", Posted: replay.Offset(30 * time.Second)}},
				Matches: []replay.Match{
					{Key: "2026test_qm1", CompLevel: "qm", SetNumber: 1, MatchNumber: 1, Red: []string{"frc1209"}, Blue: []string{"frc2"},
						RedScore: 10, BlueScore: 5, WinningAlliance: "red", Time: replay.At(2 * time.Minute), ActualTime: replay.At(2 * time.Minute), ResultAt: replay.At(3 * time.Minute)},
					{Key: "2026test_qm2", CompLevel: "qm", Red: []string{"frc7"}, Blue: []string{"frc8"}},
				},
				Event: &replay.Event{Key: "2026test", Name: "Test", Timezone: "America/Chicago", StartDay: -1, EndDay: 1},
			}},
			{At: replay.Offset(6 * time.Minute), State: replay.State{DownEvents: []string{"2026test"}}},
		},
	}
}

type fixture struct {
	clk *clock.Fake
	srv *Replay
	web *httptest.Server
}

func newFixture(t *testing.T) fixture { return newFixtureWith(t, Options{}) }

// newFixtureWith is newFixture with faults' options; their clock is the
// fixture's.
func newFixtureWith(t *testing.T, faults Options) fixture {
	clk := clock.NewFake(start)
	srv := NewReplay(replay.Options{Timeline: timeline(), Clock: clk, Loop: true, NexusKey: "nk", TBAKey: "tk"}, faults)
	web := httptest.NewServer(srv)
	t.Cleanup(web.Close)
	return fixture{clk, srv, web}
}

func (f fixture) get(t *testing.T, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.web.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := f.web.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

const (
	nexusPath = "/nexus/api/v1/event/2026test_div"
	tbaPath   = "/tba/api/v3/team/frc1209/event/2026test/matches/simple"
)

func TestFaults(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault("tba", Status500)
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("500: %d", resp.StatusCode)
	}
	if resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 200 {
		t.Fatalf("a TBA fault reached Nexus: %d", resp.StatusCode)
	}
	f.srv.SetFault("nexus", Status403)
	if resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 403 {
		t.Fatalf("403 with the right key: %d", resp.StatusCode)
	}
	f.srv.SetFault("", Malformed)
	if _, body := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); json.Valid(body) || len(body) == 0 {
		t.Fatalf("malformed: %q is valid JSON", body)
	}
	f.srv.SetFault("", Down)
	if _, err := f.web.Client().Get(f.web.URL + nexusPath); err == nil {
		t.Fatal("down: got an answer")
	}
	f.srv.SetFault("", Slow)
	type result struct {
		code int
		err  error
	}
	got := make(chan result, 1)
	go func() {
		// Not f.get: t.Fatal must not be called from another goroutine.
		req, _ := http.NewRequest(http.MethodGet, f.web.URL+tbaPath, nil)
		req.Header.Set("X-TBA-Auth-Key", "tk")
		resp, err := f.web.Client().Do(req)
		if err != nil {
			got <- result{err: err}
			return
		}
		_ = resp.Body.Close() // closing a read body cannot lose data
		got <- result{code: resp.StatusCode}
	}()
	f.clk.BlockUntilWaiters(1)
	f.clk.Advance(30 * time.Second)
	if r := <-got; r.err != nil || r.code != 200 {
		t.Fatalf("slow: %d, %v after the delay", r.code, r.err)
	}
	f.srv.SetFault("", None)
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("after the faults: %d", resp.StatusCode)
	}
}

func TestHangLastsUntilTheClientGivesUp(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault("nexus", Hang)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.web.URL+nexusPath, nil)
	req.Header.Set("Nexus-Api-Key", "nk")
	began := time.Now()
	if resp, err := f.web.Client().Do(req); !errors.Is(err, context.DeadlineExceeded) {
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
	for deadline := time.Now().Add(5 * time.Second); f.srv.Active() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests still held 5 s after their client gave up", f.srv.Active())
		}
	}
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("a Nexus hang reached TBA: %d", resp.StatusCode)
	}
}

func TestFlapAlternates(t *testing.T) {
	f := newFixtureWith(t, Options{FlapEvery: 10 * time.Second, FlapFault: Status500})
	code := func() int {
		resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk")
		return resp.StatusCode
	}
	f.clk.Advance(3 * time.Second) // a flap starts when it is set, not on the clock's tens
	f.srv.SetFault("", Flap)
	var got []int
	for range 6 {
		got = append(got, code())
		f.clk.Advance(5 * time.Second)
	}
	if want := []int{500, 500, 200, 200, 500, 500}; !slices.Equal(got, want) {
		t.Fatalf("every 5 s of a 10 s flap: %v, want %v", got, want)
	}
	f.srv.SetFault("", None)
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
	f.clk.Advance(5*time.Minute - time.Second)
	if resp, _ := f.get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("before the scheduled fault: %d", resp.StatusCode)
	}
	f.clk.Advance(time.Second)
	if resp, _ := f.get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("scheduled fault at 5 min: %d", resp.StatusCode)
	}
	if resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 403 {
		t.Fatalf("Nexus's own scheduled fault at 5 min: %d", resp.StatusCode)
	}
	f.srv.SetFault(frcapi.TBA, Status403)
	if resp, _ := f.get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 403 {
		t.Fatalf("a fault set over the schedule's: %d", resp.StatusCode)
	}
	f.srv.SetFault(frcapi.TBA, None)
	if resp, _ := f.get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("back to the schedule's fault: %d", resp.StatusCode)
	}
	f.clk.Advance(time.Minute)
	resp, body := f.get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"down_events":["2026test"]`) {
		t.Fatalf("at 6 min: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 200 {
		t.Fatalf("Nexus at 6 min: %d", resp.StatusCode)
	}
}

// TestFailedRequestsStillCount: a client's pace is read from the server's
// count, failures included, so every request counts, at its arrival.
func TestFailedRequestsStillCount(t *testing.T) {
	f := newFixture(t)
	for _, fault := range []Fault{Status500, Status403, Down, Malformed} {
		f.srv.SetFault(frcapi.Nexus, fault)
		req, _ := http.NewRequest(http.MethodGet, f.web.URL+nexusPath, nil)
		req.Header.Set("Nexus-Api-Key", "nk")
		if resp, err := f.web.Client().Do(req); err == nil {
			_ = resp.Body.Close() // closing a read body cannot lose data
		}
		f.clk.Advance(time.Second)
	}
	got := f.srv.Requests(frcapi.NexusEvent)
	want := []time.Time{start, start.Add(time.Second), start.Add(2 * time.Second), start.Add(3 * time.Second)}
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
