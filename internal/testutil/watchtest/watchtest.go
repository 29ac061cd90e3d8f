// Package watchtest scripts a store's Watch for the tests of what follows
// one (the news and notice hubs): the test sends what the store delivers,
// makes the watch fail, and sees each time it is watched again.
package watchtest

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// Script is a scripted watch of values of type T.
type Script[T any] struct {
	// Values takes what the watch delivers; it takes the next value only
	// once the watch's callback has returned for the last.
	Values chan T
	// Fail takes the error that ends the watch.
	Fail chan error
	// Watches receives a value each time a watch starts.
	Watches chan struct{}
}

// New returns a Script that nothing has watched yet.
func New[T any]() *Script[T] {
	return &Script[T]{Values: make(chan T), Fail: make(chan error), Watches: make(chan struct{}, 8)}
}

// Watch calls fn with each value sent on Values until ctx ends or an error
// is sent on Fail, and returns that error.
func (s *Script[T]) Watch(ctx context.Context, fn func(T)) error {
	s.Watches <- struct{}{}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-s.Fail:
			return err
		case v := <-s.Values:
			fn(v)
		}
	}
}

// FailAndWantRetry ends the watch with err and checks, in a synctest bubble,
// that it is watched again after wait and not sooner (at once for a zero
// wait). A millisecond before wait, it calls meanwhile, when not nil, for the
// test's own checks while the store is down.
func (s *Script[T]) FailAndWantRetry(t testing.TB, err error, wait time.Duration, meanwhile func()) {
	t.Helper()
	s.Fail <- err
	if wait > 0 {
		time.Sleep(wait - time.Millisecond)
		synctest.Wait()
		select {
		case <-s.Watches:
			t.Fatalf("watched again before %v after %v", wait, err)
		default:
		}
		if meanwhile != nil {
			meanwhile()
		}
		time.Sleep(time.Millisecond)
	}
	synctest.Wait()
	select {
	case <-s.Watches:
	default:
		t.Fatalf("did not watch again %v after %v", wait, err)
	}
}
