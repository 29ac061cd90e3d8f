package server_test

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

// gate is a Console whose session check is a header, so the website's
// gating can be tested apart from the console (whose own tests sign in
// with real passkeys); it answers its API with the path it was given.
type gate struct{}

func (gate) SignedIn(r *http.Request) bool { return r.Header.Get("X-Test-Session") == "yes" }

func (gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTeapot)
	_, _ = w.Write([]byte(r.Method + " " + r.URL.Path))
}

func adminServer(t *testing.T, console server.Console, media http.Handler) *server.Server {
	t.Helper()
	store, err := news.OpenLocal(t.TempDir(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	assets := testAssets(t)
	assets["assets/console/console-abc.js"] = &fstest.MapFile{Data: []byte("console code")}
	// A chunk named as the build names them ([name]-[hash].js).
	assets["assets/console/console-fX7yJW0X.js"] = &fstest.MapFile{Data: []byte("console code")}
	return server.New(server.Options{
		Assets:  assets,
		Hub:     news.NewHub(news.HubOptions{Store: store, Logger: discardLogger()}),
		Logger:  discardLogger(),
		Console: console,
		Media:   media,
	})
}

func serveAdmin(s *server.Server, method, target string, signedIn bool) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	if signedIn {
		req.Header.Set("X-Test-Session", "yes")
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func TestConsolePagesNeedASession(t *testing.T) {
	s := adminServer(t, gate{}, nil)
	for _, target := range []string{"/admin", "/admin/", "/admin/posts/kickoff?tab=preview", "/admin/members"} {
		rec := serveAdmin(s, http.MethodGet, target, false)
		if rec.Code != http.StatusSeeOther {
			t.Errorf("GET %s without a session: %d, want 303", target, rec.Code)
			continue
		}
		loc := rec.Header().Get("Location")
		if !strings.HasPrefix(loc, "/admin/signin?next=") {
			t.Errorf("GET %s: Location %q, want the sign-in page", target, loc)
		}
		if strings.Contains(rec.Body.String(), "<div id=\"root\">") {
			t.Errorf("GET %s without a session sent the app", target)
		}
	}
	rec := serveAdmin(s, http.MethodGet, "/admin/posts/kickoff?tab=preview", false)
	if got, want := rec.Header().Get("Location"), "/admin/signin?next=%2Fadmin%2Fposts%2Fkickoff%3Ftab%3Dpreview"; got != want {
		t.Errorf("Location = %q, want %q (the page to come back to)", got, want)
	}
	for _, target := range []string{"/admin", "/admin/members"} {
		rec := serveAdmin(s, http.MethodGet, target, true)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<div id="root">`) {
			t.Errorf("GET %s signed in: %d, want 200 and the app", target, rec.Code)
		}
		if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
			t.Errorf("GET %s: Cache-Control %q, want no-store", target, cc)
		}
		if rec.Header().Get("X-Robots-Tag") != "noindex" {
			t.Errorf("GET %s: no X-Robots-Tag noindex", target)
		}
	}
}

func TestConsoleSignInAndEnrolPagesArePublic(t *testing.T) {
	s := adminServer(t, gate{}, nil)
	for _, target := range []string{"/admin/signin", "/admin/signin?next=%2Fadmin", "/admin/enrol"} {
		rec := serveAdmin(s, http.MethodGet, target, false)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<div id="root">`) {
			t.Errorf("GET %s: %d, want 200 and the app", target, rec.Code)
		}
	}
}

func TestConsoleAssetsNeedASession(t *testing.T) {
	s := adminServer(t, gate{}, nil)
	rec := serveAdmin(s, http.MethodGet, "/assets/console/console-abc.js", false)
	if rec.Code != http.StatusUnauthorized || strings.Contains(rec.Body.String(), "console code") {
		t.Errorf("console chunk without a session: %d %q, want 401 without the code", rec.Code, rec.Body.String())
	}
	rec = serveAdmin(s, http.MethodGet, "/assets/console/console-abc.js", true)
	if rec.Code != http.StatusOK || rec.Body.String() != "console code" {
		t.Fatalf("console chunk signed in: %d %q", rec.Code, rec.Body.String())
	}
	if cc := rec.Header().Get("Cache-Control"); !strings.HasPrefix(cc, "private") {
		t.Errorf("console chunk Cache-Control %q: a shared cache could hand it to anyone", cc)
	}
	if rec := serveAdmin(s, http.MethodGet, "/assets/app-abc123.js", false); rec.Code != http.StatusOK {
		t.Errorf("public chunk: %d, want 200", rec.Code)
	}
}

func TestConsoleAPIGoesToTheConsole(t *testing.T) {
	s := adminServer(t, gate{}, nil)
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		rec := serveAdmin(s, method, "/admin/api/posts/x", false)
		if rec.Code != http.StatusTeapot || rec.Body.String() != method+" /admin/api/posts/x" {
			t.Errorf("%s /admin/api/posts/x: %d %q, want the console's answer", method, rec.Code, rec.Body.String())
		}
	}
	if rec := serveAdmin(s, http.MethodPost, "/admin/members", true); rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST to a console page: %d, want 405", rec.Code)
	}
}

func TestNoConsole(t *testing.T) {
	s := adminServer(t, nil, nil)
	if rec := serveAdmin(s, http.MethodPost, "/admin/api/signin/begin", false); rec.Code != http.StatusNotFound {
		t.Errorf("console API without a console: %d, want 404", rec.Code)
	}
	if rec := serveAdmin(s, http.MethodGet, "/assets/console/console-abc.js", true); rec.Code != http.StatusUnauthorized {
		t.Errorf("console chunk without a console: %d, want 401", rec.Code)
	}
	// The window has no console: its page says to use a phone or a browser.
	if rec := serveAdmin(s, http.MethodGet, "/admin", false); rec.Code != http.StatusOK {
		t.Errorf("console page without a console: %d, want the app", rec.Code)
	}
	if rec := serveAdmin(s, http.MethodGet, "/media/0123456789abcdef0123456789abcdef.jpg", false); rec.Code != http.StatusNotFound {
		t.Errorf("media without a store: %d, want 404", rec.Code)
	}
}

func TestMediaGoesToTheMediaHandler(t *testing.T) {
	media := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("photo " + r.PathValue("name"))) })
	s := adminServer(t, gate{}, media)
	rec := serveAdmin(s, http.MethodGet, "/media/abc.jpg", false)
	if rec.Code != http.StatusOK || rec.Body.String() != "photo abc.jpg" {
		t.Errorf("GET /media/abc.jpg: %d %q", rec.Code, rec.Body.String())
	}
}

// TestConsoleChunksNeedASessionInEverySpelling asks for a console chunk
// without a session in every spelling an attacker might try, on the fast
// path and on net/http: none answers the code. A path whose raw form holds
// an encoded slash or a backslash has two meanings (the mux matches the
// escaped one, a handler reads the decoded one) and is refused; an unclean
// one is redirected to its clean form, which needs a session.
func TestConsoleChunksNeedASessionInEverySpelling(t *testing.T) {
	const chunk = "/assets/console/console-fX7yJW0X.js"
	s := adminServer(t, gate{}, nil)
	addr := serveSite(t, s)
	tests := []struct {
		name, path   string
		wantStatus   int
		wantLocation string // of a redirect, which then answers 401
	}{
		{"plain", chunk, 401, ""},
		{"with a query", chunk + "?v=1", 401, ""},
		{"every slash escaped", "/assets%2Fconsole%2Fconsole-fX7yJW0X.js", 404, ""},
		{"first slash escaped, lower case", "/assets%2fconsole/console-fX7yJW0X.js", 404, ""},
		{"last slash escaped", "/assets/console%2Fconsole-fX7yJW0X.js", 404, ""},
		{"escaped slash after the chunk", chunk + "%2F", 404, ""},
		{"escaped letter", "/assets/%63onsole/console-fX7yJW0X.js", 401, ""},
		{"escaped first letter", "/%61ssets/console/console-fX7yJW0X.js", 401, ""},
		{"escaped letter in the name", "/assets/console/%63onsole-fX7yJW0X.js", 401, ""},
		{"escaped backslashes", "/assets%5Cconsole%5Cconsole-fX7yJW0X.js", 404, ""},
		{"escaped backslash, lower case", "/assets/console%5cconsole-fX7yJW0X.js", 404, ""},
		{"backslashes", `/assets\console\console-fX7yJW0X.js`, 404, ""},
		{"a backslash", `/assets/console\console-fX7yJW0X.js`, 404, ""},
		{"double slash first", "/" + chunk, 307, chunk},
		{"double slash inside", "/assets//console/console-fX7yJW0X.js", 307, chunk},
		{"dot segment", "/assets/./console/console-fX7yJW0X.js", 307, chunk},
		{"dot-dot segment", "/assets/console/../console/console-fX7yJW0X.js", 307, chunk},
		{"dot-dot segment from a public folder", "/assets/x/../console/console-fX7yJW0X.js", 307, chunk},
		{"escaped dot-dot segment", "/assets/console/%2e%2e/console/console-fX7yJW0X.js", 404, ""},
		{"escaped dot-dot segment from a public folder", "/assets/x/%2E%2E/console/console-fX7yJW0X.js", 404, ""},
		{"escaped dot segment", "/assets/%2e/console/console-fX7yJW0X.js", 404, ""},
		{"escaped slash in a console page", "/admin%2Fmembers", 404, ""},
		{"escaped slash after /admin", "/admin%2F", 404, ""},
	}
	for _, tt := range tests {
		for _, path := range []string{"fast path", "net/http"} {
			t.Run(tt.name+" on the "+path, func(t *testing.T) {
				res, body := rawGet(t, addr, tt.path, path == "net/http")
				if res.StatusCode != tt.wantStatus || strings.Contains(body, "console code") {
					t.Fatalf("GET %s: %d %.80q, want %d without the code", tt.path, res.StatusCode, body, tt.wantStatus)
				}
				if cc := res.Header.Get("Cache-Control"); strings.Contains(cc, "public") {
					t.Errorf("GET %s: Cache-Control %q: a shared cache may keep it", tt.path, cc)
				}
				if tt.wantLocation == "" {
					return
				}
				if loc := res.Header.Get("Location"); loc != tt.wantLocation {
					t.Fatalf("GET %s: Location %q, want %q", tt.path, loc, tt.wantLocation)
				}
				if res, body := rawGet(t, addr, tt.wantLocation, path == "net/http"); res.StatusCode != http.StatusUnauthorized {
					t.Errorf("GET %s after the redirect: %d %.80q, want 401", tt.wantLocation, res.StatusCode, body)
				}
			})
		}
	}
	// Signed in, the chunk is served by its one name only.
	for _, target := range []string{chunk, "/assets%2Fconsole%2Fconsole-fX7yJW0X.js"} {
		rec := serveAdmin(s, http.MethodGet, target, true)
		if want := map[bool]int{true: 200, false: 404}[target == chunk]; rec.Code != want {
			t.Errorf("GET %s signed in: %d, want %d", target, rec.Code, want)
		}
	}
}

// rawGet sends GET path, as it is, on a new connection to addr: to the
// fast path, or with a Connection token that sends it to net/http.
func rawGet(t *testing.T, addr, path string, viaNetHTTP bool) (*http.Response, string) {
	t.Helper()
	req := "GET " + path + " HTTP/1.1\r\nHost: example.org\r\n"
	if viaNetHTTP {
		req += "Connection: keep-alive, x-net-http\r\n"
	}
	raw := exchange(t, addr, req+"\r\n")
	res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}
