// Package fastpath answers the requests a public site gets most — a page,
// a build file, the news list — straight from bodies kept in memory,
// without net/http's per-request work (its request and header maps, a
// goroutine to watch the connection, a flush per response): one read, one
// vectored write, sendfile(2) for a large body. Every connection starts on
// it. The first request it does not fully understand (parse) or its Site
// cannot answer from memory (a stream, the console, a feed, a 404) hands
// the connection, with the bytes read so far, to net/http, which serves it
// from then on.
//
// The fast path only skips work, never decides differently: the Site makes
// every answer as net/http and its middleware would, headers included, and
// logs it as they would; the server's tests check its answers byte for
// byte against net/http's, and that every middleware says what the fast
// path does about it.
package fastpath

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// Site is what the fast path needs of the website it answers for.
type Site interface {
	// Answer returns the answer to req exactly as net/http and the
	// middleware would make it, but its Date; false hands the connection
	// to net/http, which then serves req and those after it.
	Answer(req Request) (Answer, bool)
	// LogAccess logs the answer to req, as the middleware logs net/http's:
	// remote is the client's address, status and size (of the body sent)
	// the answer's, latency the time from the request read to the answer
	// written.
	LogAccess(req Request, remote string, status int, size int64, latency time.Duration)
}

// Answer is a whole response, written as it is.
type Answer struct {
	// Status is the answer's status code, for the access log: the status
	// line is Header's.
	Status int
	// Header is the status line and the header fields, each ending in
	// CRLF, without the Date field and the blank line (the fast path adds
	// them).
	Header []byte
	// Body follows the header; nil for a HEAD or a 304.
	Body []byte
	// File holds Body for sendfile; nil writes Body.
	File *File
}

// Options configures a Server.
type Options struct {
	// Site answers the requests; required.
	Site Site
	// NetHTTP serves every connection the fast path hands over; required.
	// The fast path keeps its limits too: ReadHeaderTimeout (from a
	// request's first byte to its blank line), WriteTimeout and
	// IdleTimeout, which must be set.
	NetHTTP *http.Server
	// Clock times the answers for the access log; nil means clock.Real.
	Clock clock.Clock
	// Logger receives accept failures and net/http's end; nil means
	// slog.Default().
	Logger *slog.Logger
}

// Server serves connections on the fast path, and hands them to net/http
// when it must. Its zero value is not usable: call New.
type Server struct {
	opts Options

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[*conn]struct{}
	closing   atomic.Bool
	handoffs  *handoffListener
	serveOnce sync.Once
}

// New returns a fast path in front of opts.NetHTTP. It panics when a
// required option is missing, a programmer error.
func New(opts Options) *Server {
	if opts.Site == nil || opts.NetHTTP == nil || opts.NetHTTP.ReadHeaderTimeout <= 0 || opts.NetHTTP.WriteTimeout <= 0 || opts.NetHTTP.IdleTimeout <= 0 {
		panic("fastpath.New: Options.Site or Options.NetHTTP (with its ReadHeaderTimeout, WriteTimeout and IdleTimeout) is missing")
	}
	opts.Clock = cmp.Or[clock.Clock](opts.Clock, clock.Real{})
	opts.Logger = cmp.Or(opts.Logger, slog.Default())
	return &Server{opts: opts, listeners: make(map[net.Listener]struct{}), conns: make(map[*conn]struct{}), handoffs: newHandoffListener()}
}

// bufSize is the most a request may take to stay on the fast path; a
// longer one goes to net/http, which allows its MaxHeaderBytes.
const bufSize = 4 << 10

// bufs are the read buffers of fast connections.
var bufs = sync.Pool{New: func() any { return new([bufSize]byte) }}

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

// Serve accepts connections on ln until Close, serving each on the fast
// path; it then returns nil, or the error of ln's Accept that stopped it.
// Its first call starts net/http on the connections handed over.
func (s *Server) Serve(ln net.Listener) error {
	if !addUnlessClosing(s, s.listeners, ln) {
		_ = ln.Close() // as net/http's Serve after Shutdown; nothing to report
		return nil
	}
	s.serveOnce.Do(func() {
		s.handoffs.addr = ln.Addr()
		go func() {
			if err := s.opts.NetHTTP.Serve(s.handoffs); !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
				s.opts.Logger.Error("server: net/http stopped", "err", err)
			}
		}()
	})
	pause := time.Duration(0)
	for {
		c, err := ln.Accept()
		switch {
		case err == nil:
			pause = 0
			go s.serveConn(c)
		case s.closing.Load():
			return nil
		case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE), errors.Is(err, syscall.ENOBUFS), errors.Is(err, syscall.ENOMEM), errors.Is(err, syscall.ECONNABORTED):
			// Out of file descriptors or memory for a moment, or a client
			// gone before its accept: wait and go on, as net/http does.
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			s.opts.Logger.Warn("server: accept failed; retrying", "err", err, "in", pause)
			time.Sleep(pause)
		default:
			return err
		}
	}
}

// conn is one connection on the fast path.
type conn struct {
	net.Conn
	idle atomic.Bool // waiting for a request's first byte
}

// addUnlessClosing adds k to set, one of s's, and reports true; once Close
// has begun it adds nothing and reports false, so that nothing added
// escapes Close.
func addUnlessClosing[K comparable](s *Server, set map[K]struct{}, k K) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return false
	}
	set[k] = struct{}{}
	return true
}

func (s *Server) remove(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// Close stops accepting: it closes the listeners, the way to net/http
// (whose Shutdown ends its own connections) and the idle connections.
func (s *Server) Close() {
	s.mu.Lock()
	s.closing.Store(true)
	for ln := range s.listeners {
		_ = ln.Close() // Serve's Accept then returns; nothing else to do
	}
	s.mu.Unlock()
	_ = s.handoffs.Close() // never fails
	s.closeIdle(false)
}

// closeIdle closes every connection waiting for a request, or every one
// when all is set; it reports how many are left.
func (s *Server) closeIdle(all bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if all || c.idle.Load() {
			_ = c.Close() // it ends its loop; a failure leaves nothing to do
		}
	}
	return len(s.conns)
}

// Wait, after Close, closes the idle connections until none is left, as
// answers finish; when ctx ends first it closes the rest and returns
// ctx's error.
func (s *Server) Wait(ctx context.Context) error {
	pause := time.Millisecond
	for s.closeIdle(false) > 0 {
		select {
		case <-ctx.Done():
			s.closeIdle(true)
			return ctx.Err()
		case <-time.After(pause):
			pause = min(2*pause, 100*time.Millisecond)
		}
	}
	return nil
}

// serveConn serves c's requests on the fast path until it closes or is
// handed to net/http.
func (s *Server) serveConn(c net.Conn) {
	fc := &conn{Conn: c}
	if !addUnlessClosing(s, s.conns, fc) {
		_ = c.Close() // shutting down
		return
	}
	defer s.remove(fc)
	buf := bufs.Get().(*[bufSize]byte)
	defer bufs.Put(buf)
	remote := c.RemoteAddr().String()
	var raw syscall.RawConn // for sendfile; nil when the connection has none
	if sc, ok := c.(syscall.Conn); ok {
		raw, _ = sc.SyscallConn() // on error it stays nil: bodies are written
	}
	readHeaderTimeout, writeTimeout, idleTimeout := s.opts.NetHTTP.ReadHeaderTimeout, s.opts.NetHTTP.WriteTimeout, s.opts.NetHTTP.IdleTimeout
	var iov [3][]byte
	n := 0 // bytes in buf
	// A request has readHeaderTimeout from its first byte (the first one
	// from the accept), however slowly it comes; between requests a
	// connection may wait idleTimeout.
	headerDeadline := time.Now().Add(readHeaderTimeout)
	deadline := headerDeadline
	betweenRequests := false // waiting for the first byte of the next one (after an answer)
	for {
		req, verdict := parse(buf[:n])
		if verdict == incomplete && n < len(buf) {
			if betweenRequests {
				// Idle, for Shutdown, only once it has had an answer: a
				// new connection may have its request on the way.
				fc.idle.Store(true)
				if s.closing.Load() {
					_ = c.Close()
					return
				}
			}
			_ = c.SetReadDeadline(deadline) // a closed connection fails the read below
			m, err := c.Read(buf[n:])
			fc.idle.Store(false)
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
		start := s.opts.Clock.Now()
		var answer Answer
		answered := false
		if verdict == parsed {
			answer, answered = s.opts.Site.Answer(req)
		}
		if !answered {
			s.remove(fc) // net/http's to shut down from now on
			_ = c.SetReadDeadline(time.Time{})
			s.handoffs.give(c, bytes.Clone(buf[:n]))
			return
		}
		now := time.Now()
		out := append(iov[:0], answer.Header, dateHeader(now))
		_ = c.SetWriteDeadline(now.Add(writeTimeout)) // a closed connection fails the write below
		var err error
		if len(answer.Body) > 0 && answer.File != nil && raw != nil {
			err = answer.File.send(raw, out, len(answer.Body))
		} else {
			if len(answer.Body) > 0 {
				out = append(out, answer.Body)
			}
			vec := net.Buffers(out)
			_, err = vec.WriteTo(c)
		}
		if err != nil {
			_ = c.Close()
			return
		}
		s.opts.Site.LogAccess(req, remote, answer.Status, int64(len(answer.Body)), s.opts.Clock.Now().Sub(start))
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
