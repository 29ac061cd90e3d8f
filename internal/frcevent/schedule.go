package frcevent

import (
	"context"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// maxBackoff is the slowest pace of any poll: a failing or refused
// endpoint is asked again at most this long after the last time.
const maxBackoff = 5 * time.Minute

// poll is one endpoint asked again and again.
type poll struct {
	endpoint frcapi.Endpoint
	every    time.Duration // between two good answers
	floor    time.Duration // never asked sooner than this after the last time
	// fetch asks once and returns how to store a good answer.
	fetch func(ctx context.Context) (store func(*board.Upstream), err error)
}

// pollLoop asks each endpoint when it is due, one request at a time, until
// ctx ends. All are due at the start: the first round asks each in turn
// without waiting. It also wakes when the data shown turns stale.
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
		now := h.opts.Clock.Now()
		wake := due[i]
		if at, ok := h.staleAt(); ok && at.After(now) && at.Before(wake) {
			wake = at
		}
		if wait := wake.Sub(now); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-h.opts.Clock.After(wait):
			}
		}
		if wake.Before(due[i]) {
			// Woken to publish that the data turned stale, so that every
			// screen says so although nothing new came to merge.
			h.apply(func(*board.Upstream) {})
			continue
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
	return max(d, p.floor) / time.Duration(h.opts.Speedup)
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
