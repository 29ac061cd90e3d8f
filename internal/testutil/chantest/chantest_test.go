package chantest

import (
	"testing"
	"time"
)

func TestReceive(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Receive(t, ch, "a number", time.Second); got != 7 {
		t.Errorf("Receive = %d, want 7", got)
	}
}

func TestUntilChecksAfterEachSignal(t *testing.T) {
	changed := make(chan struct{}, 3)
	for range 3 {
		changed <- struct{}{}
	}
	checks := 0
	Until(t, changed, 10*time.Second, func() bool {
		checks++
		return checks == 3
	}, func() string { return "ok never held" })
	// Once at first, then once after each signal until it held.
	if checks != 3 || len(changed) != 1 {
		t.Errorf("ok checked %d times over %d signals, want 3 over 2", checks, 3-len(changed))
	}
}

func TestUntilHoldingAtOnceDoesNotWait(t *testing.T) {
	var never chan struct{}
	Until(t, never, time.Hour, func() bool { return true }, func() string { return "unreachable" })
}
