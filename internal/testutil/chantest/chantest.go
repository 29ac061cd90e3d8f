// Package chantest receives from channels in tests, with a bound on the
// wait so that a stuck sender fails the test instead of hanging it.
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
