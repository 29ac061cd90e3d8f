package fanout

import "testing"

func TestSignalWakesEachSubscriberOnceAndNeverBlocks(t *testing.T) {
	var s Signal
	a, stopA := s.Subscribe()
	defer stopA()
	b, stopB := s.Subscribe()
	for range 50 {
		s.Notify() // nobody reads: must not block
	}
	for name, ch := range map[string]<-chan struct{}{"a": a, "b": b} {
		if n := len(ch); n != 1 {
			t.Fatalf("%s holds %d wake-ups after 50 notifications, want exactly 1", name, n)
		}
		<-ch
	}
	stopB()
	stopB() // twice is harmless
	s.Notify()
	if len(a) != 1 {
		t.Error("a subscriber that stayed was not woken")
	}
	if len(b) != 0 {
		t.Error("a subscription was woken after it ended")
	}
}
