//go:build unix && slow

package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/servetest"
	"github.com/robohornets/robohornets/internal/testutil/ssetest"
)

// needFiles makes sure this process may open n files, raising its soft
// limit up to the hard one if need be, and skips the test when even the
// hard limit is lower.
func needFiles(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if uint64(lim.Cur) >= n {
		return
	}
	if uint64(lim.Max) < n {
		t.Skipf("needs %d open files; the hard limit is %d (ulimit -Hn)", n, lim.Max)
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
}

// openStream opens the live news stream at base and reads its first event
// (the list of articles), which the server writes once the stream is live.
// It returns the stream's reader, past that event.
func openStream(base string) (net.Conn, *ssetest.Reader, error) {
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		return nil, nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second)) // a test that hangs says so
	req, _ := http.NewRequest(http.MethodGet, base+"/api/news/stream", nil)
	req.Header.Set("Accept", "text/event-stream")
	if err := req.Write(conn); err != nil {
		_ = conn.Close() // teardown: a close error changes nothing here
		return nil, nil, err
	}
	r := bufio.NewReader(conn)
	res, err := http.ReadResponse(r, req)
	if err != nil {
		_ = conn.Close() // teardown: a close error changes nothing here
		return nil, nil, err
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		_ = conn.Close() // teardown: a close error changes nothing here
		return nil, nil, fmt.Errorf("stream answered %s, %q", res.Status, res.Header.Get("Content-Type"))
	}
	// The stream's response is delimited by the end of the connection, so
	// the connection's own reader is the body's.
	events := ssetest.NewReader(r, ssetest.SkipComments)
	for {
		ev, err := events.Next()
		if err != nil {
			_ = conn.Close() // teardown: a close error changes nothing here
			return nil, nil, fmt.Errorf("before the first event: %w", err)
		}
		if ev.Type == "news" {
			return conn, events, nil
		}
	}
}

// readToEnd reads r's events to the end of its stream: nil when the stream
// ended between events.
func readToEnd(r *ssetest.Reader) error {
	for {
		if _, err := r.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// TestServeShutsDownWithManyStreams sends SIGTERM to serve while 1,000
// viewers hold the live news stream open: it must end every stream by
// closing its connection (no reset, no half event), log a clean stop and
// exit 0 within 10 s.
func TestServeShutsDownWithManyStreams(t *testing.T) {
	const viewers = 1000
	needFiles(t, viewers+256)
	data := t.TempDir()
	cmd := programCmd(t, "serve", "--data", data, "--listen", "127.0.0.1:0", "--event", "off",
		"--site-url", "http://127.0.0.1", "--max-streams", "2000", "--max-streams-per-client", "0")
	srv := servetest.StartServe(t, cmd, servetest.ServeOptions{Ready: 20 * time.Second})
	base := srv.URL

	// Open the streams, a few dozen at a time, each live once it has its
	// first event.
	conns := make([]net.Conn, viewers)
	readers := make([]*ssetest.Reader, viewers)
	errs := make([]error, viewers)
	var wg sync.WaitGroup
	next := make(chan int)
	for range 50 {
		wg.Go(func() {
			for i := range next {
				conns[i], readers[i], errs[i] = openStream(base)
			}
		})
	}
	for i := range viewers {
		next <- i
	}
	close(next)
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range conns {
			if c != nil {
				_ = c.Close() // teardown: a close error changes nothing here
			}
		}
	})
	if first := slices.IndexFunc(errs, func(err error) bool { return err != nil }); first >= 0 {
		t.Fatalf("opening %d streams: stream %d: %v", viewers, first, errs[first])
	}

	// Every viewer reads on to the end of its stream; then SIGTERM, timed
	// by Stop.
	endedAt := make([]time.Time, viewers)
	for i := range viewers {
		wg.Go(func() {
			errs[i] = readToEnd(readers[i])
			endedAt[i] = time.Now()
		})
	}
	sent := time.Now()
	took, err := srv.Stop(15 * time.Second)
	if errors.Is(err, servetest.ErrStopTimeout) {
		t.Fatalf("serve still ran 15 s after SIGTERM; its log ends:\n%s", servetest.LastLines(srv.Log(), 10))
	}
	if err != nil {
		t.Errorf("serve exited with %v, want status 0; its log ends:\n%s", err, servetest.LastLines(srv.Log(), 10))
	}
	if took > 10*time.Second {
		t.Errorf("serve took %v to exit after SIGTERM, want at most 10 s", took)
	}
	t.Logf("serve exited %v after SIGTERM with %d live streams", took, viewers)
	wg.Wait()
	var last time.Duration
	for i := range viewers {
		// The server closed the connection between events. A reset, a
		// timeout or the end of the connection within an event is an error.
		if errs[i] != nil {
			t.Errorf("stream %d ended with %v, want the end of the connection between events", i, errs[i])
		}
		last = max(last, endedAt[i].Sub(sent))
		if t.Failed() {
			break
		}
	}
	t.Logf("the last of the %d streams ended %v after SIGTERM", viewers, last)

	// The log is read to its end: the process has ended.
	log := srv.Log()
	for _, want := range []string{`"message":"shutting down`, `"message":"shut down: every request and live stream ended"`} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %s", want)
		}
	}
	for _, line := range strings.Split(log, "\n") {
		// The local store's one warning at start is expected.
		if strings.Contains(line, `"message":"the local store is for a single instance`) {
			continue
		}
		if strings.Contains(line, `"severity":"ERROR"`) || strings.Contains(line, `"severity":"WARNING"`) || strings.HasPrefix(line, "robohornets: ") {
			t.Errorf("the log has a complaint: %s", line)
		}
	}
}
