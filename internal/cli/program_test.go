//go:build slow

package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// programCmd returns a command that runs the program with args in a process
// of its own.
func programCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	// A race-enabled binary sleeps a second before it exits unless told
	// not to, which would hide how long a command takes.
	cmd.Env = append(os.Environ(), programEnv+"=1", "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return cmd
}
