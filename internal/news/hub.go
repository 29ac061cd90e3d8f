package news

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/atomicfile"
	"github.com/robohornets/robohornets/internal/clock"
)

// Snapshot is the news list at one moment.
type Snapshot struct {
	// Articles are rendered and sorted newest first.
	Articles []Article `json:"articles"`
	// AsOf is when the store last confirmed the list; zero before it ever did.
	AsOf time.Time `json:"asOf"`
	// Live is false while the list comes from the disk cache, before the
	// store has answered or while it is unreachable.
	Live bool `json:"live"`
	// Version counts the changes the hub has seen; it changes with the list.
	Version uint64 `json:"-"`
}

// Article returns the article with id, if the snapshot has it.
func (s Snapshot) Article(id string) (Article, bool) {
	for _, a := range s.Articles {
		if a.ID == id {
			return a, true
		}
	}
	return Article{}, false
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
	subs    map[chan struct{}]struct{}
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
	h := &Hub{opts: opts, subs: make(map[chan struct{}]struct{}), status: errors.New("connecting")}
	if cached, err := readCache(opts.CacheFile); err != nil {
		opts.Logger.Warn("news: ignoring unreadable cache", "file", opts.CacheFile, "err", err)
	} else {
		h.current = cached
	}
	if h.current.Articles == nil {
		h.current.Articles = []Article{} // JSON readers get [], never null
	}
	return h
}

// Run watches the store until ctx ends, retrying with growing waits when it
// fails. The last good list stays available meanwhile.
func (h *Hub) Run(ctx context.Context) error {
	wait := time.Second
	for {
		err := h.opts.Store.Watch(ctx, h.publish)
		if ctx.Err() != nil {
			return ctx.Err()
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
		h.current.Live = false
		h.current.Version++
		h.notifyLocked()
	}
}

// publish takes a new list from the store.
func (h *Hub) publish(list []Article) {
	out := make([]Article, 0, len(list))
	for _, a := range list {
		r, err := rendered(a)
		if err != nil {
			h.opts.Logger.Warn("news: skipping article", "id", a.ID, "err", err)
			continue
		}
		out = append(out, r)
	}
	SortNewestFirst(out)
	h.mu.Lock()
	changed := !h.current.Live || !reflect.DeepEqual(out, h.current.Articles)
	h.current = Snapshot{Articles: out, AsOf: h.opts.Clock.Now(), Live: true, Version: h.current.Version}
	h.status = nil
	if changed {
		h.current.Version++
		h.notifyLocked()
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

func (h *Hub) notifyLocked() {
	for ch := range h.subs {
		select {
		case ch <- struct{}{}:
		default: // already told; it will read the latest snapshot anyway
		}
	}
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
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.subs, ch)
			h.mu.Unlock()
		})
	}
}

// Subscribers returns the number of open subscriptions.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

type cacheFile struct {
	Articles []Article `json:"articles"`
	AsOf     time.Time `json:"asOf"`
}

func readCache(path string) (Snapshot, error) {
	if path == "" {
		return Snapshot{}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Snapshot{}, nil
	}
	if err != nil {
		return Snapshot{}, err
	}
	var c cacheFile
	if err := json.Unmarshal(data, &c); err != nil {
		return Snapshot{}, fmt.Errorf("decode %s: %w", path, err)
	}
	return Snapshot{Articles: c.Articles, AsOf: c.AsOf}, nil
}

func writeCache(path string, s Snapshot) error {
	if path == "" {
		return nil
	}
	data, err := json.Marshal(cacheFile{Articles: s.Articles, AsOf: s.AsOf})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data)
}
