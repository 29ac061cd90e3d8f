package frcevent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/fanout"
)

// Options configures a Hub. Every zero value is usable.
type Options struct {
	// Team is our team number; zero means 1209.
	Team int
	// EventKey is the TBA event key, like "2026okok"; "" means find the
	// event of today among Team's events of the year on TBA (which needs
	// TBAKey), and Configured stays false when there is none. Meanwhile an
	// event named by the cache is polled, so that a TBA that is down or
	// refuses the key never keeps Nexus from being asked.
	EventKey string
	// Disabled turns event data off (--event off): Configured is false and
	// no request is ever made.
	Disabled bool
	// NexusEventKey is the event's key on Nexus when it differs from TBA's
	// (championship divisions); "" means EventKey.
	NexusEventKey string
	// NexusURL is the base of the Nexus API; "" means DefaultNexusURL.
	NexusURL string
	// TBAURL is the base of the TBA API; "" means DefaultTBAURL.
	TBAURL string
	// NexusKey is sent as the Nexus-Api-Key header; "" turns Nexus off: no
	// request, its Source is "off".
	NexusKey string
	// TBAKey is sent as the X-TBA-Auth-Key header; "" turns TBA off like
	// NexusKey does Nexus.
	TBAKey string
	// CacheFile keeps the last good data across restarts, like
	// "DATA/cache/event.json"; its directory is created. "" means no cache.
	CacheFile string
	// Clock tells the time and paces the polls; nil means clock.Real.
	Clock clock.Clock
	// Logger receives upstream errors; nil means slog.Default().
	Logger *slog.Logger
	// HTTPClient makes the requests, each bounded to 10 s by the hub; nil
	// means a new http.Client.
	HTTPClient *http.Client
	// Rand jitters the retry waits; nil means a randomly seeded source.
	Rand *rand.Rand
}

// The pace of the polls. TBA asks for at most one request per endpoint per
// max-age (61 s); a refused source is asked at maxBackoff, the slowest pace.
const (
	nexusEvery      = 30 * time.Second
	nexusPitsEvery  = 5 * time.Minute
	tbaFloor        = 61 * time.Second
	tbaStatusEvery  = tbaFloor
	tbaMatchesEvery = tbaFloor
	tbaRankEvery    = 2 * time.Minute
	tbaAPIEvery     = 2 * time.Minute
	tbaEventEvery   = 10 * time.Minute
	discoverEvery   = 10 * time.Minute
	maxBackoff      = 5 * time.Minute
)

const (
	// maxAhead is how far past our clock a Nexus dataAsOfTime may be, for
	// clocks that disagree a little. Data from further ahead is refused:
	// kept, it would make every later answer look older and lock Nexus out.
	maxAhead = 5 * time.Minute
	// webhookStaleAfter is how long a push keeps Nexus live when no key
	// polls it. Nexus pushes on every change, and while matches run a match
	// changes state every minute or two; ten minutes of silence is a break
	// or a dead webhook, and TBA's schedule then stands in.
	webhookStaleAfter = 10 * time.Minute
)

// The endpoints, as named in logs and in the hub's error table.
const (
	epNexusEvent    = "nexus event"
	epNexusPits     = "nexus pits"
	epTBAStatus     = "tba team status"
	epTBAMatches    = "tba matches"
	epTBAEvent      = "tba event"
	epTBARankings   = "tba rankings"
	epTBAAPIStatus  = "tba status"
	epTBATeamEvents = "tba team events"
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

	mu   sync.Mutex
	up   upstream
	errs map[string]error // last result of each endpoint asked so far
	// webhookSeen is set once a webhook brought data, which makes Nexus
	// live even without a key to poll it, for webhookStaleAfter after each push.
	webhookSeen bool
	// pushed receives a value after each push applied; it holds at most one.
	pushed  chan struct{}
	current Status
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
	if opts.Team == 0 {
		opts.Team = 1209
	}
	if opts.NexusEventKey == "" {
		opts.NexusEventKey = opts.EventKey
	}
	if opts.NexusURL == "" {
		opts.NexusURL = DefaultNexusURL
	}
	if opts.TBAURL == "" {
		opts.TBAURL = DefaultTBAURL
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	h := &Hub{opts: opts, rand: opts.Rand, errs: make(map[string]error), pushed: make(chan struct{}, 1)}
	if !opts.Disabled && opts.NexusKey != "" {
		h.nexus = &nexusClient{base: strings.TrimSuffix(opts.NexusURL, "/"), key: opts.NexusKey, http: opts.HTTPClient, timeout: requestTimeout}
	}
	if !opts.Disabled && opts.TBAKey != "" {
		h.tba = &tbaClient{base: strings.TrimSuffix(opts.TBAURL, "/"), key: opts.TBAKey, http: opts.HTTPClient, timeout: requestTimeout}
	}
	h.up = upstream{Team: opts.Team, EventKey: opts.EventKey, NexusEventKey: opts.NexusEventKey, Configured: opts.EventKey != ""}
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
	h.up.Nexus.Health, h.up.TBA.Health = h.healthOf("Nexus", h.nexus != nil), h.healthOf("TBA", h.tba != nil)
	h.publishLocked()
	return h
}

// Run polls upstream until ctx ends, and returns ctx's error. Nexus is
// asked about every 30 s, each TBA endpoint at most once per 61 s; failures
// back off with jitter up to 5 min. Without Options.EventKey it first looks
// for today's event on TBA, polling the event the cache names meanwhile.
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
		wg.Go(func() { h.pollLoop(ctx, h.tbaPolls(eventKey)) })
	}
	return func() { cancel(); wg.Wait() }
}

// expirePushes publishes again when the last push of the webhook grows
// stale, so that TBA stands in for a silent Nexus even when no other answer
// would merge again.
func (h *Hub) expirePushes(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.pushed:
		}
		for {
			h.mu.Lock()
			wait := h.up.Nexus.LastGood.Add(webhookStaleAfter).Sub(h.opts.Clock.Now())
			h.mu.Unlock()
			if wait <= 0 {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-h.opts.Clock.After(wait):
			}
		}
		h.apply(func(*upstream) {})
	}
}

// poll is one endpoint asked again and again.
type poll struct {
	endpoint string
	every    time.Duration // between two good answers
	floor    time.Duration // never asked sooner than this after the last time
	// fetch asks once and returns how to store a good answer.
	fetch func(ctx context.Context) (store func(*upstream), err error)
}

func (h *Hub) nexusPolls(key string) []*poll {
	return []*poll{
		{endpoint: epNexusEvent, every: nexusEvery, fetch: func(ctx context.Context) (func(*upstream), error) {
			ev, err := h.nexus.event(ctx, key)
			if err == nil && h.fromTheFuture(ev) {
				err = &sourceError{StateUnreachable, fmt.Errorf("event: nexus event %s: dataAsOfTime %s is more than %v ahead of our clock", key, ev.DataAsOf.Format(time.RFC3339), maxAhead)}
			}
			return func(up *upstream) { h.storeNexusEvent(up, ev, false) }, err
		}},
		{endpoint: epNexusPits, every: nexusPitsEvery, fetch: func(ctx context.Context) (func(*upstream), error) {
			pits, err := h.nexus.pits(ctx, key)
			return func(up *upstream) {
				// As with TBA's lists: a pit address does not vanish.
				if pits != nil && (len(pits) > 0 || len(up.Nexus.Pits) == 0) {
					up.Nexus.Pits = pits
				}
			}, err
		}},
	}
}

// storeNexusEvent keeps ev unless newer data is already there (a webhook
// can be ahead of a poll), and reports whether it kept it. A poll with the
// same dataAsOfTime is kept, as it confirms; a webhook must be newer. Data
// held from the future (a cache of before that was refused) never counts
// as newer. Callers refuse an ev from the future themselves.
func (h *Hub) storeNexusEvent(up *upstream, ev *nexusEvent, mustBeNewer bool) bool {
	if old := up.Nexus.Event; old != nil && !h.fromTheFuture(old) &&
		(ev.DataAsOf.Before(old.DataAsOf) || mustBeNewer && !ev.DataAsOf.After(old.DataAsOf)) {
		return false
	}
	up.Nexus.Event, up.Nexus.LastGood = ev, h.opts.Clock.Now()
	return true
}

// fromTheFuture reports whether ev is dated more than maxAhead past our clock.
func (h *Hub) fromTheFuture(ev *nexusEvent) bool {
	return ev.DataAsOf.After(h.opts.Clock.Now().Add(maxAhead))
}

// tbaPolls asks TBA about one event. A null answer never replaces data
// held, nor does an empty list a full one: TBA answers so while it rebuilds
// an event (a schedule published again), and a schedule really withdrawn
// is soon followed by the new one, which replaces it.
func (h *Hub) tbaPolls(key string) []*poll {
	team := h.opts.Team
	now := func(up *upstream) { up.TBA.LastGood = h.opts.Clock.Now() }
	return []*poll{
		{endpoint: epTBAStatus, every: tbaStatusEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*upstream), error) {
			st, err := h.tba.teamStatus(ctx, team, key)
			return func(up *upstream) { up.TBA.TeamStatus = cmp.Or(st, up.TBA.TeamStatus); now(up) }, err
		}},
		{endpoint: epTBAMatches, every: tbaMatchesEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*upstream), error) {
			ms, err := h.tba.matches(ctx, team, key)
			return func(up *upstream) { up.TBA.Matches = keepFull(up.TBA.Matches, ms); now(up) }, err
		}},
		{endpoint: epTBAEvent, every: tbaEventEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*upstream), error) {
			ev, err := h.tba.event(ctx, key)
			return func(up *upstream) { up.TBA.Event = cmp.Or(ev, up.TBA.Event); now(up) }, err
		}},
		{endpoint: epTBARankings, every: tbaRankEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*upstream), error) {
			rs, err := h.tba.rankings(ctx, key)
			return func(up *upstream) { up.TBA.Rankings = keepFull(up.TBA.Rankings, rs); now(up) }, err
		}},
		{endpoint: epTBAAPIStatus, every: tbaAPIEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*upstream), error) {
			down, err := h.tba.downEvents(ctx)
			return func(up *upstream) { up.TBA.DownEvents = down; now(up) }, err
		}},
	}
}

// pollLoop asks each endpoint when it is due, one request at a time, until
// ctx ends. All are due at the start: the first round asks each in turn
// without waiting.
func (h *Hub) pollLoop(ctx context.Context, polls []*poll) {
	start := h.opts.Clock.Now()
	due := make([]time.Time, len(polls))
	failures := make([]int, len(polls))
	for i := range due {
		due[i] = start
	}
	for {
		i := 0
		for j := range due {
			if due[j].Before(due[i]) {
				i = j
			}
		}
		if wait := due[i].Sub(h.opts.Clock.Now()); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-h.opts.Clock.After(wait):
			}
		}
		started := h.opts.Clock.Now()
		store, err := polls[i].fetch(ctx)
		if ctx.Err() != nil {
			return
		}
		h.record(polls[i].endpoint, err, store)
		due[i] = started.Add(h.delay(polls[i], err, &failures[i]))
	}
}

// delay is the wait before asking p again after an answer.
func (h *Hub) delay(p *poll, err error, failures *int) time.Duration {
	var d time.Duration
	switch {
	case err == nil:
		*failures, d = 0, p.every
	case refused(err):
		// A rejected key or an unknown event stays so until someone acts:
		// ask rarely, never in a storm, and never in step with the other
		// displays that were refused together.
		*failures++
		d = refusedDelay(max(p.every, maxBackoff), h.random())
	default:
		*failures++
		d = backoff(p.every, *failures, h.random())
	}
	return max(d, p.floor)
}

// random returns a number in [0, 1) for the jitter.
func (h *Hub) random() float64 {
	h.randMu.Lock()
	defer h.randMu.Unlock()
	return h.rand.Float64()
}

// refusedDelay jitters the pace of a refused source into the top fifth of
// slowest (r in [0, 1)): 4 to 5 min for most endpoints.
func refusedDelay(slowest time.Duration, r float64) time.Duration {
	return slowest - time.Duration(r*float64(slowest/5))
}

// backoff doubles base with each failure up to maxBackoff, then jitters the
// result into its upper half (r in [0, 1)) so that many displays that lost
// the network together do not come back in step.
func backoff(base time.Duration, failures int, r float64) time.Duration {
	d := maxBackoff
	if failures < 20 {
		d = min(base<<failures, maxBackoff)
	}
	return d/2 + time.Duration(r*float64(d/2))
}

// record takes the result of one request: the error, if any, sets the
// source's health, and a good answer is stored.
func (h *Hub) record(endpoint string, err error, store func(*upstream)) {
	h.mu.Lock()
	prev, asked := h.errs[endpoint]
	h.mu.Unlock()
	switch {
	case err != nil && (!asked || prev == nil || prev.Error() != err.Error()):
		h.opts.Logger.Warn("event: upstream request failed; showing the last good data", "endpoint", endpoint, "state", stateOf(err), "err", err)
	case err != nil:
		h.opts.Logger.Debug("event: upstream request failed again", "endpoint", endpoint, "err", err)
	case asked && prev != nil:
		h.opts.Logger.Info("event: upstream answers again", "endpoint", endpoint)
	}
	h.apply(func(up *upstream) {
		h.errs[endpoint] = err
		if err == nil && store != nil {
			store(up)
		}
	})
}

// apply changes the upstream data, merges it and publishes the result.
func (h *Hub) apply(change func(up *upstream)) {
	func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		change(&h.up)
		h.up.Nexus.Health = h.healthOf("Nexus", h.nexus != nil)
		h.up.TBA.Health = h.healthOf("TBA", h.tba != nil)
		h.publishLocked()
	}()
	h.persist()
}

// healthOf sums up the last results of a source's endpoints: the worst one
// counts. Nexus's pits do not: an event without pit addresses still works.
func (h *Hub) healthOf(source string, on bool) health {
	if !on {
		switch {
		case source != "Nexus" || !h.webhookSeen:
			return health{StateOff, "No " + source + " key set"}
		case h.opts.Clock.Now().Sub(h.up.Nexus.LastGood) < webhookStaleAfter:
			return health{StateOK, "Live from the Nexus webhook"}
		}
		return health{StateUnreachable, "No news from the Nexus webhook for " + strconv.Itoa(int(webhookStaleAfter.Minutes())) + " min"}
	}
	worst, asked := StateOK, false
	for ep, err := range h.errs {
		if !strings.HasPrefix(ep, strings.ToLower(source)+" ") || ep == epNexusPits {
			continue
		}
		asked = true
		if severity(stateOf(err)) > severity(worst) {
			worst = stateOf(err)
		}
	}
	switch {
	case !asked:
		return health{StateUnreachable, "Waiting for " + source}
	case worst == StateKeyRejected:
		return health{worst, source + " key rejected"}
	case worst == StateNotFound:
		key := h.up.EventKey
		if source == "Nexus" {
			key = h.up.NexusEventKey
		}
		return health{worst, source + " does not know event " + key}
	case worst == StateUnreachable:
		return health{worst, source + " unreachable"}
	}
	return health{StateOK, "Live from " + source}
}

// severity orders the states from good to worst.
func severity(state string) int {
	switch state {
	case StateUnreachable:
		return 1
	case StateNotFound:
		return 2
	case StateKeyRejected:
		return 3
	}
	return 0
}

// publishLocked merges and, when the Status changed, encodes it once for
// every viewer. Subscribers are woken only when what the page shows
// changed: a newer AsOf alone (a source confirmed its data) updates the
// Status and the cache but does not wake every screen.
//
// A Status that does not encode (upstream sent a time JSON cannot hold)
// is logged and the previous one stays: upstream data is no programmer
// error, and must never stop the hub.
func (h *Hub) publishLocked() {
	st := merge(h.up, h.opts.Clock.Now())
	body, err := json.Marshal(st)
	if err != nil {
		h.opts.Logger.Error("event: cannot encode the merged data; showing the previous", "err", err)
		return
	}
	if h.body != nil && string(body) == string(h.body) {
		return
	}
	content := contentJSON(st)
	changed := string(content) != string(h.content)
	h.current, h.body, h.content = st, body, content
	h.version++
	if changed {
		h.changed.Notify()
	}
}

// contentJSON encodes s without its AsOf times. s encoded with them, so it
// encodes without them.
func contentJSON(s Status) []byte {
	s.AsOf, s.Nexus.AsOf, s.TBA.AsOf = time.Time{}, time.Time{}, time.Time{}
	data, _ := json.Marshal(s)
	return data
}

// Current returns the latest Status. Its slices must not be modified.
func (h *Hub) Current() Status {
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

// keepFull returns got, unless it is nil (a null answer), or empty while
// held is not.
func keepFull[T any](held, got []T) []T {
	if got == nil || len(got) == 0 && len(held) > 0 {
		return held
	}
	return got
}
