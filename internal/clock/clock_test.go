package clock

import (
	"context"
	"testing"
	"time"
)

func TestSecondsAlignsToWallClockSeconds(t *testing.T) {
	start := time.Date(2026, 11, 22, 12, 8, 58, 300_000_000, time.UTC)
	fake := NewFake(start)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticks := Seconds(ctx, fake)

	// 700 ms to the first boundary, then whole seconds; a late wake-up of
	// 100 ms must not push the following ticks off the boundary.
	steps := []struct {
		advance time.Duration
		want    time.Time
	}{
		{700 * time.Millisecond, time.Date(2026, 11, 22, 12, 8, 59, 0, time.UTC)},
		{1100 * time.Millisecond, time.Date(2026, 11, 22, 12, 9, 0, 100_000_000, time.UTC)},
		{900 * time.Millisecond, time.Date(2026, 11, 22, 12, 9, 1, 0, time.UTC)},
	}
	for i, s := range steps {
		fake.BlockUntilWaiters(1)
		fake.Advance(s.advance)
		got := <-ticks
		if !got.Equal(s.want) {
			t.Fatalf("tick %d = %v, want %v", i, got, s.want)
		}
	}
}

func TestSecondsClosesWhenContextEnds(t *testing.T) {
	fake := NewFake(time.Unix(0, 0))
	ctx, cancel := context.WithCancel(context.Background())
	ticks := Seconds(ctx, fake)
	fake.BlockUntilWaiters(1)
	cancel()
	if _, ok := <-ticks; ok {
		t.Fatal("tick after cancel; want closed channel")
	}
}

func TestFakeAfterFiresOnlyWhenDue(t *testing.T) {
	fake := NewFake(time.Unix(100, 0))
	ch := fake.After(2 * time.Second)
	fake.Advance(time.Second)
	select {
	case <-ch:
		t.Fatal("fired after 1s of a 2s wait")
	default:
	}
	fake.Advance(time.Second)
	if got := <-ch; !got.Equal(time.Unix(102, 0)) {
		t.Fatalf("fired at %v, want %v", got, time.Unix(102, 0))
	}
}
