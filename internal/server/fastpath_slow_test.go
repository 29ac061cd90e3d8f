//go:build slow

package server_test

import (
	"io"
	"testing"
	"time"
)

// TestFastPathCutsATricklingRequest sends a request's header a byte at a
// time, each well within the read deadline: the header as a whole gets 5 s
// (the server's read-header timeout) from its first byte, then the
// connection is closed.
func TestFastPathCutsATricklingRequest(t *testing.T) {
	e := newEnv(t, envConfig{})
	addr := serveOn(t, e)
	conn := dial(t, addr)
	_ = conn.SetDeadline(time.Time{}) // the server's deadline is the one under test
	start := time.Now()
	// The start of a request the fast path answers, then a header that
	// never ends.
	if _, err := io.WriteString(conn, "GET /favicon.svg HTTP/1.1\r\nX-Slow: "); err != nil {
		t.Fatal(err)
	}
	for time.Since(start) < 20*time.Second {
		if _, err := io.WriteString(conn, "a"); err != nil {
			break // closed by the server
		}
		time.Sleep(200 * time.Millisecond)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Fatal("the server answered a header that never ended")
	}
	if took := time.Since(start); took > 8*time.Second {
		t.Errorf("the trickling request was cut after %v, want about 5 s", took.Round(time.Second))
	}
}
