//go:build image

package image

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
	"github.com/robohornets/robohornets/internal/testutil/ssetest"
)

const (
	// imageEnv names the image to test; make test-image passes the one
	// make image has just built.
	imageEnv     = "ROBOHORNETS_IMAGE"
	defaultImage = "localhost/robohornets:latest"
	// startTimeout bounds the container's start until /readyz is 200.
	startTimeout = 30 * time.Second
	// postGoal: a post written to Firestore is on the site within it.
	postGoal = 2 * time.Second
	// stopGoal: the container ends within it of SIGTERM (Cloud Run, like
	// podman stop --time 10, kills it after 10 s).
	stopGoal = 10 * time.Second
	// traceHeader is the trace of one request, as Cloud Run's front end
	// writes X-Cloud-Trace-Context (span 74 is 4a in hex).
	traceHeader = "105445aa7843bc8bf206b12000100000/74;o=1"
	traceID     = "105445aa7843bc8bf206b12000100000"
)

var emulator firestoretest.Emulator

func TestMain(m *testing.M) { firestoretest.Main(m, &emulator) }

// podman runs podman with args, with the containers.conf beside this test,
// and returns its standard output; a failure carries its standard error.
func podman(t *testing.T, args ...string) (string, error) {
	t.Helper()
	conf, err := filepath.Abs("containers.conf")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "podman", args...)
	cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+conf)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("podman %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// mustPodman is podman that fails the test on an error.
func mustPodman(t *testing.T, args ...string) string {
	t.Helper()
	out, err := podman(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImageOnFirestore runs the image with podman against the Firestore
// emulator, as Cloud Run would run it (PORT set, the store on Firestore),
// and checks what a platform and its operators rely on.
func TestImageOnFirestore(t *testing.T) {
	began := time.Now()
	image := os.Getenv(imageEnv)
	if image == "" {
		image = defaultImage
	}
	if _, err := podman(t, "image", "exists", image); err != nil {
		t.Fatalf("no image %s (build it with make image): %v", image, err)
	}
	host := emulator.Start(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := firestoretest.FreshProject(t)
	port, err := firestoretest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	name := "robohornets-image-" + project // the project id is random: no other run has this name

	// The container is removed when the test ends, passed or not; the
	// image stays. On a failure its log says why.
	t.Cleanup(func() {
		if t.Failed() {
			if out, err := podman(t, "logs", "--tail", "30", name); err == nil {
				t.Logf("the container's last log lines:\n%s", out)
			}
		}
		if _, err := podman(t, "rm", "--force", "--time", "0", name); err != nil {
			t.Errorf("removing the container: %v", err)
		}
	})
	started := time.Now()
	mustPodman(t, "run", "--detach", "--runtime", "runc", "--network", "host", "--name", name,
		"--env", "PORT="+strconv.Itoa(port), "--env", "FIRESTORE_EMULATOR_HOST="+host,
		image, "--store", "firestore", "--project", project, "--site-url", base, "--event", "off")
	waitReady(t, base+"/readyz")
	t.Logf("the container was ready %v after podman run", time.Since(started).Round(time.Millisecond))

	t.Run("serves the site", func(t *testing.T) {
		res, body := servetest.Get(t, base+"/", nil)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(strings.ToLower(string(body)), "<!doctype html>") {
			t.Errorf("GET /: %s %q, %d bytes; want 200 and the page", res.Status, res.Header.Get("Content-Type"), len(body))
		}
	})

	t.Run("shows a post written through the emulator within 2 s", func(t *testing.T) {
		ctx := context.Background()
		store, err := news.OpenFirestore(ctx, project)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = store.Close() }() // teardown: a close error changes nothing here
		written := time.Now()
		a := news.Article{ID: "from-the-container-test", Title: "Shipped in a container", Date: written.Add(-time.Minute).UTC(), Content: "Posted through **Firestore**."}
		if err := store.Put(ctx, a); err != nil {
			t.Fatal(err)
		}
		for {
			_, body := servetest.Get(t, base+"/api/news", nil)
			if bytes.Contains(body, []byte(`"id":"`+a.ID+`"`)) {
				t.Logf("the post was in /api/news %v after the write", time.Since(written).Round(time.Millisecond))
				return
			}
			if time.Since(written) > postGoal {
				t.Fatalf("the post is not in /api/news %v after the write: %s", postGoal, body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("reports healthy", func(t *testing.T) {
		if res, body := servetest.Get(t, base+"/readyz", nil); res.StatusCode != http.StatusOK {
			t.Errorf("/readyz: %s %s", res.Status, body)
		}
		// The image's own HEALTHCHECK (robohornets healthcheck, in the
		// container): exit 0 and "healthy".
		if _, err := podman(t, "healthcheck", "run", name); err != nil {
			t.Errorf("the image's healthcheck: %v", err)
		}
	})

	t.Run("runs as a user other than root", func(t *testing.T) {
		if user := strings.TrimSpace(mustPodman(t, "inspect", "--format", "{{.Config.User}}", name)); user != "65532:65532" {
			t.Errorf("the container's user is %q, want 65532:65532", user)
		}
		pid := strings.TrimSpace(mustPodman(t, "inspect", "--format", "{{.State.Pid}}", name))
		status, err := os.ReadFile("/proc/" + pid + "/status")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"\nUid:\t65532\t65532\t65532\t65532\n", "\nGid:\t65532\t65532\t65532\t65532\n"} {
			if !strings.Contains(string(status), want) {
				t.Errorf("the server's process (pid %s) lacks %q in /proc/PID/status:\n%s", pid, want, status)
			}
		}
	})

	t.Run("carries its version in labels, as the binary reports it", func(t *testing.T) {
		var labels map[string]string
		if err := json.Unmarshal([]byte(mustPodman(t, "image", "inspect", "--format", "{{json .Labels}}", image)), &labels); err != nil {
			t.Fatal(err)
		}
		_, body := servetest.Get(t, base+"/healthz", nil)
		var health struct{ Version, Commit, Built string }
		if err := json.Unmarshal(body, &health); err != nil {
			t.Fatalf("/healthz: %v: %s", err, body)
		}
		want := map[string]string{
			"org.opencontainers.image.version":  health.Version,
			"org.opencontainers.image.revision": health.Commit,
			"org.opencontainers.image.created":  health.Built,
			"org.opencontainers.image.source":   "https://github.com/robohornets/robohornets",
			"org.opencontainers.image.title":    "robohornets",
		}
		for k, v := range want {
			if labels[k] != v || v == "" {
				t.Errorf("label %s = %q, want %q", k, labels[k], v)
			}
		}
		if labels["org.opencontainers.image.description"] == "" {
			t.Error("no label org.opencontainers.image.description")
		}
		if tag := image[strings.LastIndex(image, ":")+1:]; tag != "latest" && tag != health.Version {
			t.Errorf("the image is tagged %s, and its binary says version %s", tag, health.Version)
		}
	})

	t.Run("logs JSON lines for Cloud Logging on stdout, with the trace of a request", func(t *testing.T) {
		res, _ := servetest.Get(t, base+"/about", http.Header{"X-Cloud-Trace-Context": {traceHeader}})
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET /about: %s", res.Status)
		}
		wantTrace := "projects/" + project + "/traces/" + traceID
		var line map[string]any
		deadline := time.Now().Add(5 * time.Second) // the log is written every 200 ms
		for {
			stdout := mustPodman(t, "logs", name) // podman logs: the container's stdout on stdout
			for _, l := range logLines(t, stdout) {
				if l["logging.googleapis.com/trace"] == wantTrace {
					line = l
				}
			}
			if line != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no log line on stdout with the trace %s:\n%s", wantTrace, stdout)
			}
			time.Sleep(100 * time.Millisecond)
		}
		req, _ := line["httpRequest"].(map[string]any)
		if line["severity"] != "INFO" || line["message"] != "http" || line["logging.googleapis.com/spanId"] != "000000000000004a" ||
			line["logging.googleapis.com/trace_sampled"] != true || req["requestUrl"] != "/about" || req["status"] != float64(200) {
			t.Errorf("the request's log line: %v", line)
		}
	})

	// Stop as Cloud Run and podman do: SIGTERM, SIGKILL 10 s later. A live
	// stream is open meanwhile, as a visitor's would be.
	stream := ssetest.Open(t, http.DefaultClient, base+"/api/news/stream", ssetest.SkipComments, startTimeout)
	if stream.Response.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/news/stream: %s", stream.Response.Status)
	}
	sent := time.Now()
	mustPodman(t, "stop", "--time", "10", name)
	took := time.Since(sent)
	t.Logf("podman stop took %v", took.Round(time.Millisecond))
	if took >= stopGoal {
		t.Errorf("podman stop took %v, want under %v", took, stopGoal)
	}
	select {
	case <-stream.Done():
	case <-time.After(time.Second):
		t.Error("the live stream was still open after the container stopped")
	}
	if code := strings.TrimSpace(mustPodman(t, "inspect", "--format", "{{.State.ExitCode}}", name)); code != "0" {
		t.Errorf("the container exited with %s, want 0", code)
	}
	stdout := mustPodman(t, "logs", name)
	if !strings.Contains(stdout, `"message":"shut down: every request and live stream ended"`) {
		t.Errorf("the log on stdout does not say it shut down cleanly; it ends:\n%s", servetest.LastLines(stdout, 5))
	}
	// Every line on stdout is for Cloud Logging (logLines checks them); no
	// error, and on Firestore no word of the local store.
	for _, l := range logLines(t, stdout) {
		if l["severity"] == "ERROR" || strings.HasPrefix(fmt.Sprint(l["message"]), "the local store") {
			t.Errorf("a log line: %v", l)
		}
	}
	t.Logf("the test took %v (the emulator's start included)", time.Since(began).Round(time.Millisecond))
}

// timeRE is RFC 3339 with nine digits of nanoseconds.
var timeRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d)$`)

// logLines parses the container's stdout: one JSON object a line, each with
// Cloud Logging's time, severity and message.
func logLines(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("a line on stdout is not JSON: %v: %s", err, sc.Text())
		}
		ts, _ := l["time"].(string)
		msg, _ := l["message"].(string)
		if !timeRE.MatchString(ts) || msg == "" || l["severity"] == nil {
			t.Fatalf("a log line without Cloud Logging's time, severity or message: %s", sc.Text())
		}
		lines = append(lines, l)
	}
	return lines
}

// waitReady waits until url answers 200.
func waitReady(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(startTimeout)
	last := ""
	for time.Now().Before(deadline) {
		res, err := http.Get(url)
		if err == nil {
			_ = res.Body.Close() // only the status matters
			if res.StatusCode == http.StatusOK {
				return
			}
			last = res.Status
		} else {
			last = err.Error()
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s not 200 within %v (last: %s)", url, startTimeout, last)
}
