// Package frcevent holds event-day data for the pit display: clients of FRC
// Nexus and The Blue Alliance, the hub that polls them once per process,
// takes the Nexus webhook, keeps the last good answers across restarts and
// fans the merged board out to every screen. What the answers mean, the
// board itself, is worked out by package board, which does no I/O.
package frcevent

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/fanout"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// Hub polls Nexus and TBA once for the whole process, merges their answers
// into one Status and fans it out to any number of subscribers. A
// subscriber is only told that something changed and then reads the latest
// Status, so a slow one never blocks the others.
type Hub struct {
	opts        Options
	nexus       *nexusClient // nil when Nexus is off
	tba         *tbaClient   // nil when TBA is off
	discovering bool         // EventKey was "": Run looks for the event first

	randMu sync.Mutex
	rand   *rand.Rand

	// eventsMu is held through a request of our events of a year, which
	// both the search for today's event and the season's polls make:
	// eventsAsk is the last, which the other reuses within tbaFloor.
	eventsMu  sync.Mutex
	eventsAsk teamEventsAnswer

	mu   sync.Mutex
	up   board.Upstream
	errs map[frcapi.Endpoint]error // last result of each endpoint asked so far
	// webhookSeen is set once a webhook brought data, which makes Nexus
	// live even without a key to poll it, for webhookStaleAfter after each push.
	webhookSeen bool
	// pushed receives a value after each push applied; it holds at most one.
	pushed  chan struct{}
	current board.Status
	content []byte // current encoded without its AsOf times, to spot changes
	body    []byte // current encoded, shared by every viewer
	version uint64
	changed fanout.Signal

	cacheMu        sync.Mutex // orders cache writes
	written        uint64     // version last written to the cache
	writtenAt      time.Time
	writtenContent []byte
}

// NewHub returns a hub showing the cached data, if any, with its age, until
// Run has news from upstream. The cached data is merged afresh: what it
// shows of Nexus is only shown as live while it is recent.
func NewHub(opts Options) *Hub {
	opts = opts.withDefaults()
	h := &Hub{opts: opts, rand: opts.Rand, errs: make(map[frcapi.Endpoint]error), pushed: make(chan struct{}, 1)}
	if !opts.Disabled && (opts.NexusKey != "" || opts.Keyless) {
		h.nexus = &nexusClient{base: strings.TrimSuffix(opts.NexusURL, "/"), key: opts.NexusKey, http: opts.HTTPClient, timeout: requestTimeout}
	}
	if !opts.Disabled && (opts.TBAKey != "" || opts.Keyless) {
		h.tba = &tbaClient{base: strings.TrimSuffix(opts.TBAURL, "/"), key: opts.TBAKey, http: opts.HTTPClient, timeout: requestTimeout}
	}
	h.up = board.Upstream{Team: opts.Team, EventKey: opts.EventKey, NexusEventKey: opts.NexusEventKey, Configured: opts.EventKey != ""}
	switch {
	case opts.Disabled:
		h.up.Configured, h.up.Message = false, "Event data is off (--event off)"
	case opts.EventKey == "" && h.tba == nil:
		h.up.Message = "No event set: start with --event KEY, or give a TBA key to find today's event"
	case opts.EventKey == "":
		h.discovering = true
		h.up.Message = "Looking for today's event of team " + strconv.Itoa(opts.Team)
	}
	if !opts.Disabled {
		h.loadCache()
	}
	// No other goroutine knows h yet. The cached data decoded from JSON, so
	// it encodes again: this first publish always sets a body.
	h.up.Nexus.Health, h.up.TBA.Health = h.healthOf(frcapi.Nexus, h.nexus != nil), h.healthOf(frcapi.TBA, h.tba != nil)
	h.publishLocked()
	return h
}

// Run polls upstream until ctx ends, and returns ctx's error. Nexus is
// asked about every 30 s, each TBA endpoint at most once per 61 s; failures
// back off with jitter up to 5 min. Without Options.EventKey it first looks
// for today's event on TBA, polling the event the cache names meanwhile.
// Our season on TBA is asked every 30 min, with an event or without.
// Run must be called at most once.
func (h *Hub) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	if !h.opts.Disabled && h.nexus == nil {
		wg.Go(func() { h.expirePushes(ctx) })
	}
	h.mu.Lock()
	configured, eventKey, nexusKey := h.up.Configured, h.up.EventKey, h.up.NexusEventKey
	h.mu.Unlock()
	stop := func() {}
	if configured {
		// The event given, or the one the cache names while the search for
		// today's runs: it is asked about at once either way.
		stop = h.startPolls(ctx, eventKey, nexusKey)
	}
	if h.discovering {
		h.discover(ctx, &stop)
	}
	<-ctx.Done()
	stop()
	wg.Wait()
	return ctx.Err()
}

// startPolls polls one event's endpoints until ctx ends or stop is called;
// stop returns once the polls have stopped and stored their last answer.
func (h *Hub) startPolls(ctx context.Context, eventKey, nexusKey string) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if h.nexus != nil {
		wg.Go(func() { h.pollLoop(ctx, h.nexusPolls(nexusKey)) })
	}
	if h.tba != nil {
		// The season goes with the event's polls: one loop, one request
		// at a time.
		wg.Go(func() { h.pollLoop(ctx, append(h.tbaPolls(eventKey), h.seasonPolls()...)) })
	}
	return func() { cancel(); wg.Wait() }
}

// startSeasonPolls polls our season alone, while no event is polled (the
// search for today's event found none yet), until ctx ends or stop is
// called; stop returns once the polls have stopped.
func (h *Hub) startSeasonPolls(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { h.pollLoop(ctx, h.seasonPolls()) })
	return func() { cancel(); wg.Wait() }
}

// record takes the result of one request: the error, if any, sets the
// source's health, and a good answer is stored.
func (h *Hub) record(endpoint frcapi.Endpoint, err error, store func(*board.Upstream)) {
	h.mu.Lock()
	prev, asked := h.errs[endpoint]
	h.mu.Unlock()
	switch {
	case err != nil && (!asked || prev == nil || prev.Error() != err.Error()):
		h.opts.Logger.Warn("event: upstream request failed; showing the last good data", "endpoint", endpoint.String(), "state", stateOf(err), "err", err)
	case err != nil:
		h.opts.Logger.Debug("event: upstream request failed again", "endpoint", endpoint.String(), "err", err)
	case asked && prev != nil:
		h.opts.Logger.Info("event: upstream answers again", "endpoint", endpoint.String())
	}
	h.apply(func(up *board.Upstream) {
		h.errs[endpoint] = err
		if err == nil && store != nil {
			store(up)
		}
	})
}

// apply changes the upstream data, merges it and publishes the result.
func (h *Hub) apply(change func(up *board.Upstream)) {
	func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		change(&h.up)
		h.up.Nexus.Health = h.healthOf(frcapi.Nexus, h.nexus != nil)
		h.up.TBA.Health = h.healthOf(frcapi.TBA, h.tba != nil)
		h.publishLocked()
	}()
	h.persist()
}

// Current returns the latest Status. Its slices must not be modified.
func (h *Hub) Current() board.Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.current
}

// JSON returns the latest Status encoded, the same bytes for every caller
// until it changes, and a version that changes with them. The bytes must
// not be modified.
func (h *Hub) JSON() (body []byte, version uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.body, h.version
}

// Subscribe returns a channel that receives a value after every change of
// what the page shows, and a function that ends the subscription. The
// channel holds at most one value.
func (h *Hub) Subscribe() (<-chan struct{}, func()) {
	return h.changed.Subscribe()
}
