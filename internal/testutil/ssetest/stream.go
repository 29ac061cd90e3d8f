package ssetest

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// Stream is a live event stream read in the background until the test
// ends or Close is called.
type Stream struct {
	// Response is the stream's response; its body is read by the Stream.
	Response *http.Response

	events chan Event
	cancel context.CancelFunc
	done   chan struct{}
	err    error // why the reading ended; set before events is closed
	peeked *Event
}

// Open requests url with client and reads its events (and comments, with
// ReportComments) in the background. It fails the test when no response
// head comes within timeout; it does not check the status, which a test
// may expect to be a refusal.
func Open(t testing.TB, client *http.Client, url string, comments Comments, timeout time.Duration) *Stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	// The head comes only when the handler flushes: give up at timeout.
	timer := time.AfterFunc(timeout, cancel)
	res, err := client.Do(req)
	timer.Stop()
	if err != nil {
		cancel()
		t.Fatalf("GET %s: no response within %v: %v", url, timeout, err)
	}
	s := &Stream{Response: res, events: make(chan Event, 64), cancel: cancel, done: make(chan struct{})}
	go s.read(ctx, NewReader(res.Body, comments))
	t.Cleanup(s.Close)
	return s
}

func (s *Stream) read(ctx context.Context, r *Reader) {
	defer close(s.done)
	defer close(s.events)
	for {
		ev, err := r.Next()
		if err != nil {
			s.err = err
			return
		}
		select {
		case s.events <- ev:
		case <-ctx.Done():
			s.err = ctx.Err()
			return
		}
	}
}

// Events returns the events as they are read; it is closed when the
// stream ends, after which Err says why.
func (s *Stream) Events() <-chan Event { return s.events }

// Done is closed once the stream has ended, after Events is; the events
// read before the end stay in Events. It closes only while Events has room
// for what is read: a test that waits for the end without reading events
// waits for a stream that sends few.
func (s *Stream) Done() <-chan struct{} { return s.done }

// Err returns why the stream ended (io.EOF: the server closed it between
// events), once Events is closed.
func (s *Stream) Err() error {
	<-s.done
	return s.err
}

// Next returns the next event, failing the test when the stream ends or
// none comes within timeout.
func (s *Stream) Next(t testing.TB, timeout time.Duration) Event {
	t.Helper()
	if ev := s.peeked; ev != nil {
		s.peeked = nil
		return *ev
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatalf("the event stream ended: %v", s.Err())
		}
		return ev
	case <-timer.C:
		t.Fatalf("no event within %v", timeout)
	}
	return Event{}
}

// Peek returns the next event as Next does, and leaves it to be returned
// by the next call of Next.
func (s *Stream) Peek(t testing.TB, timeout time.Duration) Event {
	t.Helper()
	ev := s.Next(t, timeout)
	s.peeked = &ev
	return ev
}

// Close stops reading, closes the response body and waits for the reader.
func (s *Stream) Close() {
	s.cancel()
	_ = s.Response.Body.Close() // closing a read body cannot lose data
	<-s.done
}
