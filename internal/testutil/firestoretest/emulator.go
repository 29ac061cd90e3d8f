// Package firestoretest runs Google's Firestore emulator for tests: the real
// one, from the Debian package google-cloud-cli-firestore-emulator. Tests
// that use it fail, never skip, when it cannot start: it is part of this
// machine kind.
//
// A run of many packages shares one emulator: cmd/withemulator starts it
// and names it in [SharedHostEnv], and each package's [Emulator] uses it
// instead of booting a JVM of its own. Packages do not see each other's
// data because every test works in a project of its own ([FreshProject]).
// Run alone (go test -tags emulator ./internal/news), a package starts its
// own emulator.
package firestoretest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/robohornets/robohornets/internal/testutil/servetest"
)

// DefaultJar is where Debian's google-cloud-cli-firestore-emulator package
// puts the emulator; the FIRESTORE_EMULATOR_JAR variable overrides it.
const DefaultJar = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar"

// readyTimeout bounds the emulator's start (a cold JVM on a busy machine).
const readyTimeout = 90 * time.Second

// SharedHostEnv names the variable that gives the host:port of an emulator
// already running for the whole run (cmd/withemulator sets it). An
// [Emulator] uses it unless it is [Emulator.Own].
const SharedHostEnv = "ROBOHORNETS_FIRESTORE_EMULATOR_HOST"

// Emulator is one emulator shared by the tests of a package, started on
// first use in its own process group, or the run's shared one when
// [SharedHostEnv] names it. Its zero value is ready to use; call Stop from
// TestMain once the tests are done. A test may Kill it and Restart it on
// the same address, to play an outage of Firestore, if it is Own.
type Emulator struct {
	// Own starts this emulator even when [SharedHostEnv] names a shared
	// one: for the tests that Kill or Restart it, which would take the
	// shared one from every other package of the run. Set it before the
	// first Start.
	Own bool

	once   sync.Once
	mu     sync.Mutex // guards proc across Kill, Restart and Stop
	proc   *servetest.Logged
	host   string
	shared bool // host is the run's shared emulator, which Stop leaves running
	err    error
}

// Start returns the emulator's host:port, starting it the first time; it
// fails the test when the emulator cannot start.
func (e *Emulator) Start(tb testing.TB) string {
	tb.Helper()
	host, err := e.Run()
	if err != nil {
		tb.Fatalf("firestore emulator: %v", err)
	}
	return host
}

// Run is Start for a program rather than a test (cmd/withemulator): it
// returns the emulator's host:port, starting it the first time, or why it
// could not.
func (e *Emulator) Run() (string, error) {
	e.once.Do(func() {
		if host := os.Getenv(SharedHostEnv); host != "" && !e.Own {
			e.host, e.shared, e.err = host, true, answers(host)
			return
		}
		e.host, e.err = e.launch()
	})
	return e.host, e.err
}

// answers checks that the shared emulator at host accepts connections, so
// that a stale SharedHostEnv fails at once and says so, rather than as
// every test's request timing out.
func answers(host string) error {
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		return fmt.Errorf("the shared emulator %s=%s does not answer: %w", SharedHostEnv, host, err)
	}
	return conn.Close()
}

// jarPath returns the emulator's jar, checking that it is there.
func jarPath() (string, error) {
	jar := os.Getenv("FIRESTORE_EMULATOR_JAR")
	if jar == "" {
		jar = DefaultJar
	}
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("%w (install the Debian package google-cloud-cli-firestore-emulator or set FIRESTORE_EMULATOR_JAR)", err)
	}
	return jar, nil
}

func (e *Emulator) launch() (string, error) {
	jar, err := jarPath()
	if err != nil {
		return "", err
	}
	// The port is chosen before the emulator binds it, so on a busy machine
	// something else may take it first: then the emulator exits, and another
	// port is tried.
	for attempt := 1; ; attempt++ {
		host, err := e.launchOn(jar)
		if errors.Is(err, servetest.ErrExited) && attempt < 3 {
			continue
		}
		return host, err
	}
}

func (e *Emulator) launchOn(jar string) (string, error) {
	port, err := FreePort()
	if err != nil {
		return "", err
	}
	host := fmt.Sprintf("127.0.0.1:%d", port)
	return host, e.launchAt(jar, port)
}

// launchAt starts the emulator on 127.0.0.1:port, with the extra flags of
// its start command, and waits until it is ready.
func (e *Emulator) launchAt(jar string, port int, extra ...string) error {
	args := append([]string{"-cp", jar, "com.google.cloud.datastore.emulator.firestore.CloudFirestore",
		"start", "--host=127.0.0.1", fmt.Sprintf("--port=%d", port)}, extra...)
	// Its output is kept only until it is ready: it tells why a start
	// failed, and after that nobody reads it.
	started := false
	proc, err := servetest.Launch(exec.Command("java", args...), servetest.LaunchOptions{
		Ready: func(line []byte) bool {
			started = bytes.Contains(line, []byte("Dev App Server is now running"))
			return started
		},
		Timeout: readyTimeout,
		Keep:    func([]byte) bool { return !started },
	})
	if proc == nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("emulator %w:\n%s", err, proc.Log())
	}
	e.mu.Lock()
	e.proc = proc
	e.mu.Unlock()
	return nil
}

// RulesProject returns a project no other test uses, as FreshProject does,
// in which the emulator judges the requests of clients by the Firestore
// security rules file rules (see firestore.rules at the repository's root).
// The rules are the project's alone, loaded through the emulator's own
// endpoint, so that one emulator serves tests with rules and without:
// a project without rules allows every request. Requests with admin
// credentials, as the Go client library sends to an emulator, bypass the
// rules. It fails the test when the rules cannot be read or loaded.
func (e *Emulator) RulesProject(tb testing.TB, rules string) string {
	tb.Helper()
	host := e.Start(tb)
	source, err := os.ReadFile(rules)
	if err != nil {
		tb.Fatalf("firestore emulator: rules: %v", err)
	}
	project := FreshProject(tb)
	body, err := json.Marshal(map[string]any{"rules": map[string]any{
		"files": []map[string]string{{"name": filepath.Base(rules), "content": string(source)}},
	}})
	if err != nil {
		tb.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPut, "http://"+host+"/emulator/v1/projects/"+project+":securityRules", bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := noKeepAlive.Do(req)
	if err != nil {
		tb.Fatalf("firestore emulator: load the rules %s: %v", rules, err)
	}
	answer, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close() // closing a read body cannot lose data
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("firestore emulator: load the rules %s: %s: %s", rules, resp.Status, answer)
	}
	return project
}

// noKeepAlive keeps no idle connection, so no goroutine outlives a test
// (Main looks for leaks).
var noKeepAlive = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}

// Kill ends the emulator's whole process group with SIGKILL, as a crash or
// a pulled cable would: no goodbye to its clients, and its data, held in
// memory only, is gone. It returns once the process has exited, and does
// nothing when the emulator is not running. It panics on the shared
// emulator, which is not the package's to kill: set Own.
func (e *Emulator) Kill() {
	if e.shared {
		panic("firestoretest: Kill on the run's shared emulator; an emulator that is killed must be Own")
	}
	e.mu.Lock()
	proc := e.proc
	e.proc = nil
	e.mu.Unlock()
	if proc != nil {
		proc.KillGroup()
	}
}

// Export writes every document of project to a new directory through the
// emulator's own export endpoint, and returns the export's metadata file
// for Restart. The emulator keeps its data in memory only: an export taken
// just before Kill is the data a real Firestore would still hold after an
// outage. It fails the test when the export fails.
func (e *Emulator) Export(tb testing.TB, project string) string {
	tb.Helper()
	host := e.Start(tb)
	dir := tb.TempDir()
	body, err := json.Marshal(map[string]string{"database": "projects/" + project + "/databases/(default)", "export_directory": dir})
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := http.Post("http://"+host+"/emulator/v1/projects/"+project+":export", "application/json", bytes.NewReader(body))
	if err != nil {
		tb.Fatalf("firestore emulator: export: %v", err)
	}
	answer, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close() // closing a read body cannot lose data
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("firestore emulator: export: %s: %s", resp.Status, answer)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.overall_export_metadata"))
	if err != nil || len(files) != 1 {
		tb.Fatalf("firestore emulator: export wrote %v (%v), want one metadata file", files, err)
	}
	return files[0]
}

// Restart starts the emulator again on the host:port it had, after Kill,
// and returns once it is ready; it fails the test when it cannot. It starts
// with the documents of data, a file Export returned, or empty when data
// is "".
func (e *Emulator) Restart(tb testing.TB, data string) {
	tb.Helper()
	host := e.Start(tb)
	e.Kill()
	_, portText, err := net.SplitHostPort(host)
	if err != nil {
		tb.Fatalf("firestore emulator: %v", err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		tb.Fatalf("firestore emulator: port %q: %v", portText, err)
	}
	var extra []string
	if data != "" {
		extra = append(extra, "--import-data="+data)
	}
	jar, err := jarPath()
	if err == nil {
		err = e.launchAt(jar, port, extra...)
	}
	if err != nil {
		tb.Fatalf("firestore emulator: restart on %s: %v", host, err)
	}
}

// Stop kills the emulator's process group, if it is running and its own;
// the shared emulator is left to the program that started it.
func (e *Emulator) Stop() {
	if !e.shared {
		e.Kill()
	}
}

// FreePort returns a TCP port of 127.0.0.1 that nothing listens on now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }() // teardown: a close error changes nothing here
	return l.Addr().(*net.TCPAddr).Port, nil
}

// FreshProject returns a project id no other test uses, so each test starts
// with an empty database.
func FreshProject(tb testing.TB) string {
	tb.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "test-" + hex.EncodeToString(b)
}

// Main runs a package's tests (call it from TestMain), stops e, and fails the
// run when the tests passed but left goroutines behind: every watcher, hub,
// server and client a test started must be gone. gRPC's callback
// serializer is ignored; it ends a moment after its connection closes.
func Main(m *testing.M, e *Emulator) {
	code := m.Run()
	e.Stop()
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreTopFunction("google.golang.org/grpc/internal/grpcsync.(*CallbackSerializer).run")); err != nil {
			_, _ = os.Stderr.WriteString("goroutine leak: " + err.Error() + "\n") // the exit code fails the run anyway
			code = 1
		}
	}
	os.Exit(code)
}
