package rewatch

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/testutil/watchtest"
)

func TestLoopWaitsLongerThroughAnOutageAndAfreshAfterALiveSpell(t *testing.T) {
	// Run waits on the real clock in a bubble, whose time moves only when
	// every goroutine waits.
	synctest.Test(t, func(t *testing.T) {
		script := watchtest.New[int]()
		down, gone := errors.New("network is down"), errors.New("gone, back at once")
		var told []time.Duration
		besideEnded := false
		loop := Loop{
			Clock:   clock.Real{},
			MaxWait: 4 * time.Second,
			Watch: func(ctx context.Context, delivered func()) error {
				return script.Watch(ctx, func(int) { delivered() })
			},
			Failed: func(err error, wait time.Duration) bool {
				told = append(told, wait)
				return err == gone
			},
			Beside: func(ctx context.Context) {
				<-ctx.Done()
				besideEnded = true
			},
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- loop.Run(ctx) }()
		<-script.Watches

		// The waits double up to the most, and a failure retried at once
		// changes nothing of them.
		for _, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second} {
			script.FailAndWantRetry(t, down, wait, nil)
		}
		script.FailAndWantRetry(t, gone, 0, nil)
		script.FailAndWantRetry(t, down, 4*time.Second, nil)
		// A watch that delivered starts the waits over.
		script.Values <- 1
		script.FailAndWantRetry(t, down, time.Second, nil)
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("Run = %v, want context.Canceled", err)
		}
		if !besideEnded {
			t.Error("Run returned before Beside")
		}
		// Failed is told each wait, that of a retry at once too.
		want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second, time.Second}
		if !slices.Equal(told, want) {
			t.Errorf("Failed was told the waits %v, want %v", told, want)
		}
	})
}
