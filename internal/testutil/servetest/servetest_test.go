package servetest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeEnv makes this test binary play a serve process: it logs a serving
// line and a warning, then ends with status 0 at SIGTERM, or ignores it
// when its value is "stubborn".
const fakeEnv = "SERVETEST_FAKE_SERVE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM)
		fmt.Println(`{"severity":"INFO","message":"starting"}`)
		fmt.Println(`{"severity":"INFO","message":"serving","url":"http://127.0.0.1:1209"}`)
		fmt.Fprintln(os.Stderr, `{"severity":"WARNING","message":"careful"}`)
		for range signals {
			if mode != "stubborn" {
				os.Exit(0)
			}
		}
	}
	Main(m)
}

func fake(t *testing.T, mode string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), fakeEnv+"="+mode)
	return cmd
}

func TestStartServeAndStop(t *testing.T) {
	s := StartServe(t, fake(t, "polite"), ServeOptions{Keep: func(line []byte) bool { return !strings.Contains(string(line), `"INFO"`) }})
	if s.URL != "http://127.0.0.1:1209" || s.Addr != "127.0.0.1:1209" {
		t.Fatalf("URL %q, Addr %q", s.URL, s.Addr)
	}
	if rss, peak, err := s.Memory(); err != nil || rss <= 0 || peak < rss {
		t.Errorf("Memory = %d, %d, %v; want a positive resident size at most its peak", rss, peak, err)
	}
	if n, err := s.Files(); err != nil || n < 3 {
		t.Errorf("Files = %d, %v; want at least standard input, output and error", n, err)
	}
	took, err := s.Stop(10 * time.Second)
	if err != nil || took > 10*time.Second {
		t.Fatalf("Stop = %v, %v; want status 0 at once", took, err)
	}
	if s.Killed() {
		t.Error("Killed after a clean exit")
	}
	// The log is read to its end once the process has ended.
	if got, want := s.Log(), "{\"severity\":\"WARNING\",\"message\":\"careful\"}\n"; got != want || s.Lines() != 3 {
		t.Errorf("Log = %q of %d lines, want %q of 3", got, s.Lines(), want)
	}
}

func TestStopKillsAStubbornProcess(t *testing.T) {
	// Once it has logged its serving line, its handler is installed.
	p := StartServe(t, fake(t, "stubborn"), ServeOptions{})
	if _, err := p.Stop(200 * time.Millisecond); !errors.Is(err, ErrStopTimeout) {
		t.Fatalf("Stop = %v, want ErrStopTimeout", err)
	}
	if !p.Ended() || !p.Killed() {
		t.Fatal("the stubborn process still runs, or ended by itself")
	}
}

func TestKill(t *testing.T) {
	p := Start(t, fake(t, "polite"), time.Second)
	p.Kill()
	if !p.Killed() || p.Err() == nil {
		t.Fatalf("after Kill: killed %v, err %v", p.Killed(), p.Err())
	}
}

// TestLaunchThatIsNeverReady: a process that ends before its ready line,
// or does not write one in time, is ended and its output kept.
func TestLaunchThatIsNeverReady(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	never := func([]byte) bool { return false }
	tests := []struct {
		name     string
		cmd      *exec.Cmd
		timeout  time.Duration
		wantErr  string
		exited   bool
		wantLine string // in its output; "" when it may be killed before it writes a line
	}{
		{"ends first", exec.Command(exe, "-test.run=^$"), 0, "exited before it was ready: exit status 0", true, "PASS"},
		{"not in time", fake(t, "stubborn"), 200 * time.Millisecond, "not ready within 200ms", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Launch(tt.cmd, LaunchOptions{Ready: never, Timeout: tt.timeout})
			if l == nil || err == nil || err.Error() != tt.wantErr || errors.Is(err, ErrExited) != tt.exited {
				t.Fatalf("Launch = %v, %v; want a process and %q (ErrExited: %v)", l, err, tt.wantErr, tt.exited)
			}
			if !l.Ended() || !strings.Contains(l.Log(), tt.wantLine) {
				t.Errorf("after Launch: ended %v, log %q; want ended, with %s", l.Ended(), l.Log(), tt.wantLine)
			}
		})
	}
}

func TestMemoryOfThisProcess(t *testing.T) {
	rss, peak, err := Memory(os.Getpid())
	if err != nil || rss < 1<<20 || peak < rss {
		t.Fatalf("Memory = %d, %d, %v; want a resident size of a MB or more, at most its peak", rss, peak, err)
	}
	if _, _, err := Memory(-1); err == nil {
		t.Fatal("Memory of no process: no error")
	}
}

func TestGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.Method+" "+r.Header.Get("X-Test"))
	}))
	defer srv.Close()
	if res, body := Get(t, srv.URL, http.Header{"X-Test": {"sent"}}); res.StatusCode != http.StatusOK || string(body) != "GET sent" {
		t.Errorf("Get = %s %q, want 200 %q", res.Status, body, "GET sent")
	}
	if res, body := Get(t, srv.URL, nil); res.StatusCode != http.StatusOK || string(body) != "GET " {
		t.Errorf("Get without a header = %s %q, want 200 %q", res.Status, body, "GET ")
	}
}

func TestLastLines(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc"},
		{"a\nb\nc", 2, "b\nc"},
		{"a\n", 5, "a"},
		{"", 3, ""},
	}
	for _, tt := range tests {
		if got := LastLines(tt.in, tt.n); got != tt.want {
			t.Errorf("LastLines(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
