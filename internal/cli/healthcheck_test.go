package cli

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
)

func TestVersionLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	p := Program{Version: "1.2.3", Commit: "abc123", Built: "2026-11-25T12:00:00Z", Stdout: &stdout, Stderr: &stderr}
	if code := p.Run([]string{"version"}); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, stderr.String())
	}
	want := "robohornets 1.2.3 (commit abc123, built 2026-11-25T12:00:00Z, " + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if stdout.String() != want {
		t.Errorf("version printed %q, want %q", stdout.String(), want)
	}
}

// slowTimeout is the healthcheck's --timeout in these tests: long enough
// for a loaded machine to answer a local request, short enough to wait
// out in a test of a server that never answers.
const slowTimeout = "300ms"

func TestHealthcheck(t *testing.T) {
	answer := func(status int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}
	}
	// hang answers nothing until the client gives up.
	hang := func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	tests := []struct {
		name     string
		handler  http.HandlerFunc // nil: nothing listens at the URL
		path     string
		wantCode int
		wantErr  string // a substring of the one line on stderr; "" wants none
	}{
		{name: "ready", handler: answer(200, `{"ready":true}`), path: "/readyz", wantCode: 0},
		{name: "not ready", handler: answer(503, `{"ready":false,"message":"the store is not reachable"}`), path: "/readyz",
			wantCode: 1, wantErr: "503 Service Unavailable: the store is not reachable"},
		{name: "not JSON", handler: answer(502, "<html>bad gateway</html>"), path: "/readyz", wantCode: 1, wantErr: "/readyz: 502 Bad Gateway"},
		{name: "a line break in the message", handler: answer(500, `{"error":"one\ntwo"}`), path: "/x", wantCode: 1, wantErr: "500 Internal Server Error: one two"},
		{name: "redirected to a 404", handler: func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/old" {
				http.Redirect(w, r, "/gone", http.StatusFound)
				return
			}
			http.NotFound(w, r)
		}, path: "/old", wantCode: 1, wantErr: "404 Not Found"},
		{name: "connection refused", handler: nil, path: "/readyz", wantCode: 1, wantErr: "connection refused"},
		{name: "hangs past the timeout", handler: hang, path: "/readyz", wantCode: 1, wantErr: "/readyz: no answer within " + slowTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := "http://" + closedAddr(t) + tt.path
			if tt.handler != nil {
				srv := httptest.NewServer(tt.handler)
				defer srv.Close()
				url = srv.URL + tt.path
			}
			start := time.Now()
			r := runCmd(t, "healthcheck", "--timeout", slowTimeout, url)
			took := time.Since(start)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %q", r.code, tt.wantCode, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
			if tt.wantErr == "" {
				if r.stderr != "" {
					t.Errorf("stderr = %q, want nothing", r.stderr)
				}
				return
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "robohornets: healthcheck: ") || !strings.Contains(r.stderr, tt.wantErr) {
				t.Errorf("stderr = %q, want one line with %q", r.stderr, tt.wantErr)
			}
			if took > 5*time.Second {
				t.Errorf("took %v: the --timeout of %s was not kept", took, slowTimeout)
			}
		})
	}
}

// TestHealthcheckDefaultURL: without a URL the command asks /readyz on
// 127.0.0.1 at $PORT.
func TestHealthcheckDefaultURL(t *testing.T) {
	asked := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked <- r.Host + r.URL.Path
	}))
	defer srv.Close()
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PORT", port)
	if r := runCmd(t, "healthcheck"); r.code != 0 {
		t.Fatalf("exit %d; stderr %q", r.code, r.stderr)
	}
	if got, want := <-asked, "127.0.0.1:"+port+"/readyz"; got != want {
		t.Errorf("asked %q, want %q", got, want)
	}
}

// TestHealthcheckUsage: a bad command line exits 2, as for every command;
// a container runtime counts it unhealthy like 1, so a HEALTHCHECK with a
// mistake in it fails instead of passing.
func TestHealthcheckUsage(t *testing.T) {
	for _, args := range [][]string{
		{"healthcheck", "http://a/", "http://b/"},
		{"healthcheck", "127.0.0.1:8080/readyz"},
		{"healthcheck", "ftp://127.0.0.1/readyz"},
		{"healthcheck", "--timeout", "0s"},
		{"healthcheck", "--nope"},
	} {
		r := runCmd(t, args...)
		if r.code != 2 {
			t.Errorf("%q: exit %d, want 2; stderr %q", args, r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, "robohornets: ") {
			t.Errorf("%q: stderr %q, want the reason", args, r.stderr)
		}
	}
}

// closedAddr returns a 127.0.0.1 address that nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// failingDB is a docstore whose reads fail as an unreachable store's do.
type failingDB struct{ docstore.DB }

var errUnreachable = errors.New("dial tcp 10.0.0.1:8681: connection refused")

func (failingDB) Get(context.Context, string, string) ([]byte, error) { return nil, errUnreachable }

func TestStoreReady(t *testing.T) {
	local, err := docstore.OpenLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = local.Close() }() // teardown: a close error changes nothing here
	if err := storeReady(local)(context.Background()); err != nil {
		t.Errorf("a local store without the document: %v, want ready", err)
	}
	if err := local.Put(context.Background(), ReadyCollection, ReadyID, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := storeReady(local)(context.Background()); err != nil {
		t.Errorf("a local store with the document: %v, want ready", err)
	}
	if err := storeReady(failingDB{})(context.Background()); !errors.Is(err, errUnreachable) {
		t.Errorf("an unreachable store: %v, want its error", err)
	}
}
