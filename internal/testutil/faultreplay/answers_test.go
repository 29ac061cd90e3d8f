package faultreplay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

func TestTruncatedAnswers(t *testing.T) {
	f := newFixture(t)
	_, whole := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk")
	tests := []struct {
		fault      Fault
		wantLength int64 // the Content-Length announced; -1 for none
	}{
		{Truncated, int64(len(whole))},
		{TruncatedChunked, -1},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			f.Server.SetFault("tba", tt.fault)
			resp, err := f.Do(context.Background(), replaytest.TBAPath, "X-TBA-Auth-Key", "tk")
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
			if resp.StatusCode != 200 || resp.ContentLength != tt.wantLength {
				t.Fatalf("status %d, Content-Length %d; want 200 and %d", resp.StatusCode, resp.ContentLength, tt.wantLength)
			}
			body, err := io.ReadAll(resp.Body)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("reading the body: %v, want an unexpected EOF", err)
			}
			if string(body) != string(whole[:len(whole)/2]) {
				t.Fatalf("got %d bytes %.40q…, want the first half of the %d-byte answer", len(body), body, len(whole))
			}
		})
	}
}

func TestHugeAnswerIsStreamed(t *testing.T) {
	f := newFixture(t)
	f.Server.SetFault("", Huge)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := f.Do(context.Background(), replaytest.TBAPath, "X-TBA-Auth-Key", "tk")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
	// Read through a small buffer, keeping only both ends: neither side of
	// the test may hold 50 MiB.
	var head, tail []byte
	n, err := io.CopyBuffer(writerFunc(func(p []byte) (int, error) {
		if len(head) < 16 {
			head = append(head, p[:min(len(p), 16-len(head))]...)
		}
		tail = append(tail[:0], p[max(0, len(p)-2):]...)
		return len(p), nil
	}), resp.Body, make([]byte, 32<<10))
	runtime.ReadMemStats(&after)
	if err != nil || n != 50<<20 || resp.ContentLength != n {
		t.Fatalf("read %d bytes (Content-Length %d), %v; want 50 MiB", n, resp.ContentLength, err)
	}
	if !strings.HasPrefix(string(head), `{"pad":"xxxxxxx`) || string(tail) != `"}` {
		t.Fatalf("body %q … %q, want one JSON object", head, tail)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("serving and reading 50 MiB allocated %d MiB: the answer is not streamed", grew>>20)
	}
}

// TestBrokenAnswersAndTBACaching: an answer broken on purpose carries no
// ETag and is never a 304, whatever the client holds; a slow one is the
// ordinary answer, late, 304 included; and a refused key is refused
// plainly, as upstream checks the key first.
func TestBrokenAnswersAndTBACaching(t *testing.T) {
	f := newFixture(t)
	resp, whole := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk")
	etag := resp.Header.Get("ETag")
	f.Server.SetFault(frcapi.TBA, Malformed)
	resp, body := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk", "If-None-Match", etag)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") != "" || resp.Header.Get("Cache-Control") != "" || string(body) != string(whole[:len(whole)/2]) {
		t.Fatalf("malformed with If-None-Match: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	if resp, body := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "wrong"); resp.StatusCode != 403 || !json.Valid(body) {
		t.Fatalf("malformed with a wrong key: %d %q, want TBA's whole 403", resp.StatusCode, body)
	}

	f.Server.SetFault(frcapi.TBA, Slow)
	got := make(chan int, 1)
	go func() {
		resp, err := f.Do(context.Background(), replaytest.TBAPath, "X-TBA-Auth-Key", "tk", "If-None-Match", etag)
		if err != nil {
			got <- 0
			return
		}
		_ = resp.Body.Close() // closing a read body cannot lose data
		got <- resp.StatusCode
	}()
	f.Clock.BlockUntilWaiters(1)
	f.Clock.Advance(30 * time.Second)
	if code := <-got; code != 304 {
		t.Fatalf("slow with a matching If-None-Match: %d, want 304 after the delay", code)
	}
}

// writerFunc is an io.Writer made of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
