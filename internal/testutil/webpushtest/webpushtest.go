// Package webpushtest runs a stand-in for a real push service in tests:
// the npm package web-push-testing (frontend's devDependency), which makes
// subscriptions as a browser does for an applicationServerKey, takes
// pushes at their endpoints, checks their VAPID signature and decrypts
// them (RFC 8291). Tests that use it fail, never skip, when it cannot
// start: node and frontend's node_modules are part of this machine kind.
package webpushtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
)

// readyTimeout bounds the start of the service (node and express).
const readyTimeout = 30 * time.Second

// Service is one running web-push-testing server, on 127.0.0.1.
type Service struct {
	// URL is its base URL, http://127.0.0.1:PORT.
	URL string
}

// Subscription is a subscription the service made, as a browser's
// PushSubscription.toJSON() gives it, and the service's name for it.
type Subscription struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	ClientHash string `json:"clientHash"`
}

// Start runs the service for the test and stops it when the test ends. It
// runs web-push-testing's server script itself (the package's
// frontend/node_modules/.bin/web-push-testing start would leave a daemon
// behind), with node from PATH.
func Start(t testing.TB) *Service {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("webpushtest: node is not installed: %v", err)
	}
	script, err := serverScript()
	if err != nil {
		t.Fatal(err)
	}
	port, err := firestoretest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	proc, err := servetest.Launch(exec.Command(node, script, fmt.Sprint(port)), servetest.LaunchOptions{
		Ready:   func(line []byte) bool { return bytes.Contains(line, []byte("Server running on port")) },
		Timeout: readyTimeout,
	})
	if proc == nil {
		t.Fatalf("webpushtest: %v", err)
	}
	t.Cleanup(proc.KillGroup)
	if err != nil {
		t.Fatalf("webpushtest: %v\n%s", err, proc.Log())
	}
	return &Service{URL: fmt.Sprintf("http://127.0.0.1:%d", port)}
}

// serverScript finds web-push-testing's server script through the
// command npm installs, frontend/node_modules/.bin/web-push-testing, at
// the root of the module.
func serverScript() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("webpushtest: go env GOMOD: %w", err)
	}
	bin := filepath.Join(filepath.Dir(strings.TrimSpace(string(gomod))), "frontend", "node_modules", ".bin", "web-push-testing")
	cli, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return "", fmt.Errorf("webpushtest: %s is missing (cd frontend && npm ci): %w", bin, err)
	}
	script := filepath.Join(filepath.Dir(cli), "server.js")
	if _, err := os.Stat(script); err != nil {
		return "", fmt.Errorf("webpushtest: web-push-testing has no %s: %w", script, err)
	}
	return script, nil
}

// post sends body as JSON to path and decodes the "data" of the answer
// into out (nil: none wanted).
func (s *Service) post(t testing.TB, path string, body any, out any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.URL+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("webpushtest: POST %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }() // teardown: a close error changes nothing here
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("webpushtest: POST %s: %s", path, resp.Status)
	}
	if out == nil {
		return
	}
	var answer struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		t.Fatalf("webpushtest: POST %s: %v", path, err)
	}
	if err := json.Unmarshal(answer.Data, out); err != nil {
		t.Fatalf("webpushtest: POST %s: %v", path, err)
	}
}

// Subscribe makes a subscription for applicationServerKey (URL-safe
// base64), as PushManager.subscribe does. Its endpoint names the service
// as localhost; it is given as 127.0.0.1, the address the service listens
// on, which a server that allows loopback endpoints takes.
func (s *Service) Subscribe(t testing.TB, applicationServerKey string) Subscription {
	t.Helper()
	var sub Subscription
	s.post(t, "/subscribe", map[string]string{"userVisibleOnly": "true", "applicationServerKey": applicationServerKey}, &sub)
	sub.Endpoint = strings.Replace(sub.Endpoint, "://localhost:", "://127.0.0.1:", 1)
	return sub
}

// Expire makes the service answer 410 Gone to pushes for sub from now on.
func (s *Service) Expire(t testing.TB, sub Subscription) {
	t.Helper()
	s.post(t, "/expire-subscription/"+sub.ClientHash, struct{}{}, nil)
}

// Messages returns the decrypted payloads the service has taken for sub,
// oldest first.
func (s *Service) Messages(t testing.TB, sub Subscription) []string {
	t.Helper()
	var data struct {
		Messages []string `json:"messages"`
	}
	s.post(t, "/get-notifications", map[string]string{"clientHash": sub.ClientHash}, &data)
	return data.Messages
}
