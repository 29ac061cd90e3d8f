package clock

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// The tests run in a synctest bubble: the real clock (Real) is the bubble's
// fake time, which moves only when every goroutine of the bubble waits.

// lateClock is Real whose waits end late by the durations of late, one
// per wait, as a busy machine wakes a sleeper late.
type lateClock struct {
	Real
	late []time.Duration
}

func (c *lateClock) After(d time.Duration) <-chan time.Time {
	if len(c.late) > 0 {
		d += c.late[0]
		c.late = c.late[1:]
	}
	return time.After(d)
}

func TestSecondsAlignsToWallClockSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The bubble starts on a whole second: move to 300 ms past it.
		time.Sleep(300 * time.Millisecond)
		begin := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// The second wait wakes 100 ms late: that tick is late, and the
		// ones after it are back on the boundaries.
		ticks := Seconds(ctx, &lateClock{late: []time.Duration{0, 100 * time.Millisecond}})
		for i, want := range []time.Duration{700 * time.Millisecond, 1800 * time.Millisecond, 2700 * time.Millisecond, 3700 * time.Millisecond} {
			if got := (<-ticks).Sub(begin); got != want {
				t.Fatalf("tick %d came %v after the start, want %v", i, got, want)
			}
		}
		// A slow reader: the ticks of 4.7 s and 5.7 s come while it sleeps;
		// the channel holds the first, the second is dropped, and no tick
		// is late.
		time.Sleep(2100 * time.Millisecond)
		for i, want := range []time.Duration{4700 * time.Millisecond, 6700 * time.Millisecond} {
			if got := (<-ticks).Sub(begin); got != want {
				t.Fatalf("tick %d after a slow read came %v after the start, want %v", i, got, want)
			}
		}
	})
}

func TestSecondsClosesWhenContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		ticks := Seconds(ctx, Real{})
		synctest.Wait() // Seconds waits for the next second
		cancel()
		if _, ok := <-ticks; ok {
			t.Fatal("tick after cancel; want closed channel")
		}
	})
}
