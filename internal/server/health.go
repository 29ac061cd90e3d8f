package server

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

const (
	// DefaultReadyTimeout is how long /readyz waits for the store by default.
	DefaultReadyTimeout = 2 * time.Second
	// readyCacheFor is how long an answer of the store stands: a flood of
	// probes (one per load balancer, instance and second) costs the store
	// at most one read a second.
	readyCacheFor = time.Second
)

// Words of /healthz and /readyz, the same in both.
const (
	newsLive       = "live"
	newsNotLive    = "not live"
	storeAnswers   = "the store answers"
	storeUnreached = "the store is not reachable"
)

// serveHealth is liveness: the process serves, so it is 200 whatever the
// store does; what the news is like is in the body.
func (s *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	// Up or down only: the store's error (addresses, project ids) is the
	// log's to tell, not a stranger's.
	store := newsLive
	if s.opts.Hub.Status() != nil {
		store = newsNotLive
	}
	snap := s.opts.Hub.Current()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"version":   s.opts.Version,
		"commit":    s.opts.Commit,
		"built":     s.opts.Built,
		"store":     s.opts.StoreName,
		"status":    store,
		"articles":  len(snap.Articles),
		"newsAsOf":  snap.AsOf,
		"frontend":  s.assets.index != nil,
		"serverNow": s.opts.Clock.Now(),
	})
}

// eventState is the event feed's part of /readyz: reported, never a reason
// to be unready (the site serves without it, and an upstream outage is no
// fault of this process).
type eventState struct {
	Configured bool      `json:"configured"`
	Nexus      string    `json:"nexus"`
	TBA        string    `json:"tba"`
	AsOf       time.Time `json:"asOf"`
	Stale      bool      `json:"stale"`
	FeedDown   bool      `json:"feedDown"`
}

// serveReady is readiness: 200 while the store answers within
// ReadyTimeout, else 503. The news hub's and the event feed's states are
// told but do not count: the hub serves its last good news, and the event
// feed is someone else's.
func (s *Server) serveReady(w http.ResponseWriter, r *http.Request) {
	checked, err := s.ready.get(r.Context())
	status, message := http.StatusOK, storeAnswers
	if err != nil {
		// The reason (an address, a project id) is in the log, not here.
		status, message = http.StatusServiceUnavailable, storeUnreached
	}
	feed := newsLive
	if s.opts.Hub.Status() != nil {
		feed = newsNotLive
	}
	ev := s.opts.Event.Current()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, map[string]any{
		"ready":     err == nil,
		"message":   message,
		"store":     s.opts.StoreName,
		"checkedAt": checked,
		"news":      feed,
		"event": eventState{
			Configured: ev.Configured,
			Nexus:      string(ev.Nexus.State),
			TBA:        string(ev.TBA.State),
			AsOf:       ev.AsOf,
			Stale:      ev.Stale,
			FeedDown:   ev.FeedDown,
		},
	})
}

// readiness asks check at most once per readyCacheFor and shares the
// answer: concurrent probes wait for the one check under way.
type readiness struct {
	check   func(context.Context) error // nil: always ready
	timeout time.Duration
	clock   clock.Clock
	logger  *slog.Logger
	// parent ends the checks at Shutdown: a server going away is not ready.
	parent context.Context

	mu      sync.Mutex
	have    bool          // a check has ended
	at      time.Time     // when it ended
	err     error         // what it said
	running chan struct{} // closed when the check under way ends; nil when none is
}

// get returns the latest answer of the store and when it was taken,
// asking again when it is older than readyCacheFor. It returns ctx's error
// when the request ends first.
func (r *readiness) get(ctx context.Context) (time.Time, error) {
	if r.check == nil {
		return r.clock.Now(), nil
	}
	r.mu.Lock()
	if r.have && r.clock.Now().Sub(r.at) < readyCacheFor {
		at, err := r.at, r.err
		r.mu.Unlock()
		return at, err
	}
	if r.running == nil {
		r.running = make(chan struct{})
		go r.run(r.running)
	}
	done := r.running
	r.mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		return r.clock.Now(), ctx.Err()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.at, r.err
}

// run asks the store once, within the timeout, records the answer and
// closes done. A check that overruns its context is not waited for: the
// answer is the deadline's.
func (r *readiness) run(done chan struct{}) {
	ctx, cancel := context.WithTimeout(r.parent, r.timeout)
	defer cancel()
	answer := make(chan error, 1)
	go func() { answer <- r.check(ctx) }()
	var err error
	select {
	case err = <-answer:
	case <-ctx.Done():
		err = ctx.Err()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// Logged when it turns, not at every probe.
	switch {
	case err != nil && (!r.have || r.err == nil):
		r.logger.Warn("not ready: "+storeUnreached, "err", err, "timeout", r.timeout)
	case err == nil && r.have && r.err != nil:
		r.logger.Info("ready: " + storeAnswers + " again")
	}
	r.have, r.at, r.err, r.running = true, r.clock.Now(), err, nil
	close(done)
}
