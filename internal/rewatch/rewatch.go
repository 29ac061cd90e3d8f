// Package rewatch keeps a watch of a store going through the store's
// failures, with waits that grow through an outage and start over after a
// live spell. The news and notice hubs share it.
package rewatch

import (
	"context"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// firstWait is the wait after the first failure of an outage.
const firstWait = time.Second

// Loop watches a store again after each failure.
type Loop struct {
	// Clock times the waits.
	Clock clock.Clock
	// MaxWait caps the wait between two watches.
	MaxWait time.Duration
	// Watch is one watch of the store: it calls delivered each time the
	// store delivers, on the goroutine that runs Watch (Run reads what
	// delivered records once Watch has returned), and returns when the
	// watch ends.
	Watch func(ctx context.Context, delivered func()) error
	// Failed is called after each watch that ended before ctx did, with
	// the watch's error and the wait before the next watch; it returns
	// true to watch again at once instead, the wait unchanged.
	Failed func(err error, wait time.Duration) (now bool)
	// Beside, when not nil, runs beside the watches until Run returns: what
	// the owner does by itself meanwhile with the last value it has.
	Beside func(ctx context.Context)
}

// Run watches until ctx ends, and returns ctx's error. The wait before the
// next watch is a second at first, twice as long after each failure up to
// MaxWait, and a second again once a watch has delivered.
func (l Loop) Run(ctx context.Context) error {
	if l.Beside != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		beside := make(chan struct{})
		go func() {
			defer close(beside)
			l.Beside(ctx)
		}()
		defer func() { cancel(); <-beside }()
	}
	wait := firstWait
	for {
		live := false
		err := l.Watch(ctx, func() { live = true })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if live {
			// The store was live again since the last failure: this one
			// starts a new outage, retried soon, not at the slowest pace
			// the last one reached.
			wait = firstWait
		}
		if l.Failed(err, wait) {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-l.Clock.After(wait):
		}
		wait = min(2*wait, l.MaxWait)
	}
}
