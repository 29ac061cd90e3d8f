package clock

import (
	"testing"
	"time"
)

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
