package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the flusher and the test at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogBufferWritesLinesSoonAndAllOnClose(t *testing.T) {
	var out lockedBuffer
	b := newLogBuffer(&out)
	_, _ = b.Write([]byte("first\n"))
	deadline := time.Now().Add(10 * logFlushEvery)
	for out.String() != "first\n" {
		if time.Now().After(deadline) {
			t.Fatalf("a buffered line did not reach the log within %v: %q", 10*logFlushEvery, out.String())
		}
		time.Sleep(logFlushEvery / 4)
	}
	many := strings.Repeat("x", 100) + "\n"
	for range 1000 {
		_, _ = b.Write([]byte(many))
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "first\n"+strings.Repeat(many, 1000); got != want {
		t.Errorf("after Close the log holds %d bytes, want %d", len(got), len(want))
	}
}
