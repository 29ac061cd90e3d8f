package news

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
)

// serveGRPC serves a gRPC server without services on addr ("127.0.0.1:0"
// for any port) and returns its address and a function that stops it.
func serveGRPC(t *testing.T, addr string) (string, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
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
	return ln.Addr().String(), stop
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

// refuse holds addr while a server is down there: it accepts n connections
// and closes each at once, then frees the address.
func refuse(t *testing.T, addr string, n int) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for range n {
		conn, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		conn.Close()
	}
}

func TestLinkSeesFirestoreReturn(t *testing.T) {
	addr, stop := serveGRPC(t, "127.0.0.1:0")
	t.Setenv("FIRESTORE_EMULATOR_HOST", "http://"+addr) // the scheme is dropped, as the library does
	l, err := newLink()
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()

	// The first connection is no return.
	first, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if l.waitReturn(first) {
		t.Fatal("waitReturn reported a return on the first connection")
	}
	waitReady(t, l)

	// The server goes away, long enough for the link to try 5 times and
	// reach its slowest pace, then comes back on the same address.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	returned := make(chan time.Time, 1)
	go func() {
		if l.waitReturn(ctx) {
			returned <- time.Now()
		}
		close(returned)
	}()
	stop()
	refuse(t, addr, 5)
	select {
	case <-returned:
		t.Fatal("waitReturn reported a return while the server was down")
	default:
	}
	back := time.Now()
	serveGRPC(t, addr)
	select {
	case at, ok := <-returned:
		if !ok {
			t.Fatal("waitReturn ended without a return")
		}
		// Its next attempt is at most linkRetryMax and its jitter away.
		if took := at.Sub(back); took > linkRetryMax*6/5+time.Second {
			t.Fatalf("the link saw the server back after %v, want within about %v", took, linkRetryMax)
		} else {
			t.Logf("the link saw the server back after %v", took.Round(time.Millisecond))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the link did not see the server come back within 10 s")
	}
}
