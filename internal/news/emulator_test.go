package news

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
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

// defaultEmulatorJar is where Debian's google-cloud-cli-firestore-emulator
// package puts Google's Firestore emulator; FIRESTORE_EMULATOR_JAR overrides it.
const defaultEmulatorJar = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar"

// firestoreEmulator is one real Firestore emulator shared by the tests of
// this package, started on first use in its own process group.
type firestoreEmulator struct {
	once sync.Once
	cmd  *exec.Cmd
	host string
	err  error
}

var emulator firestoreEmulator

// start returns the emulator's host:port, starting it the first time. The
// tests fail, never skip, when it cannot start: it is part of this machine kind.
func (e *firestoreEmulator) start(t testing.TB) string {
	t.Helper()
	e.once.Do(func() { e.host, e.err = e.launch() })
	if e.err != nil {
		t.Fatalf("firestore emulator: %v", e.err)
	}
	return e.host
}

func (e *firestoreEmulator) launch() (string, error) {
	jar := os.Getenv("FIRESTORE_EMULATOR_JAR")
	if jar == "" {
		jar = defaultEmulatorJar
	}
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("%w (install the Debian package google-cloud-cli-firestore-emulator or set FIRESTORE_EMULATOR_JAR)", err)
	}
	port, err := freePort()
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
		ready <- fmt.Errorf("emulator exited before it was ready:\n%s", log.String())
	}()
	select {
	case err := <-ready:
		if err != nil {
			return "", err
		}
	case <-time.After(90 * time.Second):
		return "", fmt.Errorf("emulator not ready within 90 s")
	}
	return host, nil
}

func (e *firestoreEmulator) stop() {
	if e.cmd != nil && e.cmd.Process != nil {
		_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
		_ = e.cmd.Wait()
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// freshProject returns a project id no other test uses, so each test starts
// with an empty database.
func freshProject(t testing.TB) string {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "test-" + hex.EncodeToString(b)
}
