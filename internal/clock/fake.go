package clock

import (
	"sort"
	"sync"
	"time"
)

// Fake is a Clock that moves only when told to. It is safe for concurrent use.
//
// Only tests whose code under test talks over real sockets use it (the
// server's streams, the event hub against its replay server): a
// testing/synctest bubble cannot hold those. Every other test runs Real
// in a synctest bubble. BlockUntilWaiters counts every pending After,
// abandoned ones too: a test must wait for waiters it knows are live.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	added   chan struct{}
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// NewFake returns a Fake clock showing now.
func NewFake(now time.Time) *Fake {
	return &Fake{now: now, added: make(chan struct{}, 1)}
}

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// After returns a channel that receives the fake time once Advance has moved
// it by d or more.
func (f *Fake) After(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- f.now
		return ch
	}
	f.waiters = append(f.waiters, waiter{at: f.now.Add(d), ch: ch})
	select {
	case f.added <- struct{}{}:
	default:
	}
	return ch
}

// Advance moves the fake time forward by d and fires every waiter that is due.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	sort.Slice(f.waiters, func(i, j int) bool { return f.waiters[i].at.Before(f.waiters[j].at) })
	kept := f.waiters[:0]
	for _, w := range f.waiters {
		if w.at.After(f.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- f.now
	}
	f.waiters = kept
}

// BlockUntilWaiters waits until at least n calls to After are pending, so a
// test can advance time knowing the code under test is already waiting.
func (f *Fake) BlockUntilWaiters(n int) {
	for {
		f.mu.Lock()
		pending := len(f.waiters)
		f.mu.Unlock()
		if pending >= n {
			return
		}
		<-f.added
	}
}
