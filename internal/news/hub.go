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
type Hub struct {
	opts HubOptions

	mu      sync.Mutex
	current Snapshot
	status  error // why the store is not live, nil when it is
	changed fanout.Signal

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
	h := &Hub{opts: opts, status: errors.New("connecting")}
	cached, err := readCache(opts.CacheFile)
	if err != nil {
		opts.Logger.Warn("news: ignoring unreadable cache", "file", opts.CacheFile, "err", err)
	}
	h.current = newSnapshot(h.renderAll(cached.Articles), cached.AsOf, false, 0)
	return h
}

// ErrUnreachable marks an error of a store's Watch that says the store lost
// its backend, not that it failed for good: Watch, called again at once,
// waits for the backend's return without hammering it.
var ErrUnreachable = errors.New("unreachable")

// Run watches the store until ctx ends, retrying with growing waits when it
// fails, and at once when it is unreachable (ErrUnreachable). The last good
// list stays available meanwhile, no longer live.
func (h *Hub) Run(ctx context.Context) error {
	wait := time.Second
	for {
		live := false
		err := h.opts.Store.Watch(ctx, func(list []Article) {
			live = true // Watch calls back on this goroutine
			h.publish(list)
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if live {
			// The store was live again since the last failure: this one
			// starts a new outage, retried soon, not at the slowest pace
			// the last one reached.
			wait = time.Second
		}
		if errors.Is(err, ErrUnreachable) {
			// The store waits for its backend's return itself: a wait
			// here would only hold the news back once it is there.
			h.opts.Logger.Error("news: store unreachable; showing the last good list", "err", err)
			h.setStatus(err)
			continue
		}
		h.opts.Logger.Error("news: store watch failed; showing the last good list", "err", err, "retry_in", wait)
		h.setStatus(err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-h.opts.Clock.After(wait):
		}
		wait = min(2*wait, h.opts.RetryMax)
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
	out := h.renderAll(list)
	now := h.opts.Clock.Now()
	h.mu.Lock()
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
	// The cache is written outside the lock so readers never wait for the
	// disk; publish runs on the one watching goroutine, so writes stay in order.
	if changed {
		if err := writeCache(h.opts.CacheFile, snap); err != nil {
			h.opts.Logger.Warn("news: cannot write cache", "file", h.opts.CacheFile, "err", err)
		}
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
// rendered again at start, so the cache never holds stale HTML.
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
