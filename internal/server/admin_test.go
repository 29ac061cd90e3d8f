package server_test

import (
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

// An escaped slash reaches the routes of /assets/ and / (the mux matches
// the escaped path), but the file or page it names is the console's.
func TestConsoleEscapedSlashesNeedASession(t *testing.T) {
	s := adminServer(t, gate{}, nil)
	rec := serveAdmin(s, http.MethodGet, "/assets/console%2Fconsole-abc.js", false)
	if rec.Code != http.StatusUnauthorized || strings.Contains(rec.Body.String(), "console code") {
		t.Errorf("/assets/console%%2F… without a session: %d %q, want 401 without the code", rec.Code, rec.Body.String())
	}
	for _, target := range []string{"/admin%2Fmembers", "/admin%2F"} {
		rec := serveAdmin(s, http.MethodGet, target, false)
		if rec.Code != http.StatusSeeOther {
			t.Errorf("GET %s without a session: %d, want 303 to sign in", target, rec.Code)
		}
	}
}
