// Package clock gives the program its notion of time. Everything that needs
// the time takes a Clock, so tests drive time without sleeping: Real in a
// testing/synctest bubble, or a Fake where real sockets are involved.
package clock

import (
	"context"
	"time"
)

// Clock tells the time and waits.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// After returns a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// Real is the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (Real) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Seconds sends the time on the returned channel at every whole wall-clock
// second until ctx ends, when the channel is closed. Each wait is scheduled
// against the next second boundary rather than a fixed one-second sleep, so
// the ticks never drift. A slow reader misses ticks; it never delays them.
func Seconds(ctx context.Context, c Clock) <-chan time.Time {
	out := make(chan time.Time, 1)
	go func() {
		defer close(out)
		for {
			now := c.Now()
			next := now.Truncate(time.Second).Add(time.Second)
			select {
			case <-ctx.Done():
				return
			case <-c.After(next.Sub(now)):
			}
			select {
			case out <- c.Now():
			default:
			}
		}
	}()
	return out
}
