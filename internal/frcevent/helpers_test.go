package frcevent

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/syncbuf"

	"go.uber.org/goleak"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/faultreplay"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		// Every hub and connection the tests started must be gone.
		if err := goleak.Find(); err != nil {
			_, _ = os.Stderr.WriteString("goroutine leak: " + err.Error() + "\n") // the exit code fails the run anyway
			code = 1
		}
	}
	os.Exit(code)
}

// start is the fake time every test begins at: a Saturday afternoon in
// Chicago, the day of the test event.
var start = time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)

func str(s string) *string { return &s }

func seats(teams ...string) []*string {
	out := make([]*string, len(teams))
	for i, t := range teams {
		if t != "" {
			out[i] = str(t)
		}
	}
	return out
}

func off(d time.Duration) *replay.Offset { return replay.At(d) }

// testTimeline is a small event: our Qualification 1 played, Qualification
// 2 queues at 1 min and is played at 3 min, Qualification 3 is later. An
// announcement appears at 40 s.
func testTimeline() replay.Timeline {
	nexusMatch := func(n int, red, blue []*string, field time.Duration) replay.NexusMatch {
		return replay.NexusMatch{
			Label: "Qualification " + strconv.Itoa(n), RedTeams: red, BlueTeams: blue,
			Times: replay.NexusTimes{
				EstimatedQueue: off(field - 2*time.Minute), EstimatedStart: off(field), ScheduledStart: off(field),
				ActualQueue: off(field - 2*time.Minute), ActualOnDeck: off(field - time.Minute), ActualOnField: off(field), ActualStart: off(field),
			},
		}
	}
	tbaMatch := func(n int, red, blue []string, rs, bs int, winner string, field time.Duration) replay.Match {
		return replay.Match{Key: "2026test_qm" + strconv.Itoa(n), CompLevel: "qm", SetNumber: 1, MatchNumber: n, Red: red, Blue: blue,
			RedScore: rs, BlueScore: bs, WinningAlliance: winner, Time: off(field), PredictedTime: off(field), ActualTime: off(field), ResultAt: off(field + 30*time.Second)}
	}
	return replay.Timeline{
		Team: 1209, Event: "2026test", Length: replay.Offset(10 * time.Minute),
		Steps: []replay.Step{{State: replay.State{
			Nexus: &replay.NexusEvent{Matches: []replay.NexusMatch{
				nexusMatch(1, seats("1209", "254", "118"), seats("148", "971", "1678"), -10*time.Minute),
				nexusMatch(2, seats("111", "222", "333"), seats("444", "1209", "555"), 3*time.Minute),
				nexusMatch(3, seats("1209", "666", "777"), seats("888", "999", "101"), 20*time.Minute),
			}},
			Announcements: []replay.Announcement{
				{ID: "a1", Text: "Welcome", Posted: replay.Offset(-30 * time.Minute)},
				{ID: "a2", Text: "Lunch moved to 12:30", Posted: replay.Offset(40 * time.Second)},
			},
			Pits:       map[string]string{"1209": "B12", "254": "A1"},
			TeamStatus: &replay.TeamStatus{Rank: 3, NumTeams: 24, Record: replay.Record{Wins: 1}, NextMatchKey: "2026test_qm2", PitLocation: "P9"},
			Matches: []replay.Match{
				tbaMatch(1, []string{"frc1209", "frc254", "frc118"}, []string{"frc148", "frc971", "frc1678"}, 90, 40, "red", -10*time.Minute),
				tbaMatch(2, []string{"frc111", "frc222", "frc333"}, []string{"frc444", "frc1209", "frc555"}, 50, 70, "blue", 3*time.Minute),
				tbaMatch(3, []string{"frc1209", "frc666", "frc777"}, []string{"frc888", "frc999", "frc101"}, 0, 0, "", 20*time.Minute),
			},
			Event: &replay.Event{Key: "2026test", Name: "Test Regional", Timezone: "America/Chicago", StartDay: -1, EndDay: 1,
				Webcasts: []replay.Webcast{{Type: "twitch", Channel: "firstinspires"}}},
			Rankings: []replay.Ranking{{TeamKey: "frc254", Rank: 1}, {TeamKey: "frc1209", Rank: 3, Record: replay.Record{Wins: 1}}},
		}}},
	}
}

// env is an upstream replay on a fake clock.
type env struct {
	clk  *clock.Fake
	up   *faultreplay.Replay
	srv  *httptest.Server
	logs *syncbuf.Buffer
}

func newEnv(t testing.TB, tl replay.Timeline) *env {
	t.Helper()
	return newEnvWith(t, replay.Options{Timeline: tl, Loop: true}, faultreplay.Options{})
}

// newEnvWith is newEnv with more of the replay's options and its faults';
// their Clock is the env's fake one, their keys the replay's defaults.
func newEnvWith(t testing.TB, opts replay.Options, faults faultreplay.Options) *env {
	t.Helper()
	clk := clock.NewFake(start)
	opts.Clock, opts.NexusKey, opts.TBAKey = clk, replay.DefaultNexusKey, replay.DefaultTBAKey
	up := faultreplay.NewReplay(opts, faults)
	srv := httptest.NewServer(up)
	t.Cleanup(srv.Close)
	return &env{clk: clk, up: up, srv: srv, logs: &syncbuf.Buffer{}}
}

// options are hub options reading e's upstream with the right keys.
func (e *env) options() Options {
	return Options{
		Team: 1209, EventKey: "2026test",
		NexusURL: e.srv.URL + "/nexus/api/v1", TBAURL: e.srv.URL + "/tba/api/v3",
		NexusKey: replay.DefaultNexusKey, TBAKey: replay.DefaultTBAKey,
		Clock: e.clk, HTTPClient: e.srv.Client(), Rand: rand.New(rand.NewPCG(1, 2)),
		Logger: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
}

// runHub starts a hub and waits until its first round of requests is done
// (waiters is how many poll loops it runs). It stops with the test, or
// when stop is called.
func (e *env) runHub(t testing.TB, opts Options, waiters int) (h *Hub, stop func()) {
	t.Helper()
	h = NewHub(opts)
	return h, e.run(t, h, waiters)
}

// run is runHub for a hub already made, which a test may have changed
// before it runs.
func (e *env) run(t testing.TB, h *Hub, waiters int) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = h.Run(ctx)
	}()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	if waiters > 0 {
		e.clk.BlockUntilWaiters(waiters)
	}
	return stop
}

// cachedAfterAMinute runs a hub of e.options() with a cache for a minute
// of fake time and returns its options: a hub made of them starts from
// that cache.
func (e *env) cachedAfterAMinute(t *testing.T) Options {
	t.Helper()
	opts := e.options()
	opts.CacheFile = filepath.Join(t.TempDir(), "event.json")
	_, stop := e.runHub(t, opts, 2)
	e.advance(time.Minute, time.Second, 2)
	stop()
	return opts
}

// advance moves fake time by d in steps of at most step, letting the
// hub's waiters loops answer each step before the next.
func (e *env) advance(d, step time.Duration, waiters int) {
	for d > 0 {
		s := min(d, step)
		e.clk.Advance(s)
		e.clk.BlockUntilWaiters(waiters)
		d -= s
	}
}

// nexusPollsIn advances fake time by d in steps of 5 s, as advance does,
// and returns how often Nexus was asked meanwhile.
func (e *env) nexusPollsIn(d time.Duration, waiters int) int {
	asked := e.up.Count(frcapi.NexusEvent)
	e.advance(d, 5*time.Second, waiters)
	return e.up.Count(frcapi.NexusEvent) - asked
}

// waitFor returns h's Status once cond holds of it, woken by each change
// (a goroutine of the hub publishes it), and fails the test after 5 s.
func waitFor(t *testing.T, h *Hub, what string, cond func(board.Status) bool) board.Status {
	t.Helper()
	changed, stop := h.Subscribe()
	defer stop()
	deadline := time.After(5 * time.Second)
	for {
		if s := h.Current(); cond(s) {
			return s
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no %s: %+v", what, h.Current())
		}
	}
}

// overrides answer some paths of an upstream with bodies of the test's
// own, and pass every other request on to the replay.
type overrides struct {
	mu     sync.Mutex
	bodies map[string]string // by path
}

// set makes path answer 200 with body; "" passes it on to the replay again.
func (o *overrides) set(path, body string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.bodies[path] = body
}

// withOverrides returns options like e.options() that read e's upstream
// through overrides.
func (e *env) withOverrides(t *testing.T) (*overrides, Options) {
	t.Helper()
	o := &overrides{bodies: make(map[string]string)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		body := o.bodies[r.URL.Path]
		o.mu.Unlock()
		if body == "" {
			e.up.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	opts := e.options()
	opts.NexusURL, opts.TBAURL, opts.HTTPClient = srv.URL+"/nexus/api/v1", srv.URL+"/tba/api/v3", srv.Client()
	return o, opts
}

// timings are how long, in real time, each request spent in the upstream's
// handler, by path.
type timings struct {
	mu   sync.Mutex
	took map[string][]time.Duration
}

// reset forgets the requests timed so far.
func (tm *timings) reset() {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	clear(tm.took)
}

// all returns every duration timed.
func (tm *timings) all() []time.Duration {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	var out []time.Duration
	for _, took := range tm.took {
		out = append(out, took...)
	}
	return out
}

// timed returns options like e.options() that read e's upstream through a
// server that times each request from its arrival until its handler ends:
// for a hung request, until the server has seen the client give up.
func (e *env) timed(t *testing.T) (*timings, Options) {
	t.Helper()
	tm := &timings{took: make(map[string][]time.Duration)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		defer func() { // also when the handler drops the connection by a panic
			tm.mu.Lock()
			tm.took[r.URL.Path] = append(tm.took[r.URL.Path], time.Since(began))
			tm.mu.Unlock()
		}()
		e.up.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	opts := e.options()
	opts.NexusURL, opts.TBAURL, opts.HTTPClient = srv.URL+"/nexus/api/v1", srv.URL+"/tba/api/v3", srv.Client()
	return tm, opts
}
