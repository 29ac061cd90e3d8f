package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"go.uber.org/goleak"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

// TestMain fails the package when any test leaves a goroutine behind: the
// hub, the store watcher, test servers and event streams must all end.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitTimeout bounds every wait for something another goroutine does; it is
// a deadline for a failing test, never a pause.
const waitTimeout = 10 * time.Second

const (
	testVersion   = "v9.8.7-test"
	testCommit    = "0123456789abcdef0123456789abcdef01234567"
	testBuilt     = "2026-11-25T12:00:00Z"
	testHeartbeat = 7 * time.Second
	testSiteURL   = "https://robohornets.example"
)

var clockStart = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// Test frontend files. The .br variant is not real brotli: the server only
// relays the bytes, and distinct markers show which variant it chose.
const (
	indexHTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="preload" as="image" href="/assets/banner-1-abc.svg" fetchpriority="high" />
    <!--app-head-->
    <title>Static title</title>
    <script type="module" src="/assets/app-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`
	appJS     = "console.log('plain javascript body');\n"
	appJSBr   = "BROTLI-VARIANT-BYTES"
	faviconSV = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>`
)

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := io.WriteString(zw, s); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func testAssets(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"index.html":              {Data: []byte(indexHTML)},
		"assets/app-abc123.js":    {Data: []byte(appJS)},
		"assets/app-abc123.js.br": {Data: []byte(appJSBr)},
		"assets/app-abc123.js.gz": {Data: gzipped(t, appJS)},
		"favicon.svg":             {Data: []byte(faviconSV)},
	}
}

// env is one website over a real local store and a real hub.
type env struct {
	store   *news.LocalStore
	hub     *news.Hub
	clock   *clock.Fake
	handler *server.Server
	// opts made handler, for a twin that differs in one option.
	opts server.Options
}

type envConfig struct {
	// assets replaces the test frontend; nilAssets passes a nil fs.FS.
	assets    fs.FS
	nilAssets bool
	// noRun leaves the hub not started, as before the store first answers.
	noRun bool
	// siteURL is Options.SiteURL; "-" means "".
	siteURL string
	// event is Options.Event; nil leaves event data off.
	event *frcevent.Hub
	// webhookToken is Options.NexusWebhookToken.
	webhookToken string
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newEnv opens a new local store (seeded with the sample articles), runs a
// hub over it until the test ends and returns the handler.
func newEnv(t *testing.T, cfg envConfig) *env {
	t.Helper()
	tmp := t.TempDir()
	store, err := news.OpenLocal(filepath.Join(tmp, "news"), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	fake := clock.NewFake(clockStart)
	hub := news.NewHub(news.HubOptions{
		Store:     store,
		CacheFile: filepath.Join(tmp, "cache", "news.json"),
		Clock:     fake,
		Logger:    discardLogger(),
	})
	e := &env{store: store, hub: hub, clock: fake}
	if !cfg.noRun {
		runUntilCleanup(t, hub.Run)
		e.waitFor(t, "the hub to go live", func(s news.Snapshot) bool { return s.Live })
	}
	opts := server.Options{
		Assets:    testAssets(t),
		Hub:       hub,
		StoreName: "local",
		Version:   testVersion,
		Commit:    testCommit,
		Built:     testBuilt,
		Clock:     fake,
		Logger:    discardLogger(),
		Heartbeat: testHeartbeat,
		SiteURL:   testSiteURL,

		Event:             cfg.event,
		NexusWebhookToken: cfg.webhookToken,
	}
	switch {
	case cfg.nilAssets:
		opts.Assets = nil
	case cfg.assets != nil:
		opts.Assets = cfg.assets
	}
	switch cfg.siteURL {
	case "":
	case "-":
		opts.SiteURL = ""
	default:
		opts.SiteURL = cfg.siteURL
	}
	e.handler, e.opts = server.New(opts), opts
	return e
}

// runUntilCleanup runs run in the background until the test ends.
func runUntilCleanup(tb testing.TB, run func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = run(ctx)
	}()
	tb.Cleanup(func() { cancel(); <-done })
}

// waitFor returns the hub's snapshot once cond holds, failing the test at
// the deadline. It wakes on every hub change, so it never polls.
func (e *env) waitFor(t *testing.T, what string, cond func(news.Snapshot) bool) news.Snapshot {
	t.Helper()
	changed, stop := e.hub.Subscribe()
	defer stop()
	deadline := time.After(waitTimeout)
	for {
		if s := e.hub.Current(); cond(s) {
			return s
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// put stores a and waits until the hub shows it.
func (e *env) put(t *testing.T, a news.Article) news.Rendered {
	t.Helper()
	if err := e.store.Put(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	snap := e.waitFor(t, "article "+a.ID, func(s news.Snapshot) bool {
		got, ok := s.Article(a.ID)
		return ok && got.Title == a.Title && got.Content == a.Content && got.Date.Equal(a.Date)
	})
	got, _ := snap.Article(a.ID)
	return got
}

// list returns the store's own article list, the truth the site must show.
func (e *env) list(t *testing.T) []news.Article {
	t.Helper()
	list, err := e.store.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 {
		t.Fatal("the store lists no articles; the tests need some")
	}
	news.SortNewestFirst(list)
	return list
}

// request serves one request and returns the response with its body read.
func (e *env) request(t *testing.T, method, target string, header http.Header) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

func (e *env) get(t *testing.T, target string) (*http.Response, string) {
	t.Helper()
	return e.request(t, http.MethodGet, target, nil)
}

// checkAnswer fails the test unless res has the status (else it stops the
// test) and a Content-Type of the media type wantType: exactly wantType when
// that has parameters (a charset), else wantType with or without them.
func checkAnswer(t *testing.T, res *http.Response, body string, status int, wantType string) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("status = %d, want %d; body %.300s", res.StatusCode, status, body)
	}
	ct := res.Header.Get("Content-Type")
	if ct != wantType && (strings.Contains(wantType, ";") || !strings.HasPrefix(ct, wantType+";")) {
		t.Errorf("Content-Type = %q, want %s", ct, wantType)
	}
}

// gunzip returns the gzip body decoded; it stops the test when body is not
// whole gzip.
func gunzip(t *testing.T, body string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(plain)
}

func decodeJSON(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("decode %q: %v", body, err)
	}
}

func TestAppRoutesServeIndex(t *testing.T) {
	e := newEnv(t, envConfig{})
	tests := []struct {
		name, path string
	}{
		{"root", "/"},
		{"news list", "/news"},
		{"unknown article", "/news/x"},
		{"deep unknown path", "/anything/deep"},
		{"countdown", "/whattimeisit"},
		{"query string", "/about?ref=flyer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := e.get(t, tt.path)
			checkAnswer(t, res, body, http.StatusOK, "text/html; charset=utf-8")
			if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("Cache-Control = %q, want no-cache", cc)
			}
			if !strings.Contains(body, `<div id="root"></div>`) || !strings.Contains(body, `src="/assets/app-abc123.js"`) {
				t.Errorf("body is not index.html:\n%s", body)
			}
			if n := strings.Count(body, "<title>"); n != 1 {
				t.Errorf("%d <title> elements, want 1 (the static one replaced):\n%s", n, body)
			}
			if strings.Contains(body, "Static title") || strings.Contains(body, "<!--app-head-->") {
				t.Errorf("the static title or the head marker is left in:\n%s", body)
			}
		})
	}
}

func TestAssets(t *testing.T) {
	e := newEnv(t, envConfig{})
	gz := string(testAssets(t)["assets/app-abc123.js.gz"].Data)
	const js = "/assets/app-abc123.js"
	tests := []struct {
		name           string
		method, path   string
		acceptEncoding string
		wantStatus     int
		wantBody       string
		wantEncoding   string
		wantCache      string
		wantType       string // a substring
		wantVary       bool
	}{
		{name: "missing asset is 404, not the app", method: "GET", path: "/assets/missing.js", wantStatus: 404},
		{name: "missing nested asset", method: "GET", path: "/assets/deep/missing.css", wantStatus: 404},
		{name: "a variant is not served by its own name", method: "GET", path: js + ".br", wantStatus: 404},
		{name: "no Accept-Encoding", method: "GET", path: js, wantStatus: 200, wantBody: appJS, wantCache: "public, max-age=31536000, immutable", wantType: "javascript", wantVary: true},
		{name: "br", method: "GET", path: js, acceptEncoding: "br", wantStatus: 200, wantBody: appJSBr, wantEncoding: "br", wantCache: "public, max-age=31536000, immutable", wantType: "javascript", wantVary: true},
		{name: "br preferred over gzip", method: "GET", path: js, acceptEncoding: "gzip, deflate, br, zstd", wantStatus: 200, wantBody: appJSBr, wantEncoding: "br", wantCache: "public, max-age=31536000, immutable", wantVary: true},
		{name: "gzip", method: "GET", path: js, acceptEncoding: "gzip", wantStatus: 200, wantBody: gz, wantEncoding: "gzip", wantCache: "public, max-age=31536000, immutable", wantType: "javascript", wantVary: true},
		{name: "identity", method: "GET", path: js, acceptEncoding: "identity", wantStatus: 200, wantBody: appJS, wantVary: true},
		{name: "br refused with q=0", method: "GET", path: js, acceptEncoding: "br;q=0", wantStatus: 200, wantBody: appJS, wantVary: true},
		{name: "br refused, gzip accepted", method: "GET", path: js, acceptEncoding: "br; q=0, gzip;q=0.5", wantStatus: 200, wantBody: gz, wantEncoding: "gzip", wantVary: true},
		{name: "HEAD br has headers and no body", method: "HEAD", path: js, acceptEncoding: "br", wantStatus: 200, wantBody: "", wantEncoding: "br", wantCache: "public, max-age=31536000, immutable", wantVary: true},
		{name: "HEAD plain has the length", method: "HEAD", path: js, wantStatus: 200, wantBody: "", wantCache: "public, max-age=31536000, immutable", wantType: "javascript", wantVary: true},
		{name: "root file is not immutable", method: "GET", path: "/favicon.svg", wantStatus: 200, wantBody: faviconSV, wantCache: "public, max-age=3600", wantType: "image/svg+xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.acceptEncoding != "" {
				h.Set("Accept-Encoding", tt.acceptEncoding)
			}
			res, body := e.request(t, tt.method, tt.path, h)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %q", res.StatusCode, tt.wantStatus, body)
			}
			if tt.wantStatus == http.StatusNotFound {
				if strings.Contains(body, `id="root"`) {
					t.Error("a missing asset got the app's index.html")
				}
				return
			}
			if body != tt.wantBody {
				t.Errorf("body = %q, want %q", body, tt.wantBody)
			}
			if got := res.Header.Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			if tt.wantCache != "" && res.Header.Get("Cache-Control") != tt.wantCache {
				t.Errorf("Cache-Control = %q, want %q", res.Header.Get("Cache-Control"), tt.wantCache)
			}
			if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, tt.wantType) {
				t.Errorf("Content-Type = %q, want it to contain %q", ct, tt.wantType)
			}
			if got := slices.Contains(res.Header.Values("Vary"), "Accept-Encoding"); got != tt.wantVary {
				t.Errorf("Vary = %q, want Accept-Encoding: %v", res.Header.Values("Vary"), tt.wantVary)
			}
			// ServeContent sends no length for an encoded body, so only the
			// plain HEAD can be checked against the file's size.
			if tt.method == http.MethodHead && tt.wantEncoding == "" {
				if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(appJS)) {
					t.Errorf("HEAD Content-Length = %q, want %d", cl, len(appJS))
				}
			}
		})
	}

	t.Run("gzip variant decodes to the file", func(t *testing.T) {
		res, body := e.request(t, "GET", js, http.Header{"Accept-Encoding": {"gzip"}})
		if res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding = %q", res.Header.Get("Content-Encoding"))
		}
		if plain := gunzip(t, body); plain != appJS {
			t.Errorf("decoded = %q, want %q", plain, appJS)
		}
	})

	t.Run("ETag revalidates per variant", func(t *testing.T) {
		plain, _ := e.get(t, js)
		br, _ := e.request(t, "GET", js, http.Header{"Accept-Encoding": {"br"}})
		if plain.Header.Get("ETag") == "" || plain.Header.Get("ETag") == br.Header.Get("ETag") {
			t.Fatalf("ETags plain %q, br %q: want two different ones", plain.Header.Get("ETag"), br.Header.Get("ETag"))
		}
		res, body := e.request(t, "GET", js, http.Header{"Accept-Encoding": {"br"}, "If-None-Match": {br.Header.Get("ETag")}})
		if res.StatusCode != http.StatusNotModified || body != "" {
			t.Errorf("If-None-Match = br ETag: status %d body %q, want 304 and no body", res.StatusCode, body)
		}
		res, _ = e.request(t, "GET", js, http.Header{"If-None-Match": {br.Header.Get("ETag")}})
		if res.StatusCode != http.StatusOK {
			t.Errorf("plain request with the br ETag: status %d, want 200", res.StatusCode)
		}
	})
}

// TestHeadRequestsMatchGet uses a real server: a ResponseRecorder keeps the
// body a handler writes for HEAD, which net/http drops.
func TestHeadRequestsMatchGet(t *testing.T) {
	e := newEnv(t, envConfig{})
	srv := httptest.NewServer(e.handler)
	t.Cleanup(srv.Close)
	do := func(t *testing.T, method, path string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = res.Body.Close() }() // closing a read body cannot lose data
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, string(body)
	}
	for _, path := range []string{"/", "/news", "/favicon.svg", "/assets/app-abc123.js", "/api/news", "/healthz", "/news.xml", "/robots.txt"} {
		t.Run(path, func(t *testing.T) {
			get, getBody := do(t, http.MethodGet, path)
			head, headBody := do(t, http.MethodHead, path)
			if head.StatusCode != get.StatusCode || get.StatusCode != http.StatusOK {
				t.Fatalf("HEAD status %d, GET status %d; want both 200", head.StatusCode, get.StatusCode)
			}
			if headBody != "" {
				t.Errorf("HEAD body = %q, want none", headBody)
			}
			if getBody == "" {
				t.Error("GET body is empty")
			}
			if head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
				t.Errorf("HEAD Content-Type %q, GET %q", head.Header.Get("Content-Type"), get.Header.Get("Content-Type"))
			}
		})
	}
}

func TestOnlyGetAndHeadAreAllowed(t *testing.T) {
	e := newEnv(t, envConfig{})
	tests := []struct{ name, method, path string }{
		{"POST page", http.MethodPost, "/"},
		{"POST app route", http.MethodPost, "/news/x"},
		{"PUT asset", http.MethodPut, "/assets/app-abc123.js"},
		{"POST news API", http.MethodPost, "/api/news"},
		{"DELETE article", http.MethodDelete, "/api/news/welcome-to-the-new-site"},
		{"PATCH feed", http.MethodPatch, "/news.xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := e.request(t, tt.method, tt.path, nil)
			if res.StatusCode != http.StatusMethodNotAllowed {
				t.Fatalf("status = %d, want 405", res.StatusCode)
			}
			allow := res.Header.Get("Allow")
			if !strings.Contains(allow, "GET") || !strings.Contains(allow, "HEAD") {
				t.Errorf("Allow = %q, want GET and HEAD", allow)
			}
			if strings.Contains(allow, tt.method) {
				t.Errorf("Allow = %q names the refused method %s", allow, tt.method)
			}
		})
	}
	if _, err := e.store.Get(context.Background(), "welcome-to-the-new-site"); err != nil {
		t.Errorf("a refused DELETE changed the store: %v", err)
	}
}

// cspDirectives splits a Content-Security-Policy into its directives.
func cspDirectives(t *testing.T, csp string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, d := range strings.Split(csp, ";") {
		fields := strings.Fields(d)
		if len(fields) == 0 {
			continue
		}
		out[fields[0]] = fields[1:]
	}
	return out
}

func checkSecurityHeaders(t *testing.T, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	if csp == "" {
		t.Fatal("no Content-Security-Policy")
	}
	d := cspDirectives(t, csp)
	script, ok := d["script-src"]
	if !ok {
		script, ok = d["default-src"]
	}
	if !ok || len(script) == 0 {
		t.Errorf("CSP %q has neither script-src nor default-src", csp)
	}
	for _, bad := range []string{"'unsafe-inline'", "'unsafe-eval'", "*", "data:", "http:", "https:"} {
		if slices.Contains(script, bad) {
			t.Errorf("CSP script sources %q allow %s", script, bad)
		}
	}
	if fa := d["frame-ancestors"]; len(fa) != 1 || fa[0] != "'none'" {
		t.Errorf("CSP frame-ancestors = %q, want 'none'", fa)
	}
	if obj := d["object-src"]; len(obj) != 1 || obj[0] != "'none'" {
		t.Errorf("CSP object-src = %q, want 'none'", obj)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
	}
	if got := h.Get("Referrer-Policy"); got == "" || got == "unsafe-url" || got == "no-referrer-when-downgrade" {
		t.Errorf("Referrer-Policy = %q, want a policy that keeps paths private", got)
	}
	if got := h.Get("Permissions-Policy"); !strings.Contains(got, "camera=()") || !strings.Contains(got, "microphone=()") {
		t.Errorf("Permissions-Policy = %q, want camera and microphone off", got)
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	e := newEnv(t, envConfig{})
	tests := []struct {
		name, method, path string
		wantStatus         int
	}{
		{"page", "GET", "/", 200},
		{"app route", "GET", "/news/welcome-to-the-new-site", 200},
		{"asset", "GET", "/assets/app-abc123.js", 200},
		{"missing asset", "GET", "/assets/missing.js", 404},
		{"root file", "GET", "/favicon.svg", 200},
		{"news API", "GET", "/api/news", 200},
		{"article API", "GET", "/api/news/welcome-to-the-new-site", 200},
		{"API error", "GET", "/api/news/nope", 404},
		{"unknown API", "GET", "/api/x", 404},
		{"health", "GET", "/healthz", 200},
		{"time", "GET", "/api/time", 200},
		{"rss", "GET", "/news.xml", 200},
		{"sitemap", "GET", "/sitemap.xml", 200},
		{"robots", "GET", "/robots.txt", 200},
		{"method not allowed", "POST", "/", 405},
		{"redirect", "GET", "/api/news/..", http.StatusTemporaryRedirect},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := e.request(t, tt.method, tt.path, nil)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d", res.StatusCode, tt.wantStatus)
			}
			checkSecurityHeaders(t, res.Header)
		})
	}
	t.Run("no frontend", func(t *testing.T) {
		e := newEnv(t, envConfig{nilAssets: true, noRun: true})
		res, _ := e.get(t, "/")
		checkSecurityHeaders(t, res.Header)
	})
}

// TestStrictTransportSecurity: a site whose --site-url is https tells
// browsers to come back over https only, on every kind of answer and on
// both the fast path and net/http, so that a visitor on a hostile network
// is not downgraded to http after the first visit; an http site, or one
// without a site URL (the window, a local serve), must not.
func TestStrictTransportSecurity(t *testing.T) {
	const want = "max-age=63072000"
	targets := []string{"/", "/news", "/assets/app-abc123.js", "/favicon.svg", "/api/news", "/api/news/nope", "/assets/missing.js", "/healthz", "/news.xml", "/assets%2Fx.js"}
	tests := []struct {
		name, siteURL, want string
	}{
		{"https site", "https://robohornets.example", want},
		{"https site with a path", "https://robohornets.example/team/", want},
		{"http site", "http://robohornets.example", ""},
		{"no site URL", "-", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envConfig{siteURL: tt.siteURL})
			addr := serveOn(t, e)
			for _, target := range targets {
				res, _ := e.get(t, target)
				if got := res.Header.Get("Strict-Transport-Security"); got != tt.want {
					t.Errorf("GET %s (%d): Strict-Transport-Security %q, want %q", target, res.StatusCode, got, tt.want)
				}
				for _, path := range []string{"fast path", "net/http"} {
					res, _ := rawGet(t, addr, target, path == "net/http")
					if got := res.Header.Get("Strict-Transport-Security"); got != tt.want {
						t.Errorf("GET %s on the %s (%d): Strict-Transport-Security %q, want %q", target, path, res.StatusCode, got, tt.want)
					}
				}
			}
			if !e.handler.FastPathAnswers([]byte("GET /assets/app-abc123.js HTTP/1.1\r\nHost: example.org\r\n\r\n")) {
				t.Error("the fast path does not answer a build file: it is not tested")
			}
		})
	}
}

func TestMissingFrontend(t *testing.T) {
	tests := []struct {
		name      string
		cfg       envConfig
		wantFiles map[string]string // path: body still served
	}{
		{name: "nil Assets", cfg: envConfig{nilAssets: true}},
		{
			name:      "no index.html",
			cfg:       envConfig{assets: fstest.MapFS{"favicon.svg": {Data: []byte(faviconSV)}}},
			wantFiles: map[string]string{"/favicon.svg": faviconSV},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.cfg)
			for _, path := range []string{"/", "/news", "/news/welcome-to-the-new-site", "/index.html"} {
				res, body := e.get(t, path)
				if res.StatusCode != http.StatusServiceUnavailable {
					t.Errorf("GET %s: status %d, want 503", path, res.StatusCode)
				}
				if !strings.Contains(body, "frontend is not built") || !strings.Contains(body, "make build") {
					t.Errorf("GET %s: body %q does not say the frontend is missing and how to build it", path, body)
				}
				if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
					t.Errorf("GET %s: Content-Type %q, want text/plain", path, ct)
				}
			}
			if res, _ := e.get(t, "/assets/app-abc123.js"); res.StatusCode != http.StatusNotFound {
				t.Errorf("asset: status %d, want 404", res.StatusCode)
			}
			for path, want := range tt.wantFiles {
				if res, body := e.get(t, path); res.StatusCode != http.StatusOK || body != want {
					t.Errorf("GET %s: %d %q, want 200 %q", path, res.StatusCode, body, want)
				}
			}
			// The API does not need the frontend.
			res, body := e.get(t, "/api/news")
			if res.StatusCode != http.StatusOK {
				t.Fatalf("/api/news: status %d", res.StatusCode)
			}
			var snap news.Snapshot
			decodeJSON(t, body, &snap)
			if len(snap.Articles) != len(e.list(t)) {
				t.Errorf("/api/news has %d articles, want %d", len(snap.Articles), len(e.list(t)))
			}
			var health struct{ Frontend bool }
			_, body = e.get(t, "/healthz")
			decodeJSON(t, body, &health)
			if health.Frontend {
				t.Error("/healthz says frontend: true without an index.html")
			}
		})
	}
}

func TestHealth(t *testing.T) {
	tests := []struct {
		name       string
		cfg        envConfig
		wantStatus string
		wantCount  bool // articles equals the store's count
	}{
		{name: "live store", cfg: envConfig{}, wantStatus: "live", wantCount: true},
		{name: "before the store answers", cfg: envConfig{noRun: true}, wantStatus: "not live"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.cfg)
			res, body := e.get(t, "/healthz")
			checkAnswer(t, res, body, http.StatusOK, "application/json")
			var h struct {
				Version   string    `json:"version"`
				Commit    string    `json:"commit"`
				Built     string    `json:"built"`
				Store     string    `json:"store"`
				Status    string    `json:"status"`
				Articles  int       `json:"articles"`
				Frontend  bool      `json:"frontend"`
				ServerNow time.Time `json:"serverNow"`
			}
			decodeJSON(t, body, &h)
			// Up or down and nothing more: no field for the store's error text.
			var fields map[string]json.RawMessage
			decodeJSON(t, body, &fields)
			for name := range fields {
				if !slices.Contains([]string{"version", "commit", "built", "store", "status", "articles", "newsAsOf", "frontend", "serverNow"}, name) {
					t.Errorf("/healthz tells a stranger %q: %s", name, body)
				}
			}
			if h.Version != testVersion || h.Commit != testCommit || h.Built != testBuilt {
				t.Errorf("version, commit, built = %q, %q, %q; want %q, %q, %q", h.Version, h.Commit, h.Built, testVersion, testCommit, testBuilt)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", cc)
			}
			if h.Store != "local" {
				t.Errorf("store = %q, want local", h.Store)
			}
			if h.Status != tt.wantStatus {
				t.Errorf("status = %q, want %q…", h.Status, tt.wantStatus)
			}
			wantArticles := 0
			if tt.wantCount {
				wantArticles = len(e.list(t))
			}
			if h.Articles != wantArticles {
				t.Errorf("articles = %d, want %d", h.Articles, wantArticles)
			}
			if !h.Frontend {
				t.Error("frontend = false with an index.html")
			}
			if !h.ServerNow.Equal(e.clock.Now()) {
				t.Errorf("serverNow = %v, want the clock's %v", h.ServerNow, e.clock.Now())
			}
		})
	}
}

func TestTimeAPIUsesTheClock(t *testing.T) {
	e := newEnv(t, envConfig{noRun: true})
	e.clock.Advance(90 * time.Minute)
	res, body := e.get(t, "/api/time")
	var got struct{ Now int64 }
	decodeJSON(t, body, &got)
	if want := e.clock.Now().UnixMilli(); got.Now != want {
		t.Errorf("now = %d, want %d", got.Now, want)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
}

// pageHead is the <title> and the meta tags of a page.
type pageHead struct {
	Title string
	Meta  map[string]string // by name or property
	Link  map[string]string // by rel
}

var (
	titleRE = regexp.MustCompile(`(?s)<title>(.*?)</title>`)
	metaRE  = regexp.MustCompile(`<meta (?:name|property)="([^"]+)" content="([^"]*)"`)
	linkRE  = regexp.MustCompile(`<link rel="([^"]+)" href="([^"]*)"`)
)

func parseHead(t *testing.T, body string) pageHead {
	t.Helper()
	titles := titleRE.FindAllStringSubmatch(body, -1)
	if len(titles) != 1 {
		t.Fatalf("%d <title> elements, want 1:\n%s", len(titles), body)
	}
	h := pageHead{Title: titles[0][1], Meta: map[string]string{}, Link: map[string]string{}}
	for _, m := range metaRE.FindAllStringSubmatch(body, -1) {
		h.Meta[m[1]] = m[2]
	}
	for _, m := range linkRE.FindAllStringSubmatch(body, -1) {
		h.Link[m[1]] = m[2]
	}
	return h
}
