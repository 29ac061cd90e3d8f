// Package servetest runs real processes for tests: the serve-only binary,
// built once per test process, or any other command (the Firestore
// emulator's, nginx), started in a process group of its own, waited for
// until its output says it is ready, asked over HTTP, stopped with SIGTERM
// (killed when it does not end in time) and measured through /proc.
package servetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BinaryEnv names the variable that gives a serve-only binary already
// built (make passes build/bin/robohornets-server).
const BinaryEnv = "ROBOHORNETS_SERVER_BIN"

var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// Binary returns the serve-only binary: $ROBOHORNETS_SERVER_BIN, else one
// built from this checkout (CGO_ENABLED=0, with whatever frontend/dist
// holds) the first time a test of the process asks. Call Cleanup from
// TestMain to remove the built one.
func Binary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv(BinaryEnv); bin != "" {
		return bin
	}
	build.once.Do(func() { build.bin, build.err = buildBinary() })
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.bin
}

func buildBinary() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	build.dir, err = os.MkdirTemp("", "servetest-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(build.dir, "robohornets-server")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}

// Main runs a package's tests (call it from TestMain), then Cleanup.
func Main(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// Cleanup removes the binary Binary built, if it built one.
func Cleanup() {
	if build.dir != "" {
		_ = os.RemoveAll(build.dir)
	}
}

// Process is a command running in a process group of its own.
type Process struct {
	Cmd    *exec.Cmd
	exited chan struct{} // closed once the command has ended and err is set
	err    error
}

// Start starts cmd in a process group of its own and stops it when the
// test ends, as Stop does with grace.
func Start(t testing.TB, cmd *exec.Cmd, grace time.Duration) *Process {
	t.Helper()
	p, err := start(cmd, nil)
	if err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() {
		if !p.Ended() {
			if _, err := p.Stop(grace); err != nil {
				t.Error(err)
			}
		}
		p.KillGroup()
	})
	return p
}

// start starts cmd; the Process ends once cmd has and, when read is not
// nil, read is closed too (its output is read to the end).
func start(cmd *exec.Cmd, read <-chan struct{}) (*Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Process{Cmd: cmd, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		if read != nil {
			<-read
		}
		close(p.exited)
	}()
	return p, nil
}

// Exited is closed once the process has ended.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Ended reports whether the process has ended.
func (p *Process) Ended() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// Err waits for the process to end and returns what Wait returned: nil
// for exit status 0.
func (p *Process) Err() error {
	<-p.exited
	return p.err
}

// Killed reports whether the process, which has ended, ended by a signal.
func (p *Process) Killed() bool {
	<-p.exited
	return p.Cmd.ProcessState.ExitCode() == -1
}

// Kill sends SIGKILL to the process, as a crash would, and waits for it.
func (p *Process) Kill() {
	_ = p.Cmd.Process.Kill() // an error only says it has ended already
	<-p.exited
}

// ErrStopTimeout is a process that did not end within its grace after
// SIGTERM, and was killed.
var ErrStopTimeout = errors.New("did not end after SIGTERM")

// Stop sends SIGTERM, as systemd does, and waits grace for the process to
// end; then it kills it and returns ErrStopTimeout. Otherwise it returns
// how long the process took to end, and what Wait returned.
func (p *Process) Stop(grace time.Duration) (time.Duration, error) {
	sent := time.Now()
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.exited:
		return time.Since(sent), p.err
	case <-timer.C:
		p.KillGroup()
		return time.Since(sent), fmt.Errorf("%s %w within %v; killed", p.Cmd.Path, ErrStopTimeout, grace)
	}
}

// KillGroup sends SIGKILL to the process's whole group, as a crash would,
// ending what it left behind too, and waits for the process.
func (p *Process) KillGroup() {
	_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}

// Memory returns the process's resident memory now and its peak so far,
// in bytes, as the kernel counts them (VmRSS and VmHWM of
// /proc/PID/status).
func Memory(pid int) (rss, peak int64, err error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	field := func(name string) (int64, error) {
		for line := range strings.SplitSeq(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, name+":"); ok {
				kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				if err != nil {
					return 0, fmt.Errorf("/proc/%d/status: %s: %w", pid, name, err)
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

// Files returns how many file descriptors process pid holds open.
func Files(pid int) (int, error) {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(fds), err
}

// Memory is the process's memory, as Memory(pid) gives it.
func (p *Process) Memory() (rss, peak int64, err error) { return Memory(p.Cmd.Process.Pid) }

// Files is how many file descriptors the process holds, as Files(pid).
func (p *Process) Files() (int, error) { return Files(p.Cmd.Process.Pid) }

// Logged is a process whose standard output and error are read line by
// line: see Log.
type Logged struct {
	*Process
	log *lineLog
}

// LaunchOptions tune Launch.
type LaunchOptions struct {
	// Ready reports whether a line of the output (without its line end)
	// says the process is ready; it is called for each line, in order,
	// until it reports true. It must not be nil.
	Ready func(line []byte) bool
	// Timeout bounds the wait for a ready line; 0 waits until the process
	// ends.
	Timeout time.Duration
	// Keep says which lines Log keeps (each without its line end), called
	// after Ready; nil keeps every line.
	Keep func(line []byte) bool
}

// ErrExited is a process that ended before it said it was ready.
var ErrExited = errors.New("exited before it was ready")

// Launch starts cmd in a process group of its own, with its standard
// output and error read line by line (see Log), and returns once it is
// ready as opts.Ready says. When it ends first (ErrExited) or is not ready
// within opts.Timeout, Launch kills its group and returns the ended
// process, whose Log may say why, with the error; when it cannot start
// cmd, no process. A ready process is the caller's to stop: nothing stops
// it when a test ends, so it may outlive one.
func Launch(cmd *exec.Cmd, opts LaunchOptions) (*Logged, error) {
	log := &lineLog{keep: opts.Keep, ready: opts.Ready, readyc: make(chan struct{})}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	read := make(chan struct{})
	p, err := start(cmd, read)
	_ = pw.Close() // teardown: a close error changes nothing here
	if err != nil {
		_ = pr.Close() // teardown: a close error changes nothing here
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	go func() {
		defer close(read)
		defer func() { _ = pr.Close() }() // teardown: a close error changes nothing here
		log.read(pr)
	}()
	l := &Logged{Process: p, log: log}
	var timeout <-chan time.Time
	if opts.Timeout > 0 {
		timer := time.NewTimer(opts.Timeout)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case <-log.readyc:
		return l, nil
	case <-p.exited:
		err = fmt.Errorf("%w: %v", ErrExited, p.Cmd.ProcessState)
	case <-timeout:
		err = fmt.Errorf("not ready within %v", opts.Timeout)
	}
	p.KillGroup()
	return l, err
}

// Log returns the output lines kept so far, each ending in "\n"; once the
// process has ended (Exited), every line that LaunchOptions.Keep kept.
func (l *Logged) Log() string { return l.log.String() }

// Lines returns how many output lines the process has written.
func (l *Logged) Lines() int { return l.log.count() }

// Server is a `serve` process that listens.
type Server struct {
	*Logged
	URL  string // http://host:port, from its "serving" log line
	Addr string // host:port
}

// ServeOptions tune StartServe.
type ServeOptions struct {
	// Ready bounds the wait for the "serving" line; default 30 s.
	Ready time.Duration
	// Grace is how long the process may take to end after SIGTERM when
	// the test ends; default 15 s (serve's own shutdown grace and a little
	// more).
	Grace time.Duration
	// Keep says which log lines Log keeps (each without its line end);
	// nil keeps every line. A flood's access log is hundreds of megabytes.
	Keep func(line []byte) bool
}

// StartServe starts cmd, a `serve` command (or a test binary playing one)
// that writes its JSON log to standard output, and returns once it has
// logged the address it serves on ("message":"serving" with its "url"), so
// cmd should listen on port 0. Its standard output and error are read by
// the Server: see Log. It is stopped when the test ends, and then must
// exit with status 0 within Grace of SIGTERM.
func StartServe(t testing.TB, cmd *exec.Cmd, opts ServeOptions) *Server {
	t.Helper()
	if opts.Ready == 0 {
		opts.Ready = 30 * time.Second
	}
	if opts.Grace == 0 {
		opts.Grace = 15 * time.Second
	}
	var url string // written by the reading goroutine before Launch returns
	serving := func(line []byte) bool {
		var rec struct{ Message, URL string }
		if json.Unmarshal(line, &rec) == nil && rec.Message == "serving" && rec.URL != "" {
			url = rec.URL
			return true
		}
		return false
	}
	l, err := Launch(cmd, LaunchOptions{Ready: serving, Timeout: opts.Ready, Keep: opts.Keep})
	if l == nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatalf("serve %v; its log ends:\n%s", err, LastLines(l.Log(), 10))
	}
	t.Cleanup(func() {
		if !l.Ended() {
			if _, err := l.Stop(opts.Grace); err != nil {
				t.Errorf("serve, stopped as the test ended: %v; its log ends:\n%s", err, LastLines(l.Log(), 10))
			}
		}
		l.KillGroup()
	})
	return &Server{Logged: l, URL: url, Addr: strings.TrimPrefix(url, "http://")}
}

// WaitLive waits until the server's /healthz says its news is live,
// failing the test after timeout or when the process ends.
func (s *Server) WaitLive(t testing.TB, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for !s.Ended() && time.Now().Before(deadline) {
		res, err := http.Get(s.URL + "/healthz")
		if err == nil {
			var h struct{ Status string }
			err = json.NewDecoder(res.Body).Decode(&h)
			_ = res.Body.Close() // closing a read body cannot lose data
			if err == nil && res.StatusCode == http.StatusOK && h.Status == "live" {
				return
			}
			last = fmt.Sprintf("%s %+v %v", res.Status, h, err)
		} else {
			last = err.Error()
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("serve on %s not live within %v (last /healthz: %s); its log ends:\n%s", s.Addr, timeout, last, LastLines(s.Log(), 10))
}

// getClient bounds each request of Get, its body read included: a server
// that hangs fails the test then, not at the test binary's deadline.
var getClient = &http.Client{Timeout: 10 * time.Second}

// Get requests url with header (nil for none) and returns the response
// and its whole body; a request or a read that fails, or takes more than
// 10 s, fails the test.
func Get(tb testing.TB, url string, header http.Header) (*http.Response, []byte) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	maps.Copy(req.Header, header)
	res, err := getClient.Do(req)
	if err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
	defer func() { _ = res.Body.Close() }() // closing a read body cannot lose data
	body, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
	return res, body
}

// LastLines returns the last n lines of s.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// lineLog reads a process's output line by line: it closes readyc at the
// first line ready accepts, and keeps the lines keep wants.
type lineLog struct {
	keep   func([]byte) bool
	ready  func([]byte) bool
	readyc chan struct{} // closed once ready has accepted a line

	mu    sync.Mutex
	kept  bytes.Buffer
	lines int
}

func (l *lineLog) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	found := false
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			line = bytes.TrimSuffix(line, []byte("\n"))
			if !found && l.ready(line) {
				found = true
				close(l.readyc)
			}
			l.mu.Lock()
			l.lines++
			if l.keep == nil || l.keep(line) {
				l.kept.Write(line)
				l.kept.WriteByte('\n')
			}
			l.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.kept.String()
}

func (l *lineLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lines
}
