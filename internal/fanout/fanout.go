// Package fanout tells any number of subscribers that something changed.
// A subscriber gets a wake-up, never the value: it then reads the latest
// value from its owner, so a slow subscriber never blocks the others and
// never sees stale values queue up. The news and event hubs share it.
package fanout

import "sync"

// Signal wakes its subscribers. The zero Signal is ready to use; it is safe
// for concurrent use.
type Signal struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
}

// Subscribe returns a channel that receives a value after every Notify, and
// a function that ends the subscription (calling it again is harmless). The
// channel holds at most one value: wake-ups a subscriber has not read yet
// merge into one.
func (s *Signal) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	if s.subs == nil {
		s.subs = make(map[chan struct{}]struct{})
	}
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.subs, ch)
			s.mu.Unlock()
		})
	}
}

// Notify wakes every subscriber without waiting for any.
func (s *Signal) Notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default: // already woken; it will read the latest value anyway
		}
	}
}
