package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/netaddr"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

// newStreamServer is the website over a fresh env's hub and clock, with the
// stream options set by opts.
func newStreamServer(t *testing.T, opts server.Options) (*env, *server.Server) {
	t.Helper()
	e := newEnv(t, envConfig{})
	opts.Assets, opts.Hub, opts.Clock, opts.Logger, opts.Heartbeat = testAssets(t), e.hub, e.clock, discardLogger(), testHeartbeat
	return e, server.New(opts)
}

// waitOpenStreams waits until the server counts n open streams. The count
// changes on other goroutines with nothing to wake on, so it polls.
func waitOpenStreams(t *testing.T, s *server.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for s.OpenStreams() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d open streams after %v, want %d", s.OpenStreams(), waitTimeout, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recordedStream is one stream served straight by the handler, from a
// chosen client address.
type recordedStream struct {
	rec    *streamRecorder
	cancel context.CancelFunc
	done   chan struct{}
}

// openRecorded requests path from remoteAddr, with the X-Forwarded-For
// header xff if any, and returns once the stream has sent its first event,
// or once the handler has answered and returned (answered).
func openRecorded(t *testing.T, h http.Handler, path, remoteAddr string, xff ...string) (s *recordedStream, answered bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
	req.RemoteAddr = remoteAddr
	req.Header["X-Forwarded-For"] = xff
	s = &recordedStream{rec: newStreamRecorder(), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		h.ServeHTTP(s.rec, req)
	}()
	t.Cleanup(s.end)
	deadline := time.After(waitTimeout)
	for !s.rec.hasEvent("", "") {
		select {
		case <-s.rec.flushed:
		case <-s.done:
			return s, true
		case <-deadline:
			t.Fatalf("GET %s from %s: neither an event nor an answer: %q", path, remoteAddr, s.rec.String())
		}
	}
	return s, false
}

// end closes the stream and waits for its handler.
func (s *recordedStream) end() {
	s.cancel()
	<-s.done
}

// checkRefused checks a 503 with Retry-After and a JSON error containing want.
func checkRefused(t *testing.T, status int, header http.Header, body, want string) {
	t.Helper()
	checkAnswer(t, &http.Response{StatusCode: status, Header: header}, body, http.StatusServiceUnavailable, "application/json; charset=utf-8")
	if secs, err := strconv.Atoi(header.Get("Retry-After")); err != nil || secs <= 0 {
		t.Errorf("Retry-After = %q, want a positive number of seconds", header.Get("Retry-After"))
	}
	var got struct{ Error string }
	if err := json.Unmarshal([]byte(body), &got); err != nil || !strings.Contains(got.Error, want) {
		t.Errorf("body = %q, want {\"error\": \"…%s…\"}", body, want)
	}
}

func TestStreamCaps(t *testing.T) {
	const (
		overall   = "on this server"
		perClient = "from your address"
		perSite   = "from your network"
	)
	// Every live endpoint shares the caps.
	paths := []string{"/api/news/stream", "/api/news/welcome-to-the-new-site/stream", "/api/event/stream"}
	// A step opens a stream from client, with the X-Forwarded-For header
	// xff if any (want "" means it is accepted, else the words of its
	// refusal), or ends the stream opened at step end-1.
	type step struct {
		client, xff, want string
		end               int
	}
	// fromOneSite is n streams from n /64s of the IPv6 site 2001:db8:5::/48.
	fromOneSite := func(n int) []step {
		s := make([]step, n)
		for i := range s {
			s[i] = step{client: fmt.Sprintf("[2001:db8:5:%x::1]:1000", i)}
		}
		return s
	}
	// frontEnd is the one peer of every request behind Cloud Run.
	const frontEnd = "169.254.8.1:40000"
	// fromOneClient is n streams opened from one address, each from a port
	// of its own.
	fromOneClient := func(n int) []step {
		s := make([]step, n)
		for i := range s {
			s[i] = step{client: fmt.Sprintf("192.0.2.1:%d", 1000+i)}
		}
		return s
	}
	tests := []struct {
		name              string
		max, maxPerClient int
		proxies           netaddr.Proxies
		steps             []step
		wantOpenAtEnd     int
	}{
		{
			name: "overall cap: the third is refused, a freed slot is taken again",
			max:  2, maxPerClient: -1,
			steps: []step{
				{client: "192.0.2.1:1000"},
				{client: "192.0.2.2:1000"},
				{client: "192.0.2.3:1000", want: overall},
				{end: 1},
				{client: "192.0.2.3:1001"},
				{client: "192.0.2.4:1000", want: overall},
			},
			wantOpenAtEnd: 2,
		},
		{
			name: "per-client cap leaves other clients alone",
			max:  10, maxPerClient: 2,
			steps: []step{
				{client: "192.0.2.1:1000"},
				{client: "192.0.2.1:1001"},
				{client: "192.0.2.1:1002", want: perClient},
				{client: "192.0.2.2:1000"},
				{client: "192.0.2.2:1001"},
				{client: "192.0.2.2:1002", want: perClient},
				{end: 2},
				{client: "192.0.2.1:1003"},
			},
			wantOpenAtEnd: 4,
		},
		{
			name: "a refused client takes no overall slot",
			max:  3, maxPerClient: 2,
			steps: []step{
				{client: "192.0.2.1:1000"},
				{client: "192.0.2.1:1001"},
				{client: "192.0.2.1:1002", want: perClient},
				{client: "192.0.2.1:1003", want: perClient},
				{client: "192.0.2.2:1000"},
				{client: "192.0.2.3:1000", want: overall},
			},
			wantOpenAtEnd: 3,
		},
		{
			name: "an IPv6 /64 is one client; IPv4-mapped IPv6 is the IPv4 address",
			max:  10, maxPerClient: 1,
			steps: []step{
				{client: "[2001:db8:1:2::1]:1000"},
				{client: "[2001:db8:1:2:ffff::9]:1000", want: perClient},
				{client: "[2001:db8:1:3::1]:1000"},
				{client: "192.0.2.7:1000"},
				{client: "[::ffff:192.0.2.7]:1000", want: perClient},
			},
			wantOpenAtEnd: 3,
		},
		{
			name: "an IPv6 /48 may open 16 clients' streams, whatever its /64s",
			max:  100, maxPerClient: 2,
			steps: append(fromOneSite(32),
				step{client: "[2001:db8:5:ffff::1]:1000", want: perSite},
				step{client: "[2001:db8:6::1]:1000"},
				step{end: 1},
				step{client: "[2001:db8:5:ffff::1]:1001"}),
			wantOpenAtEnd: 33,
		},
		{
			name: "behind a proxy: each client the front end names has its own cap",
			max:  10, maxPerClient: 1, proxies: netaddr.Proxies{Hops: 1},
			steps: []step{
				{client: frontEnd, xff: "192.0.2.1"},
				{client: frontEnd, xff: "192.0.2.2"},
				{client: frontEnd, xff: "203.0.113.9, 192.0.2.1", want: perClient},
				{client: frontEnd}, // no header: the front end itself is the client
				{client: frontEnd, want: perClient},
				{client: frontEnd, xff: "2001:db8:9::1"},
			},
			wantOpenAtEnd: 4,
		},
		{
			name:          "default per-client cap",
			steps:         append(fromOneClient(server.DefaultMaxStreamsPerClient), step{client: "192.0.2.1:9999", want: perClient}),
			wantOpenAtEnd: server.DefaultMaxStreamsPerClient,
		},
		{
			name: "negative caps are no caps",
			max:  -1, maxPerClient: -1,
			steps:         fromOneClient(2 * server.DefaultMaxStreamsPerClient),
			wantOpenAtEnd: 2 * server.DefaultMaxStreamsPerClient,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, h := newStreamServer(t, server.Options{MaxStreams: tt.max, MaxStreamsPerClient: tt.maxPerClient, Proxies: tt.proxies})
			var opened []*recordedStream
			for i, st := range tt.steps {
				if st.end > 0 {
					opened[st.end-1].end()
					opened = append(opened, nil)
					continue
				}
				path := paths[i%len(paths)]
				var xff []string
				if st.xff != "" {
					xff = []string{st.xff}
				}
				s, answered := openRecorded(t, h, path, st.client, xff...)
				opened = append(opened, s)
				if st.want == "" {
					if answered {
						t.Fatalf("step %d: GET %s from %s was answered %d %q, want a stream", i+1, path, st.client, s.rec.status, s.rec.String())
					}
					continue
				}
				if !answered {
					t.Fatalf("step %d: GET %s from %s got a stream, want a refusal %q", i+1, path, st.client, st.want)
				}
				checkRefused(t, s.rec.status, s.rec.header, s.rec.String(), st.want)
			}
			if n := h.OpenStreams(); n != tt.wantOpenAtEnd {
				t.Errorf("OpenStreams() = %d, want %d", n, tt.wantOpenAtEnd)
			}
			for _, s := range opened {
				if s != nil {
					s.end()
				}
			}
			if n := h.OpenStreams(); n != 0 {
				t.Errorf("OpenStreams() = %d after every stream ended, want 0", n)
			}
		})
	}
}

// clientFrom is an HTTP client whose connections come from the loopback
// address ip (all of 127.0.0.0/8 is the loopback interface on Linux).
func clientFrom(t *testing.T, ip string) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// getOnce requests path and returns the status, header and body; for a
// stream it returns after the headers with the body unread.
func getOnce(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	t.Cleanup(func() { _ = res.Body.Close() }) // closing a read body cannot lose data
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}
	return res, ""
}

func TestStreamCapsOverTCP(t *testing.T) {
	_, h := newStreamServer(t, server.Options{MaxStreams: 2, MaxStreamsPerClient: 1})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	one, two, three := clientFrom(t, "127.0.0.1"), clientFrom(t, "127.0.0.2"), clientFrom(t, "127.0.0.3")

	first := openStream(t, srv, "/api/news/stream")
	if first.Response.StatusCode != http.StatusOK {
		t.Fatalf("first stream: %d", first.Response.StatusCode)
	}
	res, body := getOnce(t, one, srv.URL+"/api/event/stream")
	checkRefused(t, res.StatusCode, res.Header, body, "from your address")
	if res, _ := getOnce(t, two, srv.URL+"/api/news/stream"); res.StatusCode != http.StatusOK {
		t.Fatalf("a second client's stream: %d, want 200", res.StatusCode)
	}
	res, body = getOnce(t, three, srv.URL+"/api/news/stream")
	checkRefused(t, res.StatusCode, res.Header, body, "on this server")

	// The viewer goes away: its slot is free again.
	_ = first.Response.Body.Close() // closing a read body cannot lose data
	waitOpenStreams(t, h, 1)
	if res, _ := getOnce(t, three, srv.URL+"/api/news/stream"); res.StatusCode != http.StatusOK {
		t.Fatalf("a stream after one ended: %d, want 200", res.StatusCode)
	}
}

// smallBufferListener gives every accepted connection a small send buffer,
// so a viewer that stops reading blocks the server's writes soon.
type smallBufferListener struct{ net.Listener }

func (l smallBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

// inHandler serves h with a ResponseWriter that cannot be hijacked, as over
// HTTP/2 or in the desktop window, so streams run in the handler; flushing
// and write deadlines still reach the connection.
func inHandler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(noHijack{w, http.NewResponseController(w)}, r)
	})
}

type noHijack struct {
	http.ResponseWriter
	rc *http.ResponseController
}

func (w noHijack) Flush()                             { _ = w.rc.Flush() }
func (w noHijack) SetWriteDeadline(t time.Time) error { return w.rc.SetWriteDeadline(t) }

// streamPaths are the two ways a stream runs: on its own goroutines with the
// connection taken over (HTTP/1), or in the handler (elsewhere).
var streamPaths = []struct {
	name string
	wrap func(http.Handler) http.Handler
}{
	{"taken over", func(h http.Handler) http.Handler { return h }},
	{"in the handler", inHandler},
}

func TestStalledViewerIsDropped(t *testing.T) {
	for _, path := range streamPaths {
		t.Run(path.name, func(t *testing.T) {
			const writeTimeout = time.Second
			e, h := newStreamServer(t, server.Options{StreamWriteTimeout: writeTimeout})
			// One article far larger than the socket buffers of both ends.
			paragraph := strings.Repeat("All work and no play makes a dull robot. ", 40) + "\n\n"
			big := news.Article{ID: "big", Title: "Big", Date: testArticle.Date, Content: strings.Repeat(paragraph, 2000)}
			e.put(t, big)
			eventSize := len(e.hub.Current().JSON)

			srv := httptest.NewUnstartedServer(path.wrap(h))
			srv.Listener = smallBufferListener{srv.Listener}
			srv.Start()
			t.Cleanup(srv.Close)

			// A viewer with a small receive buffer that sends its request
			// and never reads.
			d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
				var serr error
				err := c.Control(func(fd uintptr) {
					serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10)
				})
				if err != nil {
					return err
				}
				return serr
			}}
			conn, err := d.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = conn.Close() }() // teardown: a close error changes nothing here
			if _, err := fmt.Fprintf(conn, "GET /api/news/stream HTTP/1.1\r\nHost: %s\r\n\r\n", srv.Listener.Addr()); err != nil {
				t.Fatal(err)
			}
			waitOpenStreams(t, h, 1)
			start := time.Now()
			waitOpenStreams(t, h, 0)
			if held := time.Since(start); held > writeTimeout+waitTimeout/2 {
				t.Errorf("the stalled stream was held %v, want about %v", held, writeTimeout)
			}

			// The server has closed the connection with the event cut short.
			_ = conn.SetReadDeadline(time.Now().Add(waitTimeout))
			n, err := io.Copy(io.Discard, bufio.NewReader(conn))
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("the server did not close the stalled connection: %v", err)
			}
			if n >= int64(eventSize) {
				t.Errorf("the stalled viewer got %d bytes, want fewer than the %d of the event", n, eventSize)
			}
		})
	}
}

func TestQuietStreamOutlivesTheWriteTimeout(t *testing.T) {
	for _, path := range streamPaths {
		t.Run(path.name, func(t *testing.T) {
			// Each write must fit in it even on busy cores under -race (at
			// 50 ms, a heartbeat's write missed it once in CI).
			const writeTimeout = 500 * time.Millisecond
			e, h := newStreamServer(t, server.Options{StreamWriteTimeout: writeTimeout})
			srv := httptest.NewServer(path.wrap(h))
			t.Cleanup(srv.Close)
			s := startStream(t, srv, "/api/news/stream")
			if ev := s.next(t); ev.Type != "news" {
				t.Fatalf("first event = %+v", ev)
			}
			// The deadline is the network poller's wall time: only a real
			// wait shows that a quiet stream is not dropped by the last
			// write's deadline.
			time.Sleep(4 * writeTimeout)
			for i := range 2 {
				blockUntilWaiters(t, e.clock, 1)
				e.clock.Advance(testHeartbeat)
				if ev := s.next(t); ev.Comment != "heartbeat" {
					t.Fatalf("block %d = %+v, want a heartbeat", i, ev)
				}
			}
			e.put(t, testArticle)
			if ev := s.next(t); ev.Type != "news" || !strings.Contains(ev.Data, testArticle.ID) {
				t.Fatalf("after a change = %+v, want the news with %s", ev, testArticle.ID)
			}
			if n := h.OpenStreams(); n != 1 {
				t.Errorf("OpenStreams() = %d, want 1", n)
			}
		})
	}
}

func TestShutdownEndsStreamsAndWaitsForThem(t *testing.T) {
	_, h := newStreamServer(t, server.Options{})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	streams := []*sseStream{
		startStream(t, srv, "/api/news/stream"),
		startStream(t, srv, "/api/news/welcome-to-the-new-site/stream"),
		startStream(t, srv, "/api/event/stream"),
	}
	for _, s := range streams {
		if ev := s.next(t); ev.IsComment {
			t.Fatalf("first event = %+v", ev)
		}
	}
	if n := h.OpenStreams(); n != len(streams) {
		t.Fatalf("OpenStreams() = %d, want %d", n, len(streams))
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := h.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	// Shutdown returns once every stream has ended.
	if n := h.OpenStreams(); n != 0 {
		t.Errorf("OpenStreams() = %d after Shutdown, want 0", n)
	}
	for i, s := range streams {
		select {
		case ev, ok := <-s.Events():
			if ok {
				t.Errorf("stream %d: %+v after Shutdown, want its end", i, ev)
			}
		case <-time.After(waitTimeout):
			t.Errorf("stream %d is still open after Shutdown", i)
		}
	}
}
