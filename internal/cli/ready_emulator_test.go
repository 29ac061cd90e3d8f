//go:build emulator && slow

package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
)

// readyEmulator is this test's own emulator: it kills it.
var readyEmulator = firestoretest.Emulator{Own: true}

// Goals of TestReadyFollowsTheStore.
const (
	// notReadyGoal: a probe's deadline (2 s) and the cached answer (1 s),
	// with room for a loaded machine.
	notReadyGoal = 6 * time.Second
	// readyAgainGoal: the Firestore client reconnects with a backoff that
	// grows through the outage.
	readyAgainGoal = 30 * time.Second
)

// TestReadyFollowsTheStore runs serve on the Firestore emulator, kills the
// emulator and starts it again on the same port: /readyz is 200, then 503
// within notReadyGoal of the kill (while /healthz stays 200), then 200
// again once the emulator is back; `robohornets healthcheck` exits 0, 1,
// 0 alongside.
func TestReadyFollowsTheStore(t *testing.T) {
	t.Cleanup(readyEmulator.Stop)
	host := readyEmulator.Start(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := firestoretest.FreshProject(t)
	srv := servetest.StartServe(t, programCmd(t, "serve", "--store", "firestore", "--project", project,
		"--data", t.TempDir(), "--listen", "127.0.0.1:0", "--event", "off"), servetest.ServeOptions{})
	readyz := srv.URL + "/readyz"

	waitReady(t, srv, readyz, http.StatusOK, 30*time.Second)
	if r := runCmd(t, "healthcheck", readyz); r.code != 0 {
		t.Errorf("healthcheck of a ready serve: exit %d, stderr %q", r.code, r.stderr)
	}

	killed := time.Now()
	readyEmulator.Kill()
	body := waitReady(t, srv, readyz, http.StatusServiceUnavailable, notReadyGoal)
	t.Logf("/readyz 503 %v after the kill: %s", time.Since(killed).Round(time.Millisecond), body)
	var answer struct {
		Ready   bool
		Message string
	}
	if err := json.Unmarshal([]byte(body), &answer); err != nil || answer.Ready || answer.Message != "the store is not reachable" {
		t.Errorf("/readyz while the store is gone: %s (%v)", body, err)
	}
	if res, b := servetest.Get(t, srv.URL+"/healthz", nil); res.StatusCode != http.StatusOK {
		t.Errorf("/healthz while the store is gone: %d %s, want 200 (liveness)", res.StatusCode, b)
	}
	if r := runCmd(t, "healthcheck", readyz); r.code != 1 || r.stderr == "" {
		t.Errorf("healthcheck while the store is gone: exit %d, stderr %q; want 1 and the reason", r.code, r.stderr)
	}

	readyEmulator.Restart(t, "")
	back := time.Now()
	waitReady(t, srv, readyz, http.StatusOK, readyAgainGoal)
	t.Logf("/readyz 200 again %v after the emulator was back on %s", time.Since(back).Round(time.Millisecond), host)
	if r := runCmd(t, "healthcheck", readyz); r.code != 0 {
		t.Errorf("healthcheck once the store is back: exit %d, stderr %q", r.code, r.stderr)
	}
}

// waitReady polls url until it answers want, and returns that answer's
// body; it fails the test after timeout or when serve ends.
func waitReady(t *testing.T, srv *servetest.Server, url string, want int, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) && !srv.Ended() {
		res, body := servetest.Get(t, url, nil)
		if res.StatusCode == want {
			return string(body)
		}
		last = fmt.Sprintf("%d %s", res.StatusCode, body)
		time.Sleep(100 * time.Millisecond) // the poll's pace, not a wait for an event
	}
	t.Fatalf("%s did not answer %d within %v (last: %s); serve's log ends:\n%s", url, want, timeout, last, servetest.LastLines(srv.Log(), 10))
	return ""
}
