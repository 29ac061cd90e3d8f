//go:build reliability

package reliability

import (
	"bytes"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/servetest"
)

const (
	// startTimeout bounds serve's start: listening, and its news live.
	startTimeout = 30 * time.Second
	// stopGrace is how long serve may take to end after SIGTERM: its own
	// shutdown grace (internal/cli/serve.go) and a little more.
	stopGrace = 15 * time.Second
	// maxKept bounds the warnings kept of serve's log: a failing flood can
	// log one per request.
	maxKept = 200
)

func TestMain(m *testing.M) { servetest.Main(m) }

// serve is one `serve` process on a free loopback port, over the local
// store with its sample articles and with event data off (no internet here).
type serve struct {
	*servetest.Server
	url  string // http://127.0.0.1:port
	addr string // 127.0.0.1:port
}

// startServe starts serve as production runs it, its access log on at the
// info level, and returns once its /healthz says the news store is live. It
// is stopped with SIGTERM when the test ends, and must then exit 0 within
// stopGrace.
func startServe(t *testing.T) *serve {
	t.Helper()
	// Port 0: serve takes a free port and logs it; a port chosen beforehand
	// may be taken by then on a busy machine.
	cmd := exec.Command(servetest.Binary(t), "serve", "--listen", "127.0.0.1:0", "--site-url", "https://robohornets.example",
		"--data", filepath.Join(t.TempDir(), "data"), "--event", "off")
	// The access log of a flood is hundreds of megabytes: only the
	// warnings and errors are kept (the access log is info; a line that is
	// not JSON is a crash).
	kept := 0
	keep := func(line []byte) bool {
		if bytes.Contains(line, []byte(`"severity":"INFO"`)) || kept == maxKept {
			return false
		}
		kept++
		return true
	}
	s := servetest.StartServe(t, cmd, servetest.ServeOptions{Ready: startTimeout, Grace: stopGrace, Keep: keep})
	s.WaitLive(t, startTimeout)
	return &serve{Server: s, url: s.URL, addr: s.Addr}
}

// alive fails the test when serve has ended.
func (s *serve) alive(t *testing.T) {
	t.Helper()
	if s.Ended() {
		t.Fatalf("serve ended (%v); its warnings:\n%s", s.Err(), s.Log())
	}
}

// memory is serve's resident memory now and its peak so far, in bytes.
func (s *serve) memory(t *testing.T) (rss, peak int64) {
	t.Helper()
	rss, peak, err := s.Memory()
	if err != nil {
		t.Fatalf("serve's memory: %v", err)
	}
	return rss, peak
}

// files is how many file descriptors serve holds open: its connections and
// a handful of its own.
func (s *serve) files(t *testing.T) int {
	t.Helper()
	n, err := s.Files()
	if err != nil {
		t.Fatalf("serve's file descriptors: %v", err)
	}
	return n
}

// mark returns how many warnings are kept now, for warnings(mark) to list
// only the later ones.
func (s *serve) mark() int { return strings.Count(s.Log(), "\n") }

// warnings returns the warnings and errors kept since mark, one a line.
func (s *serve) warnings(mark int) string {
	lines := strings.Split(strings.TrimSuffix(s.Log(), "\n"), "\n")
	return strings.Join(lines[min(mark, len(lines)):], "\n")
}

// get requests path from serve once and returns its body; anything but a
// 200 fails the test.
func (s *serve) get(t *testing.T, path string) []byte {
	t.Helper()
	res, body := servetest.Get(t, s.url+path, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, res.Status)
	}
	return body
}

// mb formats bytes in MB of 10⁶ bytes, as the docs give memory.
func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }

// ms formats a latency in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
