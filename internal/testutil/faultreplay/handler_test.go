package faultreplay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
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
	defer resp.Body.Close()
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
		resp.Body.Close()
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

func TestTruncatedAnswers(t *testing.T) {
	f := newFixture(t)
	_, whole := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk")
	tests := []struct {
		fault      Fault
		wantLength int64 // the Content-Length announced; -1 for none
	}{
		{Truncated, int64(len(whole))},
		{TruncatedChunked, -1},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			f.srv.SetFault("tba", tt.fault)
			req, _ := http.NewRequest(http.MethodGet, f.web.URL+tbaPath, nil)
			req.Header.Set("X-TBA-Auth-Key", "tk")
			resp, err := f.web.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 || resp.ContentLength != tt.wantLength {
				t.Fatalf("status %d, Content-Length %d; want 200 and %d", resp.StatusCode, resp.ContentLength, tt.wantLength)
			}
			body, err := io.ReadAll(resp.Body)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("reading the body: %v, want an unexpected EOF", err)
			}
			if string(body) != string(whole[:len(whole)/2]) {
				t.Fatalf("got %d bytes %.40q…, want the first half of the %d-byte answer", len(body), body, len(whole))
			}
		})
	}
}

func TestHugeAnswerIsStreamed(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault("", Huge)
	req, _ := http.NewRequest(http.MethodGet, f.web.URL+tbaPath, nil)
	req.Header.Set("X-TBA-Auth-Key", "tk")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := f.web.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// Read through a small buffer, keeping only both ends: neither side of
	// the test may hold 50 MiB.
	var head, tail []byte
	n, err := io.CopyBuffer(writerFunc(func(p []byte) (int, error) {
		if len(head) < 16 {
			head = append(head, p[:min(len(p), 16-len(head))]...)
		}
		tail = append(tail[:0], p[max(0, len(p)-2):]...)
		return len(p), nil
	}), resp.Body, make([]byte, 32<<10))
	runtime.ReadMemStats(&after)
	if err != nil || n != 50<<20 || resp.ContentLength != n {
		t.Fatalf("read %d bytes (Content-Length %d), %v; want 50 MiB", n, resp.ContentLength, err)
	}
	if !strings.HasPrefix(string(head), `{"pad":"xxxxxxx`) || string(tail) != `"}` {
		t.Fatalf("body %q … %q, want one JSON object", head, tail)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("serving and reading 50 MiB allocated %d MiB: the answer is not streamed", grew>>20)
	}
}

// writerFunc is an io.Writer made of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

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
			resp.Body.Close()
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

func TestControlHandler(t *testing.T) {
	f := newFixture(t)
	h := f.srv.ControlHandler()
	tests := []struct {
		body string
		code int
	}{
		{`{"fault":"down"}`, 200},
		{`{"fault":""}`, 200},
		{`{"fault":"hang"}`, 200},
		{`{"fault":"403","api":"nexus"}`, 200},
		{`{"fault":"truncated"}`, 200},
		{`{"fault":"truncated-chunked"}`, 200},
		{`{"fault":"flap"}`, 200},
		{`{"fault":"500","api":"tba"}`, 200},
		{`{"fault":"explode"}`, 400},
		{`{"fault":"500","api":"frc"}`, 400},
		{`not json`, 400},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/control", strings.NewReader(tt.body)))
		if rec.Code != tt.code {
			t.Errorf("POST %s = %d, want %d", tt.body, rec.Code, tt.code)
		}
		if tt.code == 400 && !strings.Contains(rec.Body.String(), "truncated-chunked|huge|down|flap|") {
			t.Errorf("POST %s: %q does not list the faults", tt.body, rec.Body)
		}
	}
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("after control: %d, want 500", resp.StatusCode)
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
			resp.Body.Close()
		}
		f.clk.Advance(time.Second)
	}
	got := f.srv.Requests(frcapi.NexusEvent)
	want := []time.Time{start, start.Add(time.Second), start.Add(2 * time.Second), start.Add(3 * time.Second)}
	if !slices.EqualFunc(got, want, time.Time.Equal) {
		t.Fatalf("requests at %v, want %v", got, want)
	}
}

// TestBrokenAnswersAndTBACaching: an answer broken on purpose carries no
// ETag and is never a 304, whatever the client holds; a slow one is the
// ordinary answer, late, 304 included; and a refused key is refused
// plainly, as upstream checks the key first.
func TestBrokenAnswersAndTBACaching(t *testing.T) {
	f := newFixture(t)
	resp, whole := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk")
	etag := resp.Header.Get("ETag")
	f.srv.SetFault(frcapi.TBA, Malformed)
	resp, body := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk", "If-None-Match", etag)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") != "" || resp.Header.Get("Cache-Control") != "" || string(body) != string(whole[:len(whole)/2]) {
		t.Fatalf("malformed with If-None-Match: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	if resp, body := f.get(t, tbaPath, "X-TBA-Auth-Key", "wrong"); resp.StatusCode != 403 || !json.Valid(body) {
		t.Fatalf("malformed with a wrong key: %d %q, want TBA's whole 403", resp.StatusCode, body)
	}

	f.srv.SetFault(frcapi.TBA, Slow)
	got := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, f.web.URL+tbaPath, nil)
		req.Header.Set("X-TBA-Auth-Key", "tk")
		req.Header.Set("If-None-Match", etag)
		resp, err := f.web.Client().Do(req)
		if err != nil {
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	f.clk.BlockUntilWaiters(1)
	f.clk.Advance(30 * time.Second)
	if code := <-got; code != 304 {
		t.Fatalf("slow with a matching If-None-Match: %d, want 304 after the delay", code)
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
