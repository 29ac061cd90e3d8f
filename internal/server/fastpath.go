package server

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The fast path answers the requests a public site gets most — a page, a
// build file, the news list — straight from the bodies kept in memory,
// without net/http's per-request work (its request and header maps, a
// goroutine to watch the connection, a flush per response): one read, one
// vectored write. Every connection starts on it. The first request it does
// not fully understand (parseFast) or cannot answer from memory (a stream,
// the console, a feed, a 404) hands the connection, with the bytes read so
// far, to net/http, which serves it from then on. The fast path only skips
// work, never decides differently: fastpath_test.go checks its answers
// byte for byte against net/http's.

// fastBufSize is the most a request may take to stay on the fast path;
// a longer one goes to net/http, which allows maxHeaderBytes.
const fastBufSize = 4 << 10

// fastBufs are the read buffers of fast connections.
var fastBufs = sync.Pool{New: func() any { return new([fastBufSize]byte) }}

// fastAnswer returns the body for a request's path with its Cache-Control,
// exactly as the mux and the handlers would choose them; ok is false when
// net/http must serve it.
func (s *Server) fastAnswer(path []byte) (body *asset, cacheControl []string, ok bool) {
	switch {
	case string(path) == "/api/news":
		return s.newsList(), cacheRevalidate, true
	case bytes.HasPrefix(path, []byte("/assets/")):
		name := path[1:]
		if bytes.HasPrefix(name, []byte(consoleAssets)) {
			return nil, nil, false
		}
		f, ok := s.assets.files[string(name)]
		return f, cacheImmutable, ok
	}
	for _, prefix := range s.fastNotPages {
		if bytes.HasPrefix(path, []byte(prefix)) {
			return nil, nil, false
		}
	}
	// What servePage does: a file of the build, else the page.
	if f, ok := s.assets.files[string(path[1:])]; ok && string(path) != "/index.html" {
		return f, cacheShort, true
	}
	if s.assets.index == nil {
		return nil, nil, false
	}
	page, ok := s.knownPage(string(path), s.opts.Hub.Current())
	return page, cacheRevalidate, ok
}

// initFast lists the path prefixes of the routes other than servePage's,
// so that the fast path answers as servePage only what the mux sends there.
// A route's pattern as a prefix covers more than the route (an exact
// /healthz also covers /healthz2): those go to net/http, which is never
// wrong.
func (s *Server) initFast() {
	for _, r := range s.routes() {
		_, p, _ := strings.Cut(r.pattern, " ")
		if p == "/" {
			continue
		}
		if i := strings.IndexByte(p, '{'); i >= 0 {
			p = p[:i]
		}
		s.fastNotPages = append(s.fastNotPages, p)
	}
}

// fastHead is the status line and header of one answer, without its Date
// and final blank line, made once per body variant.
type fastHead struct {
	cacheControl *string // the Cache-Control it was made with
	bytes        []byte
}

// head returns the status line and header of v's answer, with the
// server's security headers (made once per server: an asset is one
// server's).
func (f *asset) head(v *variant, security http.Header, cacheControl []string, notModified bool) []byte {
	slot := &v.heads[0]
	if notModified {
		slot = &v.heads[1]
	}
	if h := slot.Load(); h != nil && h.cacheControl == &cacheControl[0] {
		return h.bytes
	}
	h := make(http.Header, len(security)+7)
	for k, vs := range security {
		h[k] = vs
	}
	f.setHeader(h, v, cacheControl, notModified)
	var b bytes.Buffer
	if notModified {
		b.WriteString("HTTP/1.1 304 Not Modified\r\n")
	} else {
		h["Content-Length"] = v.length
		b.WriteString("HTTP/1.1 200 OK\r\n")
	}
	_ = h.Write(&b) // a bytes.Buffer never fails
	made := &fastHead{cacheControl: &cacheControl[0], bytes: b.Bytes()}
	slot.Store(made)
	return made.bytes
}

// dateLine is the Date header and the blank line that ends a header,
// remade once a second.
type dateLine struct {
	unix int64
	line []byte
}

var currentDate atomic.Pointer[dateLine]

func dateHeader(now time.Time) []byte {
	if d := currentDate.Load(); d != nil && d.unix == now.Unix() {
		return d.line
	}
	d := &dateLine{unix: now.Unix(), line: []byte("Date: " + now.UTC().Format(http.TimeFormat) + "\r\n\r\n")}
	currentDate.Store(d)
	return d.line
}

// fastConns are the listeners and connections of the fast path, for
// Shutdown.
type fastConns struct {
	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[*fastConn]struct{}
	closing   atomic.Bool
	handoffs  *handoffListener
	serveOnce sync.Once
}

func newFastConns() *fastConns {
	return &fastConns{listeners: make(map[net.Listener]struct{}), conns: make(map[*fastConn]struct{}), handoffs: newHandoffListener()}
}

// fastConn is one connection on the fast path.
type fastConn struct {
	net.Conn
	idle atomic.Bool // waiting for a request's first byte
}

func (fc *fastConns) addListener(ln net.Listener) bool { return addUnlessClosing(fc, fc.listeners, ln) }

func (fc *fastConns) add(c *fastConn) bool { return addUnlessClosing(fc, fc.conns, c) }

// addUnlessClosing adds k to set, one of fc's, and reports true; once close
// has begun it adds nothing and reports false, so that nothing added
// escapes close.
func addUnlessClosing[K comparable](fc *fastConns, set map[K]struct{}, k K) bool {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.closing.Load() {
		return false
	}
	set[k] = struct{}{}
	return true
}

func (fc *fastConns) remove(c *fastConn) {
	fc.mu.Lock()
	delete(fc.conns, c)
	fc.mu.Unlock()
}

// close stops accepting: it closes the listeners, the way to net/http
// (which shuts down its own connections) and the idle connections.
func (fc *fastConns) close() {
	fc.mu.Lock()
	fc.closing.Store(true)
	for ln := range fc.listeners {
		_ = ln.Close() // Serve's Accept then returns; nothing else to do
	}
	fc.mu.Unlock()
	_ = fc.handoffs.Close() // never fails
	fc.closeIdle(false)
}

// closeIdle closes every connection waiting for a request, or every one
// when all is set; it reports how many are left.
func (fc *fastConns) closeIdle(all bool) int {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	for c := range fc.conns {
		if all || c.idle.Load() {
			_ = c.Close() // it ends its loop; a failure leaves nothing to do
		}
	}
	return len(fc.conns)
}

// wait closes the idle connections until none is left, as answers finish;
// when ctx ends first it closes the rest.
func (fc *fastConns) wait(ctx context.Context) error {
	pause := time.Millisecond
	for fc.closeIdle(false) > 0 {
		select {
		case <-ctx.Done():
			fc.closeIdle(true)
			return ctx.Err()
		case <-time.After(pause):
			pause = min(2*pause, 100*time.Millisecond)
		}
	}
	return nil
}

// serveFast serves conn's requests on the fast path until it closes or
// hands it to net/http.
func (s *Server) serveFast(c net.Conn) {
	conn := &fastConn{Conn: c}
	if !s.fast.add(conn) {
		_ = c.Close() // shutting down
		return
	}
	defer s.fast.remove(conn)
	buf := fastBufs.Get().(*[fastBufSize]byte)
	defer fastBufs.Put(buf)
	remote := c.RemoteAddr().String()
	var raw syscall.RawConn // for sendfile; nil when the connection has none
	if sc, ok := c.(syscall.Conn); ok {
		raw, _ = sc.SyscallConn() // on error it stays nil: bodies are written
	}
	var iov [3][]byte
	n := 0 // bytes in buf
	// A request has readHeaderTimeout from its first byte (the first one
	// from the accept), however slowly it comes; between requests a
	// connection may wait idleTimeout.
	headerDeadline := time.Now().Add(readHeaderTimeout)
	deadline := headerDeadline
	betweenRequests := false // waiting for the first byte of the next one (after an answer)
	for {
		req, verdict := parseFast(buf[:n])
		if verdict == incomplete && n < len(buf) {
			if betweenRequests {
				// Idle, for Shutdown, only once it has had an answer: a
				// new connection may have its request on the way.
				conn.idle.Store(true)
				if s.fast.closing.Load() {
					_ = c.Close()
					return
				}
			}
			_ = c.SetReadDeadline(deadline) // a closed connection fails the read below
			m, err := c.Read(buf[n:])
			conn.idle.Store(false)
			if err != nil {
				_ = c.Close() // the client left or timed out
				return
			}
			if betweenRequests {
				headerDeadline = time.Now().Add(readHeaderTimeout)
				betweenRequests = false
			}
			n += m
			deadline = headerDeadline
			continue
		}
		var body *asset
		var cacheControl []string
		answered := false
		if verdict == parsed {
			body, cacheControl, answered = s.fastAnswer(req.path)
		}
		if !answered {
			s.fast.remove(conn) // net/http's to shut down from now on
			_ = c.SetReadDeadline(time.Time{})
			s.fast.handoffs.give(c, bytes.Clone(buf[:n]))
			return
		}
		start := s.opts.Clock.Now()
		now := time.Now()
		v := body.choose(string(req.acceptEncoding))
		notModified := v.notModified(string(req.ifNoneMatch))
		out := append(iov[:0], body.head(v, s.securityHeaders, cacheControl, notModified), dateHeader(now))
		sent := 0
		if !notModified && !req.head {
			sent = len(v.body)
		}
		_ = c.SetWriteDeadline(now.Add(writeTimeout)) // a closed connection fails the write below
		var err error
		if file := v.bodyFile(); sent > 0 && file != nil && raw != nil {
			err = file.send(raw, out, sent)
		} else {
			if sent > 0 {
				out = append(out, v.body)
			}
			bufs := net.Buffers(out)
			_, err = bufs.WriteTo(c)
		}
		if err != nil {
			_ = c.Close()
			return
		}
		status := http.StatusOK
		if notModified {
			status = http.StatusNotModified
		}
		method := http.MethodGet
		if req.head {
			method = http.MethodHead
		}
		line := access{method: method, path: string(req.path), proto: "HTTP/1.1", remote: remote, userAgent: string(req.userAgent),
			status: status, size: int64(sent), latency: s.opts.Clock.Now().Sub(start)}
		line.trace, line.traced = traceOf(string(req.traceparent), string(req.cloudTraceContext))
		logAccess(context.Background(), s.opts.Logger, line, s.opts.TraceProject)
		n = copy(buf[:], buf[req.size:n])
		if n > 0 { // the next request has begun
			headerDeadline = time.Now().Add(readHeaderTimeout)
			deadline = headerDeadline
		} else {
			deadline = time.Now().Add(idleTimeout)
			betweenRequests = true
		}
	}
}

// handoffListener is how connections pass from the fast path to net/http:
// its Accept returns them, each replaying the bytes already read.
type handoffListener struct {
	addr   net.Addr // the first listener's, set before net/http's Serve
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newHandoffListener() *handoffListener {
	return &handoffListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

// give passes c to net/http, or closes it when net/http has stopped.
func (l *handoffListener) give(c net.Conn, read []byte) {
	select {
	case l.conns <- &replayConn{Conn: c, read: read}:
	case <-l.closed:
		_ = c.Close() // shutting down
	}
}

func (l *handoffListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *handoffListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *handoffListener) Addr() net.Addr { return l.addr }

// replayConn reads the bytes the fast path read before the connection's.
type replayConn struct {
	net.Conn
	read []byte
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.read) > 0 {
		n := copy(p, c.read)
		c.read = c.read[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// CloseWrite lets net/http end a response with a half-close, as it does
// on a TCP connection of its own.
func (c *replayConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
