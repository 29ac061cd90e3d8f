package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/netaddr"
)

// Default caps of the live streams (server-sent events) one process keeps
// open: enough for every viewer of a busy event day, few enough that the
// process stays within its file limit and its memory.
const (
	// NoCap, as Options.MaxStreams or MaxStreamsPerClient, turns that cap off.
	NoCap = -1
	// DefaultMaxStreams is the default of Options.MaxStreams.
	DefaultMaxStreams = 20000
	// DefaultMaxStreamsPerClient is the default of Options.MaxStreamsPerClient:
	// far more tabs than one household opens, far fewer than a script would.
	DefaultMaxStreamsPerClient = 32
	// DefaultStreamWriteTimeout is the default of Options.StreamWriteTimeout.
	DefaultStreamWriteTimeout = 10 * time.Second
	// DefaultHeartbeat is the default of Options.Heartbeat: well within the
	// minute after which proxies and load balancers close a quiet connection.
	DefaultHeartbeat = 15 * time.Second
)

// streamRetryAfter is the Retry-After of a refused stream, in seconds, for
// clients that read it. EventSource hides a refused response from the page:
// the browser adapter opens the stream again after 2 s, then twice as long
// after each refusal, up to a minute.
const streamRetryAfter = 10

// streamLimiter counts the open live streams, overall, per client and per
// IPv6 site (netaddr.Keys), and refuses a new one beyond any cap. A cap ≤ 0
// is no cap.
type streamLimiter struct {
	total, perClient, perSite int

	mu    sync.Mutex
	open  int
	byKey map[string]int // of clients and sites, whose keys differ
}

func newStreamLimiter(total, perClient int) *streamLimiter {
	return &streamLimiter{total: total, perClient: perClient, perSite: perClient * netaddr.SiteShare, byKey: make(map[string]int)}
}

// acquire takes a slot for a stream of the client at addr
// (Proxies.Peer). It returns the function that gives the slot back, or an
// error saying which cap is reached.
func (l *streamLimiter) acquire(addr string) (release func(), err error) {
	client, site := netaddr.Keys(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total > 0 && l.open >= l.total {
		return nil, fmt.Errorf("too many live streams open on this server (%d); try again later", l.total)
	}
	if l.perClient > 0 && l.byKey[client] >= l.perClient {
		return nil, fmt.Errorf("too many live streams open from your address (%d); close some tabs or try again later", l.perClient)
	}
	if l.perSite > 0 && site != "" && l.byKey[site] >= l.perSite {
		return nil, fmt.Errorf("too many live streams open from your network (%d); close some tabs or try again later", l.perSite)
	}
	l.open++
	l.byKey[client]++
	if site != "" {
		l.byKey[site]++
	}
	var once sync.Once
	return func() { once.Do(func() { l.release(client, site) }) }, nil
}

func (l *streamLimiter) release(client, site string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	for _, k := range []string{client, site} {
		if k == "" {
			continue
		}
		if n := l.byKey[k] - 1; n > 0 {
			l.byKey[k] = n
		} else {
			delete(l.byKey, k) // the map holds only clients and sites with open streams
		}
	}
}

func (l *streamLimiter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// OpenStreams returns how many live streams (news, article and event
// updates) are open now.
func (s *Server) OpenStreams() int { return s.liveStreams.count() }

// acquireStream takes a stream slot for the client of r. When a cap is
// reached it answers 503 with Retry-After itself and returns ok false.
func (s *Server) acquireStream(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	release, err := s.liveStreams.acquire(s.opts.Proxies.Peer(r))
	if err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": err.Error()})
		return nil, false
	}
	return release, true
}

// hijackStream takes the connection of an HTTP/1 GET stream over from
// net/http and runs the stream on goroutines of its own, returning true
// once they are started; it returns false, having written nothing, where
// the connection cannot be taken (HTTP/2, the desktop window, a recorder).
//
// Why: for an open request net/http keeps a 4 KB read buffer, 4 KB and
// 2 KB write buffers, the request and a copy of its headers, a goroutine
// reading in the background and the handler's goroutine with its deep
// stack, all of it resident for as long as the viewer stays
// (docs/BENCHMARKS.md has the memory per viewer before and after). A
// taken-over stream keeps the connection, one small goroutine writing to it
// and one blocked reading from it (so a viewer that leaves is noticed at
// once, as net/http would), and nothing else.
//
// The response is delimited by closing the connection (HTTP/1.1 allows
// it, and a stream ends only that way), so no chunked framing is written.
func (s *Server) hijackStream(w http.ResponseWriter, r *http.Request, release func(), run func(gone <-chan struct{}, write streamWrite)) bool {
	if r.ProtoMajor != 1 || r.Method != http.MethodGet {
		return false
	}
	h := w.Header()
	h.Set("Date", s.opts.Clock.Now().UTC().Format(http.TimeFormat))
	h.Set("Connection", "close")
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	_ = h.Write(&head)
	head.WriteString("\r\n")

	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		h.Del("Date")
		h.Del("Connection")
		return false
	}
	// An EventSource sends nothing after its request: a byte, the end of
	// the connection or an error all mean the viewer is gone. Closing conn
	// ends the read.
	gone := make(chan struct{})
	s.runningStreams.Add(2)
	go func() {
		defer s.runningStreams.Done()
		defer close(gone)
		var b [1]byte
		_, _ = conn.Read(b[:])
	}()
	go func() {
		defer s.runningStreams.Done()
		defer release()
		// The stream is over; the client sees it end either way.
		defer func() { _ = conn.Close() }()
		pending := head.Bytes() // the response's head goes with the first write
		run(gone, func(_ bool, parts ...[]byte) error {
			if err := conn.SetWriteDeadline(time.Now().Add(s.opts.StreamWriteTimeout)); err != nil {
				return err
			}
			bufs := net.Buffers(parts)
			if pending != nil {
				bufs = append(net.Buffers{pending}, parts...)
				pending = nil
			}
			_, err := bufs.WriteTo(conn)
			return err
		})
	}()
	return true
}

// waitStreams waits until every taken-over stream has ended, or ctx ends;
// net/http's Shutdown does not know about them.
func (s *Server) waitStreams(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.runningStreams.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("server: live streams still open: %w", ctx.Err())
	}
}

// stream runs one server-sent events connection: the current data first,
// then the data after each change that alters it, and a comment every
// heartbeat so proxies keep the connection open. The data is encoded once
// per change by its hub and shared by every viewer. It ends when the viewer
// goes, when the server shuts down, or when the viewer takes no data for
// Options.StreamWriteTimeout. A stream beyond the caps of Options.MaxStreams
// and Options.MaxStreamsPerClient is refused with 503.
//
// Over HTTP/1 the stream takes the connection over from net/http and runs
// on goroutines of its own (see hijackStream), which leave a viewer only
// its connection and two small goroutines; elsewhere (HTTP/2, the desktop
// window, tests' recorders) it runs in the handler.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, event string, subscribe func() (<-chan struct{}, func()), data func() []byte) {
	release, ok := s.acquireStream(w, r)
	if !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	head := []byte("event: " + event + "\ndata: ")
	run := func(gone <-chan struct{}, write streamWrite) {
		s.sendEvents(gone, write, head, subscribe, data)
	}
	if s.hijackStream(w, r, release, run) {
		return
	}
	defer release()
	rc := http.NewResponseController(w)
	// The server writes the end of the response after the handler returns.
	defer func() { _ = rc.SetWriteDeadline(time.Now().Add(s.opts.StreamWriteTimeout)) }()
	w.WriteHeader(http.StatusOK)
	run(r.Context().Done(), func(flush bool, parts ...[]byte) error {
		if err := rc.SetWriteDeadline(time.Now().Add(s.opts.StreamWriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		if !flush {
			return nil
		}
		return rc.Flush()
	})
}

// streamWrite sends parts to a viewer within Options.StreamWriteTimeout, and
// makes sure they leave the process when flush is set. Each write sets its
// own deadline, so a viewer that stops reading (its socket buffers full) is
// dropped instead of holding a connection and goroutines for ever, while a
// quiet stream may stay open between writes as long as it likes. A
// connection deadline is wall time, read by the network poller, so it comes
// from time.Now, not from the injected clock.
type streamWrite func(flush bool, parts ...[]byte) error

// sendEvents is the loop of one stream: the retry block and the current
// data, then the data after each change and the heartbeats, until gone
// closes, the server shuts down or a write fails.
func (s *Server) sendEvents(gone <-chan struct{}, write streamWrite, head []byte, subscribe func() (<-chan struct{}, func()), data func() []byte) {
	changed, stop := subscribe()
	defer stop()
	var last []byte
	send := func(first bool) error {
		d := data()
		if !first && bytes.Equal(d, last) {
			return nil
		}
		last = d
		if first {
			return write(true, retryBlock, head, d, eventEnd)
		}
		return write(true, head, d, eventEnd)
	}
	if err := send(true); err != nil {
		return
	}
	for {
		select {
		case <-gone:
			return
		case <-s.streams.Done():
			return
		case <-changed:
			if err := send(false); err != nil {
				return
			}
		case <-s.opts.Clock.After(s.opts.Heartbeat):
			if err := write(true, heartbeatBlock); err != nil {
				return
			}
		}
	}
}
