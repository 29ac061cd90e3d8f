// Package firestoretest runs Google's Firestore emulator for tests: the real
// one, from the Debian package google-cloud-cli-firestore-emulator. Tests
// that use it fail, never skip, when it cannot start: it is part of this
// machine kind.
package firestoretest

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// DefaultJar is where Debian's google-cloud-cli-firestore-emulator package
// puts the emulator; the FIRESTORE_EMULATOR_JAR variable overrides it.
const DefaultJar = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar"

// readyTimeout bounds the emulator's start (a cold JVM on a busy machine).
const readyTimeout = 90 * time.Second

// Emulator is one emulator shared by the tests of a package, started on
// first use in its own process group. Its zero value is ready to use; call
// Stop from TestMain once the tests are done.
type Emulator struct {
	once sync.Once
	cmd  *exec.Cmd
	host string
	err  error
}

// Start returns the emulator's host:port, starting it the first time; it
// fails the test when the emulator cannot start.
func (e *Emulator) Start(tb testing.TB) string {
	tb.Helper()
	e.once.Do(func() { e.host, e.err = e.launch() })
	if e.err != nil {
		tb.Fatalf("firestore emulator: %v", e.err)
	}
	return e.host
}

// errExited is an emulator that ended before it was ready.
var errExited = errors.New("emulator exited before it was ready")

func (e *Emulator) launch() (string, error) {
	jar := os.Getenv("FIRESTORE_EMULATOR_JAR")
	if jar == "" {
		jar = DefaultJar
	}
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("%w (install the Debian package google-cloud-cli-firestore-emulator or set FIRESTORE_EMULATOR_JAR)", err)
	}
	// The port is chosen before the emulator binds it, so on a busy machine
	// something else may take it first: then the emulator exits, and another
	// port is tried.
	for attempt := 1; ; attempt++ {
		host, err := e.launchOn(jar)
		if errors.Is(err, errExited) && attempt < 3 {
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
	cmd := exec.Command("java", "-cp", jar, "com.google.cloud.datastore.emulator.firestore.CloudFirestore",
		"start", "--host=127.0.0.1", fmt.Sprintf("--port=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start java: %w", err)
	}
	e.cmd = cmd
	ready := make(chan error, 1)
	go func() {
		var log strings.Builder
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "Dev App Server is now running") {
				ready <- nil
				for sc.Scan() { // keep draining so the emulator never blocks on its output
				}
				return
			}
		}
		ready <- fmt.Errorf("%w:\n%s", errExited, log.String())
	}()
	select {
	case err := <-ready:
		if err != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
			return "", err
		}
	case <-time.After(readyTimeout):
		return "", fmt.Errorf("emulator not ready within %v", readyTimeout)
	}
	return host, nil
}

// Stop kills the emulator's process group, if it was started.
func (e *Emulator) Stop() {
	if e.cmd != nil && e.cmd.Process != nil {
		_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
		_ = e.cmd.Wait()
	}
}

// FreePort returns a TCP port of 127.0.0.1 that nothing listens on now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
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
