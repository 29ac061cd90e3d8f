package faultreplay

import (
	"cmp"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// Options configures a Handler.
type Options struct {
	// Clock tells the time of the schedule, of flaps and of Slow's delay;
	// nil means clock.Real. Give it the wrapped server's clock.
	Clock clock.Clock
	// Start is offset 0 of Schedule; zero means the clock's time at Wrap.
	Start time.Time
	// Schedule lists faults that start at offsets from Start, for a test
	// whose upstream must fail at a moment of the timeline it plays. It
	// does not loop.
	Schedule []Scheduled
	// SlowDelay is how long Slow holds an answer, unless the client gives
	// up first; zero means 30 s.
	SlowDelay time.Duration
	// FlapEvery is how long each spell of Flap lasts, bad then good then
	// bad again; zero means DefaultFlapEvery.
	FlapEvery time.Duration
	// FlapFault is the fault of Flap's bad spells; None means Down. It
	// cannot be Flap itself.
	FlapFault Fault
}

// Scheduled is one change of a Schedule: from At on, API ("" for both)
// fails with Fault; None ends an earlier one.
type Scheduled struct {
	At    time.Duration
	API   frcapi.Source
	Fault Fault
}

// Handler passes requests on to the handler it wraps, failing those of an
// API as told. It is safe for concurrent use.
type Handler struct {
	next     http.Handler
	opts     Options
	schedule []Scheduled // sorted by At

	// active counts the requests being handled, a hung one until its
	// client gives up.
	active atomic.Int64

	mu  sync.Mutex
	set map[frcapi.Source]setFault
}

// setFault is a fault set at run time, and when: a flap starts then.
type setFault struct {
	fault Fault
	since time.Time
}

// Wrap returns a Handler in front of next, serving without faults until
// told otherwise or until its schedule says. It panics on options no
// test means: a Flap of flaps, or an unknown fault.
func Wrap(next http.Handler, opts Options) *Handler {
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Start.IsZero() {
		opts.Start = opts.Clock.Now()
	}
	if opts.SlowDelay == 0 {
		opts.SlowDelay = defaultSlowDelay
	}
	if opts.FlapEvery == 0 {
		opts.FlapEvery = DefaultFlapEvery
	}
	if opts.FlapFault == None {
		opts.FlapFault = Down
	}
	if opts.FlapFault == Flap || !opts.FlapFault.Valid() {
		panic(fmt.Sprintf("faultreplay.Wrap: FlapFault %q: want a fault other than flap", opts.FlapFault))
	}
	for _, s := range opts.Schedule {
		if !s.Fault.Valid() {
			panic(fmt.Sprintf("faultreplay.Wrap: scheduled fault %q unknown", s.Fault))
		}
	}
	h := &Handler{next: next, opts: opts, schedule: slices.Clone(opts.Schedule), set: make(map[frcapi.Source]setFault)}
	slices.SortStableFunc(h.schedule, func(a, b Scheduled) int { return cmp.Compare(a.At, b.At) })
	return h
}

// SetFault makes api (frcapi.Nexus, frcapi.TBA, or "" for both) fail with
// f until changed; None hands back to the schedule, if any. A Flap starts
// now, by the handler's clock, with a bad spell.
func (h *Handler) SetFault(api frcapi.Source, f Fault) {
	now := h.opts.Clock.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, a := range []frcapi.Source{frcapi.Nexus, frcapi.TBA} {
		if api == "" || api == a {
			h.set[a] = setFault{f, now}
		}
	}
}

// Active returns how many requests the handler is handling now. A request
// of Hang or Slow counts until its client gives up, so a test can tell
// that none is left behind.
func (h *Handler) Active() int { return int(h.active.Load()) }

// sourceOf tells the API of a request by its path, as a replay server
// mounts them.
func sourceOf(path string) (frcapi.Source, bool) {
	switch {
	case strings.HasPrefix(path, "/nexus/"):
		return frcapi.Nexus, true
	case strings.HasPrefix(path, "/tba/"):
		return frcapi.TBA, true
	}
	return "", false
}

// faultAt returns the fault of api at now: the one set at run time, else
// the schedule's, a Flap resolved to its spell.
func (h *Handler) faultAt(api frcapi.Source, now time.Time) Fault {
	h.mu.Lock()
	set := h.set[api]
	h.mu.Unlock()
	fault, since := set.fault, set.since
	if fault == None {
		for _, s := range h.schedule {
			at := h.opts.Start.Add(s.At)
			if at.After(now) {
				break
			}
			if s.API == "" || s.API == api {
				fault, since = s.Fault, at
			}
		}
	}
	if fault == Flap {
		fault = h.flap(now, since)
	}
	return fault
}

// flap returns the fault of a Flap set at since: Options.FlapFault in its
// first FlapEvery, none in the next, and so on.
func (h *Handler) flap(now, since time.Time) Fault {
	if now.Sub(since)/h.opts.FlapEvery%2 == 0 {
		return h.opts.FlapFault
	}
	return None
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.active.Add(1)
	defer h.active.Add(-1)
	fault := None
	if api, ok := sourceOf(r.URL.Path); ok {
		fault = h.faultAt(api, h.opts.Clock.Now())
	}
	if fault == None {
		h.next.ServeHTTP(w, r)
		return
	}
	breaks := fault == Malformed || fault == Truncated || fault == TruncatedChunked || fault == Huge
	if breaks {
		// A broken answer is never a 304: the client has to read it.
		r = r.Clone(r.Context())
		r.Header.Del("If-None-Match")
	}
	// Every request reaches the wrapped handler at once, whatever its
	// fault: the handler counts it, and an answer that comes late or
	// broken is the one it had when the request arrived.
	rec := httptest.NewRecorder()
	h.next.ServeHTTP(rec, r)
	got, body := rec.Result(), rec.Body.Bytes()

	switch fault {
	case Down:
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close() // the dropped connection is the fault itself
			return
		}
		panic(http.ErrAbortHandler) // HTTP/2: abort the stream instead
	case Hang:
		// Nothing is sent, not even the headers. The request's context
		// ends when the client closes the connection, or when the server
		// closes: the handler never outlives either.
		<-r.Context().Done()
		return
	case Status500:
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	case Status403:
		http.Error(w, `{"Error": "key revoked"}`, http.StatusForbidden)
		return
	case Slow:
		select {
		case <-r.Context().Done():
			return
		case <-h.opts.Clock.After(h.opts.SlowDelay):
		}
	}
	copyHeader(w.Header(), got.Header)
	// Upstream checks the key before anything can break: a refused key is
	// refused plainly.
	if !breaks || got.StatusCode == http.StatusUnauthorized || got.StatusCode == http.StatusForbidden {
		w.WriteHeader(got.StatusCode)
		_, _ = w.Write(body) // the client hung up: nothing to do
		return
	}
	// The answer is not the one its caching headers name.
	for _, k := range []string{"ETag", "Cache-Control", "Content-Length"} {
		w.Header().Del(k)
	}
	switch fault {
	case Huge:
		serveHuge(w)
	case Malformed:
		w.WriteHeader(got.StatusCode)
		_, _ = w.Write(body[:len(body)/2])
	default:
		cut(w, got.StatusCode, body, fault == Truncated)
	}
}
