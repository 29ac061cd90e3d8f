//go:build reliability

package reliability

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	// startTimeout bounds serve's start: listening, and its news live.
	startTimeout = 30 * time.Second
	// stopGrace is how long serve may take to end after SIGTERM: its own
	// shutdown grace (internal/cli/serve.go) and a little more.
	stopGrace = 15 * time.Second
)

// serverBinary returns the serve-only binary: $ROBOHORNETS_SERVER_BIN (make
// reliability passes build/bin/robohornets-server), else one built now from
// this checkout with whatever frontend/dist holds.
func serverBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("ROBOHORNETS_SERVER_BIN"); bin != "" {
		return bin
	}
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "robohornets-server")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	build.Dir = filepath.Dir(strings.TrimSpace(string(root)))
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serve is one `serve` process on a free loopback port, over the local
// store with its sample articles and with event data off (no internet here).
type serve struct {
	url    string // http://127.0.0.1:port
	addr   string // 127.0.0.1:port
	cmd    *exec.Cmd
	exited chan struct{} // closed once the process has ended
	log    *logWatch
}

// startServe starts serve as production runs it, its access log on at the
// info level, and returns once its /healthz says the news store is live. It
// is stopped when the test ends.
func startServe(t *testing.T, bin string) *serve {
	t.Helper()
	s := &serve{log: &logWatch{listening: make(chan string, 1)}, exited: make(chan struct{})}
	// Port 0: serve takes a free port and logs it; a port chosen beforehand
	// may be taken by then on a busy machine.
	s.cmd = exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--site-url", "https://robohornets.example",
		"--data", filepath.Join(t.TempDir(), "data"), "--event", "off")
	// The access log of a flood is hundreds of megabytes: it goes through
	// a pipe to logWatch, which keeps only the warnings, rather than to disk.
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	go func() {
		_ = s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case s.addr = <-s.log.listening:
		s.url = "http://" + s.addr
	case <-s.exited:
		t.Fatalf("serve ended before listening; its log:\n%s", s.log.warnings(0))
	case <-time.After(startTimeout):
		t.Fatalf("serve not listening within %v", startTimeout)
	}
	deadline := time.Now().Add(startTimeout)
	for {
		res, err := http.Get(s.url + "/healthz")
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK && bytes.Contains(body, []byte(`"status":"live"`)) {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve's news not live within %v (last /healthz: %v)", startTimeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop ends serve with SIGTERM, as systemd does, and checks that it shuts
// down cleanly within stopGrace.
func (s *serve) stop(t *testing.T) {
	select {
	case <-s.exited:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
		if code := s.cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("serve exited %d after SIGTERM, want 0", code)
		}
	case <-time.After(stopGrace):
		t.Errorf("serve did not end within %v of SIGTERM; killing it", stopGrace)
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// alive fails the test when serve has ended.
func (s *serve) alive(t *testing.T) {
	t.Helper()
	select {
	case <-s.exited:
		t.Fatalf("serve ended (%v); its warnings:\n%s", s.cmd.ProcessState, s.log.warnings(0))
	default:
	}
}

// memory is serve's resident memory now and its peak so far, in bytes.
func (s *serve) memory(t *testing.T) (rss, peak int64) {
	t.Helper()
	rss, peak, err := memoryOf(s.cmd.Process.Pid)
	if err != nil {
		t.Fatalf("serve's memory: %v", err)
	}
	return rss, peak
}

// memoryOf is the resident memory of process pid now and its peak so far,
// in bytes, as the kernel counts them (VmRSS and VmHWM of /proc/PID/status).
func memoryOf(pid int) (rss, peak int64, err error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	field := func(name string) (int64, error) {
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, name+":"); ok {
				kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				if err != nil {
					return 0, fmt.Errorf("%s: %w", name, err)
				}
				return kb << 10, nil
			}
		}
		return 0, fmt.Errorf("no %s in /proc/%d/status", name, pid)
	}
	if rss, err = field("VmRSS"); err != nil {
		return 0, 0, err
	}
	if peak, err = field("VmHWM"); err != nil {
		return 0, 0, err
	}
	return rss, peak, nil
}

// files is how many file descriptors serve holds open: its connections and
// a handful of its own.
func (s *serve) files(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", s.cmd.Process.Pid))
	if err != nil {
		t.Fatalf("serve's file descriptors: %v", err)
	}
	return len(fds)
}

// get requests path from serve once and returns its body; anything but a
// 200 fails the test.
func (s *serve) get(t *testing.T, path string) []byte {
	t.Helper()
	res, err := http.Get(s.url + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, res.Status)
	}
	return body
}

// logWatch reads serve's JSON log as it is written: it finds the address
// serve listens on and keeps the warnings and errors, dropping the rest
// (the access log) at once.
type logWatch struct {
	listening chan string // receives serve's address once

	mu      sync.Mutex
	partial []byte   // the start of a line not yet ended
	kept    []string // warnings and errors, at most maxKept
	lines   int      // every line seen
	found   bool
}

// maxKept bounds the warnings logWatch keeps: a failing flood can log one
// per request.
const maxKept = 200

// servingAddr finds the address in serve's "serving" line.
var servingAddr = regexp.MustCompile(`"msg":"serving","url":"http://([^"]+)"`)

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rest := p
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			w.partial = append(w.partial, rest...)
			return len(p), nil
		}
		line := rest[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = w.partial[:0]
		}
		rest = rest[i+1:]
		w.lines++
		if !w.found {
			if m := servingAddr.FindSubmatch(line); m != nil {
				w.found = true
				w.listening <- string(m[1])
			}
		}
		// The access log is info; a line that is not JSON is a crash.
		if !bytes.Contains(line, []byte(`"level":"INFO"`)) && len(w.kept) < maxKept {
			w.kept = append(w.kept, string(line))
		}
	}
}

// mark returns how many warnings are kept now, for warnings(mark) to list
// only the later ones.
func (w *logWatch) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.kept)
}

// warnings returns the warnings and errors kept since mark, one a line.
func (w *logWatch) warnings(mark int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.kept[mark:], "\n")
}

// logged returns how many log lines serve has written.
func (w *logWatch) logged() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lines
}

// mb formats bytes in MB of 10⁶ bytes, as the docs give memory.
func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }

// ms formats a latency in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
