package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/syncbuf"
)

func TestLogBufferWritesLinesSoonAndAllOnClose(t *testing.T) {
	var out syncbuf.Buffer
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
