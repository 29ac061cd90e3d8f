package news

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/keepalive"
)

// serveGRPC serves a gRPC server without services on addr ("127.0.0.1:0"
// for any port) and returns its address and a function that stops it.
func serveGRPC(t *testing.T, addr string, opts ...grpc.ServerOption) (string, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return ln.Addr().String(), serveOn(t, ln, opts...)
}

// serveOn serves a gRPC server without services on ln and returns a
// function that stops it.
func serveOn(t *testing.T, ln net.Listener, opts ...grpc.ServerOption) func() {
	t.Helper()
	srv := grpc.NewServer(opts...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	stop := func() {
		srv.Stop()
		<-done
	}
	t.Cleanup(stop)
	return stop
}

// countingListener counts the connections it accepted.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return conn, err
}

// waitReady waits, at most 10 s, until l's connection is ready.
func waitReady(t *testing.T, l *link) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for state := l.conn.GetState(); state != connectivity.Ready; state = l.conn.GetState() {
		if !l.conn.WaitForStateChange(ctx, state) {
			t.Fatalf("link %v, want it ready within 10 s", state)
		}
	}
}

// openTestLink opens a link to the Firestore at host (the emulator's
// variable, as the library reads it) and closes it when the test ends.
func openTestLink(t *testing.T, host string) *link {
	t.Helper()
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	l, err := newLink()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.close() }) // teardown: a close error changes nothing here
	return l
}

// refuse holds addr while a server is down there: it accepts n connections
// and closes each at once, then frees the address.
func refuse(t *testing.T, addr string, n int) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }() // teardown: a close error changes nothing here
	// A client that never comes back fails the test rather than hangs it.
	if err := ln.(*net.TCPListener).SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		conn, err := ln.Accept()
		if err != nil {
			t.Fatalf("connection %d of %d to refuse on %s: %v", i+1, n, addr, err)
		}
		_ = conn.Close() // teardown: a close error changes nothing here
	}
}

func TestLinkSeesFirestoreLostAndBack(t *testing.T) {
	addr, stop := serveGRPC(t, "127.0.0.1:0")
	l := openTestLink(t, "http://"+addr) // the scheme is dropped, as the library does

	// The first connection is no outage, and no return either.
	first, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if l.await(first, true) {
		t.Fatal("the link lost Firestore on its first connection")
	}
	waitReady(t, l)
	if l.isDown() {
		t.Fatal("the link is down while it is ready")
	}

	// The server goes away: the link's next attempt to connect fails.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	gone := time.Now()
	stop()
	if !l.await(ctx, true) {
		t.Fatal("the link did not lose the server within 10 s")
	}
	if took := time.Since(gone); took > linkRetryMax {
		t.Fatalf("the link lost the server %v after it went, want within %v", took, linkRetryMax)
	} else {
		t.Logf("the link lost the server %v after it went", took.Round(time.Millisecond))
	}

	// It stays away long enough for the link to try 5 times and reach its
	// slowest pace, then comes back on the same address.
	returned := make(chan time.Time, 1)
	go func() {
		if l.await(ctx, false) {
			returned <- time.Now()
		}
		close(returned)
	}()
	refuse(t, addr, 5)
	select {
	case <-returned:
		t.Fatal("the link saw the server back while it was down")
	default:
	}
	if !l.isDown() {
		t.Fatal("the link is not down while the server is")
	}
	back := time.Now()
	serveGRPC(t, addr)
	select {
	case at, ok := <-returned:
		if !ok {
			t.Fatal("the link never saw the server back")
		}
		// Its next attempt is at most linkRetryMax and its jitter away.
		if took := at.Sub(back); took > linkRetryMax*6/5+time.Second {
			t.Fatalf("the link saw the server back after %v, want within about %v", took, linkRetryMax)
		} else {
			t.Logf("the link saw the server back after %v", took.Round(time.Millisecond))
		}
	case <-ctx.Done():
		t.Fatal("the link did not see the server come back within 10 s")
	}
}

func TestLinkIdleCloseIsNoOutage(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingListener{Listener: ln}
	// The server closes every connection that made no call for 100 ms;
	// the link opens another at once.
	serveOn(t, counted, grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: 100 * time.Millisecond}))
	l := openTestLink(t, ln.Addr().String())

	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	if l.await(ctx, true) {
		t.Fatal("the link lost Firestore when the server closed an idle connection")
	}
	if n := counted.accepted.Load(); n < 4 {
		t.Fatalf("the server had %d connections in 1.5 s, want the link to reconnect after each close (4 or more)", n)
	} else {
		t.Logf("%d connections, each closed as idle after 100 ms, and no outage", n)
	}
}
