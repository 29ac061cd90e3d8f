// Package chantest receives from channels in tests, and waits on change
// signals for a condition, with a bound on the wait so that a stuck sender
// fails the test instead of hanging it.
package chantest

import (
	"testing"
	"time"
)

// Receive returns the next value from ch. It fails the test, naming what
// it waited for, when ch is closed or nothing comes within timeout.
func Receive[T any](t testing.TB, ch <-chan T, what string, timeout time.Duration) T {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case v, ok := <-ch:
		if !ok {
			t.Fatalf("no %s: the channel was closed", what)
		}
		return v
	case <-timer.C:
		t.Fatalf("no %s within %v", what, timeout)
	}
	var zero T
	return zero
}

// Until waits until ok holds: it checks ok now and again after each value
// from changed (a change signal), and returns how long that took. When
// timeout passes first it fails the test with the sentence failure gives
// then (what it waited for, and what it has).
func Until[T any](t testing.TB, changed <-chan T, timeout time.Duration, ok func() bool, failure func() string) time.Duration {
	t.Helper()
	start := time.Now()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for !ok() {
		select {
		case <-changed:
		case <-timer.C:
			t.Fatalf("%s (waited %v)", failure(), timeout)
		}
	}
	return time.Since(start)
}
