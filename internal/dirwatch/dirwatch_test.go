package dirwatch_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/dirwatch"
	"github.com/robohornets/robohornets/internal/testutil/chantest"
)

// TestWatch: a call at once, one for a burst of writes, and the error of a
// call ends the watch.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	calls := make(chan int, 10)
	stop := errors.New("enough")
	n := 0
	done := make(chan error, 1)
	go func() {
		done <- dirwatch.Watch(context.Background(), dir, func() error {
			n++
			calls <- n
			if n == 3 {
				return stop
			}
			return nil
		})
	}()
	if c := chantest.Receive(t, calls, "call", 5*time.Second); c != 1 {
		t.Fatalf("call %d first", c)
	}
	// A burst of three writes, a dot file among them: one call.
	for _, name := range []string{"a.md", ".a.md.tmp", "b.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if c := chantest.Receive(t, calls, "call", 5*time.Second); c != 2 {
		t.Fatalf("call %d after the burst", c)
	}
	if err := os.Remove(filepath.Join(dir, "a.md")); err != nil {
		t.Fatal(err)
	}
	if c := chantest.Receive(t, calls, "call", 5*time.Second); c != 3 {
		t.Fatalf("call %d after the removal", c)
	}
	if err := <-done; !errors.Is(err, stop) {
		t.Errorf("Watch returned %v, want the call's error", err)
	}
	if len(calls) != 0 {
		t.Errorf("%d calls more than the changes", len(calls))
	}
}

func TestWatchMissingDir(t *testing.T) {
	err := dirwatch.Watch(context.Background(), filepath.Join(t.TempDir(), "nope"), func() error { return nil })
	if err == nil {
		t.Fatal("watching a missing directory did not fail")
	}
}
