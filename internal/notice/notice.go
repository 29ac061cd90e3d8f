// Package notice follows the pit notice, the short line with an expiry that
// editors set in the team console ("Pit closed for inspection"), and hands
// it to every open screen: one Hub per process watches the notice's
// document in the docstore and fans each change out to the site's streams
// and the desktop window, and takes the notice down by itself at its expiry.
package notice

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/fanout"
	"github.com/robohornets/robohornets/internal/rewatch"
)

// Where the pit notice lives: the one document ID of Collection. The
// console writes it; the hub of every process watches it.
const (
	Collection = "Notices"
	ID         = "pit"
)

// Notice is the pit notice: a short line shown on the pit display and the
// site's banner until it expires (GET /api/notice, its stream, and the
// console's PUT /admin/api/notice). An empty text means no notice.
type Notice struct {
	Text  string    `json:"text"`
	Until time.Time `json:"until"`
	By    string    `json:"by"`
	At    time.Time `json:"at"`
}

// InForce reports whether the notice is up at now: it has a text and has
// not reached its end.
func (n Notice) InForce(now time.Time) bool { return n.Text != "" && n.Until.After(now) }

// Options configures a Hub.
type Options struct {
	// DB holds the notice; nil means a hub that never has one (Run returns
	// at once).
	DB docstore.DB
	// Clock tells the time; nil means clock.Real.
	Clock clock.Clock
	// Logger receives store errors; nil means slog.Default().
	Logger *slog.Logger
	// RetryMax caps the wait between two attempts to watch a failed store;
	// zero means one minute.
	RetryMax time.Duration
}

// Hub holds the pit notice in force and tells its subscribers of every
// change. A subscriber is only woken and then reads Current or JSON, so a
// slow one never blocks the others.
type Hub struct {
	opts Options

	mu sync.Mutex
	// stored is the last good notice read from the store, expired or not.
	stored Notice
	// current is the notice in force: stored until its expiry, then empty.
	current Notice
	// json is current encoded, once per change, for every viewer.
	json    []byte
	changed fanout.Signal
	// rearm wakes the expiry timer after each change of the stored notice.
	rearm chan struct{}
}

// NewHub returns a hub with no notice until Run reads one.
func NewHub(opts Options) *Hub {
	opts.Clock = cmp.Or[clock.Clock](opts.Clock, clock.Real{})
	opts.Logger = cmp.Or(opts.Logger, slog.Default())
	opts.RetryMax = cmp.Or(opts.RetryMax, time.Minute)
	return &Hub{opts: opts, json: encode(Notice{}), rearm: make(chan struct{}, 1)}
}

// encode is the JSON of a notice, which always encodes.
func encode(n Notice) []byte {
	data, err := json.Marshal(n)
	if err != nil {
		panic(fmt.Sprintf("notice: encode: %v", err)) // a programmer error: Notice always encodes
	}
	return data
}

// Current returns the notice in force; its Text is "" when there is none.
func (h *Hub) Current() Notice {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.current
}

// JSON returns Current encoded; the bytes are shared and must not be modified.
func (h *Hub) JSON() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.json
}

// Subscribe returns a channel that receives a value after every change, and
// a function that ends the subscription. The channel holds at most one value.
func (h *Hub) Subscribe() (<-chan struct{}, func()) {
	return h.changed.Subscribe()
}

// Run watches the notice until ctx ends, retrying with growing waits when
// the store fails; the last good notice stays up meanwhile, until its
// expiry, when the hub takes it down by itself.
func (h *Hub) Run(ctx context.Context) error {
	if h.opts.DB == nil {
		return nil
	}
	return rewatch.Loop{
		Clock:   h.opts.Clock,
		MaxWait: h.opts.RetryMax,
		Watch: func(ctx context.Context, delivered func()) error {
			return h.opts.DB.Watch(ctx, Collection, func(docs []docstore.Doc) {
				delivered()
				h.take(docs)
			})
		},
		Failed: func(err error, wait time.Duration) bool {
			if err == nil {
				err = errors.New("the watch ended")
			}
			h.opts.Logger.Error("notice: store watch failed; keeping the last notice", "err", err, "retry_in", wait)
			return false
		},
		Beside: h.runExpiry,
	}.Run(ctx)
}

// take reads the notice from the collection's documents: no document is no
// notice; a document that does not decode is logged and the last good
// notice kept.
func (h *Hub) take(docs []docstore.Doc) {
	var n Notice
	for _, d := range docs {
		if d.ID != ID {
			continue
		}
		if err := json.Unmarshal(d.JSON, &n); err != nil {
			h.opts.Logger.Warn("notice: ignoring a document that is not a notice; keeping the last one", "collection", Collection, "id", ID, "err", err)
			return
		}
	}
	// The public screens show the line and its expiry; who wrote it stays
	// in the console and its audit log.
	n.By = ""
	h.mu.Lock()
	h.stored = n
	h.refreshLocked()
	h.mu.Unlock()
	select {
	case h.rearm <- struct{}{}:
	default:
	}
}

// refreshLocked sets the notice in force from the stored one at the
// clock's now, and tells the subscribers when it changed. h.mu is held.
func (h *Hub) refreshLocked() {
	cur := h.stored
	if !cur.InForce(h.opts.Clock.Now()) {
		cur = Notice{}
	}
	if same(cur, h.current) {
		return
	}
	h.current = cur
	h.json = encode(cur)
	h.changed.Notify()
}

// same reports whether two notices say the same thing at the same times.
func same(a, b Notice) bool {
	return a.Text == b.Text && a.By == b.By && a.Until.Equal(b.Until) && a.At.Equal(b.At)
}

// maxExpiryWait bounds one wait for an expiry: a timer counts elapsed time,
// while the expiry is on the wall clock, which may be set forward meanwhile.
const maxExpiryWait = time.Minute

// runExpiry takes the notice down at its expiry until ctx ends.
func (h *Hub) runExpiry(ctx context.Context) {
	for {
		h.mu.Lock()
		var timer <-chan time.Time
		if h.current.Text != "" {
			timer = h.opts.Clock.After(min(h.current.Until.Sub(h.opts.Clock.Now()), maxExpiryWait))
		}
		h.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-h.rearm:
		case <-timer:
			h.mu.Lock()
			h.refreshLocked()
			h.mu.Unlock()
		}
	}
}
