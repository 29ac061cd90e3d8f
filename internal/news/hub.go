package news

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/atomicfile"
	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/fanout"
	"github.com/robohornets/robohornets/internal/rewatch"
)

// Snapshot is the news list at one moment. The Hub makes each one once per
// change and every viewer shares it: treat it as read-only.
type Snapshot struct {
	// Articles are rendered and sorted newest first.
	Articles []Rendered `json:"articles"`
	// AsOf is when the store last confirmed the list; zero before it ever did.
	AsOf time.Time `json:"asOf"`
	// Live is false while the list comes from the disk cache, before the
	// store has answered or while it is unreachable.
	Live bool `json:"live"`
	// Version counts the changes the hub has seen; it changes with the list.
	Version uint64 `json:"-"`
	// JSON is the snapshot encoded, made once for all viewers.
	JSON []byte `json:"-"`

	articleJSON map[string][]byte // each article encoded, by id
}

// newSnapshot sorts the articles and encodes the snapshot and each article.
func newSnapshot(articles []Rendered, asOf time.Time, live bool, version uint64) Snapshot {
	SortNewestFirst(articles)
	s := Snapshot{Articles: articles, AsOf: asOf, Live: live, Version: version, articleJSON: make(map[string][]byte, len(articles))}
	for _, a := range articles {
		s.articleJSON[a.ID] = mustJSON(a)
	}
	s.JSON = mustJSON(s)
	return s
}

// mustJSON encodes a value of this package, which always encodes.
func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("news: encode %T: %v", v, err)) // a programmer error: these types always encode
	}
	return data
}

// Article returns the article with id, if the snapshot has it.
func (s Snapshot) Article(id string) (Rendered, bool) {
	for _, a := range s.Articles {
		if a.ID == id {
			return a, true
		}
	}
	return Rendered{}, false
}

// ArticleJSON returns the encoded article with id, or nil when the snapshot
// does not have it.
func (s Snapshot) ArticleJSON(id string) []byte {
	return s.articleJSON[id]
}

// HubOptions configures a Hub.
type HubOptions struct {
	// Store is watched for changes; required.
	Store Store
	// CacheFile keeps the last good list across restarts; "" means no cache.
	CacheFile string
	// Clock tells the time; nil means clock.Real.
	Clock clock.Clock
	// Logger receives store errors; nil means slog.Default().
	Logger *slog.Logger
	// RetryMax caps the wait between two attempts to watch a failed store;
	// zero means one minute.
	RetryMax time.Duration
}

// Hub holds one live subscription to a store and fans it out to any number
// of subscribers. A subscriber is only told that something changed and then
// reads the latest snapshot, so a slow one never blocks the others and never
// sees stale lists queue up.
//
// An article dated after the clock's now is scheduled: the hub keeps it out
// of every snapshot (and so of the API, the pages, the feeds and the disk
// cache) and publishes it by itself at its date, so it appears on every open
// screen of every process at its time with nobody at the console.
type Hub struct {
	opts HubOptions

	mu      sync.Mutex
	current Snapshot
	// all is the last list of the store, rendered, scheduled articles too;
	// current holds those of them whose date has come.
	all     []Rendered
	status  error // why the store is not live, nil when it is
	changed fanout.Signal
	// rearm wakes the schedule after each list, whose earliest scheduled
	// date may have moved.
	rearm chan struct{}
	// cacheMu orders the writes of the disk cache, made by the watch and by
	// the schedule; cached is the version of the last one written.
	cacheMu sync.Mutex
	cached  uint64

	// rendered are the articles of the last list by id; only Run's goroutine
	// (and NewHub before it) touches it. An unchanged article is not
	// rendered again.
	rendered map[string]Rendered
}

// NewHub returns a hub serving the cached list, if any, until Run connects.
func NewHub(opts HubOptions) *Hub {
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.RetryMax == 0 {
		opts.RetryMax = time.Minute
	}
	h := &Hub{opts: opts, status: errors.New("connecting"), rearm: make(chan struct{}, 1)}
	cached, err := readCache(opts.CacheFile)
	if err != nil {
		opts.Logger.Warn("news: ignoring unreadable cache", "file", opts.CacheFile, "err", err)
	}
	h.all = h.renderAll(cached.Articles)
	h.current = newSnapshot(due(h.all, opts.Clock.Now()), cached.AsOf, false, 0)
	return h
}

// due returns the articles of list dated at or before now, in a new slice.
func due(list []Rendered, now time.Time) []Rendered {
	out := make([]Rendered, 0, len(list))
	for _, a := range list {
		if !a.Date.After(now) {
			out = append(out, a)
		}
	}
	return out
}

// nextDate returns the earliest date after now in list, or the zero time
// when nothing is scheduled.
func nextDate(list []Rendered, now time.Time) time.Time {
	var next time.Time
	for _, a := range list {
		if a.Date.After(now) && (next.IsZero() || a.Date.Before(next)) {
			next = a.Date
		}
	}
	return next
}

// ErrUnreachable marks an error of a store's Watch that says the store lost
// its backend, not that it failed for good: Watch, called again at once,
// waits for the backend's return without hammering it.
var ErrUnreachable = errors.New("unreachable")

// Run watches the store until ctx ends, retrying with growing waits when it
// fails, and at once when it is unreachable (ErrUnreachable). The last good
// list stays available meanwhile, no longer live. Scheduled articles are
// published at their dates meanwhile too, from the last list.
func (h *Hub) Run(ctx context.Context) error {
	return rewatch.Loop{
		Clock:   h.opts.Clock,
		MaxWait: h.opts.RetryMax,
		Watch: func(ctx context.Context, delivered func()) error {
			return h.opts.Store.Watch(ctx, func(list []Article) {
				delivered()
				h.publish(list)
			})
		},
		Failed: func(err error, wait time.Duration) bool {
			if errors.Is(err, ErrUnreachable) {
				// The store waits for its backend's return itself: a wait
				// here would only hold the news back once it is there.
				h.opts.Logger.Error("news: store unreachable; showing the last good list", "err", err)
				h.setStatus(err)
				return true
			}
			h.opts.Logger.Error("news: store watch failed; showing the last good list", "err", err, "retry_in", wait)
			h.setStatus(err)
			return false
		},
		Beside: h.runSchedule,
	}.Run(ctx)
}

// maxScheduleWait bounds one wait for a scheduled date: a timer counts
// elapsed time, while dates are on the wall clock, which may be set forward
// meanwhile (a machine that synchronises its clock late).
const maxScheduleWait = time.Minute

// runSchedule publishes each scheduled article at its date until ctx ends:
// it waits for the earliest scheduled date of the last list, and again
// after every list.
func (h *Hub) runSchedule(ctx context.Context) {
	for {
		h.mu.Lock()
		now := h.opts.Clock.Now()
		next := nextDate(h.all, now)
		h.mu.Unlock()
		var timer <-chan time.Time
		if !next.IsZero() {
			timer = h.opts.Clock.After(min(next.Sub(now), maxScheduleWait))
		}
		select {
		case <-ctx.Done():
			return
		case <-h.rearm:
		case <-timer:
			h.reveal()
		}
	}
}

// reveal publishes the scheduled articles whose date has come.
func (h *Hub) reveal() {
	h.mu.Lock()
	c := h.current
	list := due(h.all, h.opts.Clock.Now())
	changed := len(list) != len(c.Articles)
	if changed {
		h.current = newSnapshot(list, c.AsOf, c.Live, c.Version+1)
		h.changed.Notify()
	}
	snap := h.current
	h.mu.Unlock()
	if changed {
		h.writeCache(snap)
	}
}

func (h *Hub) setStatus(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.status = err
	if h.current.Live {
		c := h.current
		h.current = newSnapshot(c.Articles, c.AsOf, false, c.Version+1)
		h.changed.Notify()
	}
}

// renderAll renders a list, reusing the rendering of every article that has
// not changed since the last list, and keeps the result for the next one.
func (h *Hub) renderAll(list []Article) []Rendered {
	out := make([]Rendered, 0, len(list))
	next := make(map[string]Rendered, len(list))
	for _, a := range list {
		r, ok := h.rendered[a.ID]
		if !ok || !sameArticle(r.Article, a) {
			var err error
			if r, err = render(a); err != nil {
				h.opts.Logger.Warn("news: skipping article", "id", a.ID, "err", err)
				continue
			}
		}
		next[a.ID] = r
		out = append(out, r)
	}
	h.rendered = next
	return out
}

func sameArticle(a, b Article) bool {
	return a.ID == b.ID && a.Title == b.Title && a.Date.Equal(b.Date) && a.Content == b.Content
}

// publish takes a new list from the store.
func (h *Hub) publish(list []Article) {
	all := h.renderAll(list)
	now := h.opts.Clock.Now()
	out := due(all, now)
	h.mu.Lock()
	h.all = all
	prev := h.current
	changed := !prev.Live || !slices.EqualFunc(sorted(out), prev.Articles, func(a, b Rendered) bool { return sameArticle(a.Article, b.Article) })
	h.status = nil
	if changed {
		h.current = newSnapshot(out, now, true, prev.Version+1)
		h.changed.Notify()
	} else {
		// Same list: only the confirmation time moves, which no viewer
		// needs pushed; keep the encoded bytes of the last change.
		h.current.AsOf = now
	}
	snap := h.current
	h.mu.Unlock()
	// The schedule's next date may have moved.
	select {
	case h.rearm <- struct{}{}:
	default:
	}
	if changed {
		h.writeCache(snap)
	}
}

// writeCache keeps snap on disk unless a newer snapshot is there already.
// It runs outside h.mu, so readers never wait for the disk.
func (h *Hub) writeCache(snap Snapshot) {
	h.cacheMu.Lock()
	defer h.cacheMu.Unlock()
	if snap.Version <= h.cached {
		return
	}
	h.cached = snap.Version
	if err := writeCache(h.opts.CacheFile, snap); err != nil {
		h.opts.Logger.Warn("news: cannot write cache", "file", h.opts.CacheFile, "err", err)
	}
}

// sorted returns list in the site's order.
func sorted(list []Rendered) []Rendered {
	SortNewestFirst(list)
	return list
}

// Current returns the latest snapshot. Its slices must not be modified.
func (h *Hub) Current() Snapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.current
}

// Status returns nil while the store is live, else why it is not.
func (h *Hub) Status() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.status
}

// Subscribe returns a channel that receives a value after every change, and
// a function that ends the subscription. The channel holds at most one value.
func (h *Hub) Subscribe() (<-chan struct{}, func()) {
	return h.changed.Subscribe()
}

// cacheFile is the last good list on disk.
type cacheFile struct {
	Articles []Article `json:"articles"`
	AsOf     time.Time `json:"asOf"`
}

// readCache reads the cache file; a missing one is an empty cache.
func readCache(path string) (cacheFile, error) {
	if path == "" {
		return cacheFile{}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cacheFile{}, nil
	}
	if err != nil {
		return cacheFile{}, err
	}
	var c cacheFile
	if err := json.Unmarshal(data, &c); err != nil {
		return cacheFile{}, fmt.Errorf("decode %s: %w", path, err)
	}
	return c, nil
}

// writeCache keeps the stored fields of the list: the derived ones are
// rendered again at start, so the cache never holds stale HTML. The list is
// a snapshot's, so a scheduled article is never in it.
func writeCache(path string, s Snapshot) error {
	if path == "" {
		return nil
	}
	c := cacheFile{Articles: make([]Article, len(s.Articles)), AsOf: s.AsOf}
	for i, a := range s.Articles {
		c.Articles[i] = a.Article
	}
	return atomicfile.WriteAll(path, mustJSON(c))
}
