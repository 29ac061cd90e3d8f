package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/server"
)

var initialEvent = regexp.MustCompile(`(?s)<script type="application/json" id="initial-event">(.*?)</script>`)

// pageEvent gets path from addr, a real server (so the fast path answers
// when it is on), and returns the page and its inline event JSON, once the
// hub held the same version before and after the request; the demo hub
// polls on, so a version may change while a page is made.
func pageEvent(t *testing.T, hub *frcevent.Hub, addr, path string) (page string, inline []byte, want []byte) {
	t.Helper()
	for range 20 {
		before, v1 := hub.JSON()
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("GET %s: %d, Cache-Control %q", path, res.StatusCode, res.Header.Get("Cache-Control"))
		}
		if _, v2 := hub.JSON(); v1 != v2 {
			continue
		}
		m := initialEvent.FindSubmatch(body)
		if m == nil {
			t.Fatalf("GET %s has no initial-event script:\n%s", path, body)
		}
		return string(body), m[1], before
	}
	t.Fatalf("GET %s: the event data changed during every request", path)
	return "", nil, nil
}

// TestEventPagesCarryTheEventStatus: /follow and /pit open with the event
// status exactly as GET /api/event answers it, the current one after every
// change, with the fast path on and off; a hostile announcement stays a
// string inside the JSON script.
func TestEventPagesCarryTheEventStatus(t *testing.T) {
	hub := server.DemoEventHub(t)
	e := newEnv(t, envConfig{event: hub, webhookToken: "hook-secret"})
	off := e.opts
	off.FastPathOff = true
	sites := []struct {
		name string
		addr string
		site *server.Server
	}{
		{"fast path on", serveOn(t, e), e.handler},
		{"fast path off", serveSite(t, server.New(off)), nil},
	}
	const hostile = `</script><script>alert(1)</script><!--`
	asOf := hub.Current().Nexus.AsOf
	for i, step := range []string{"the demo's status", "after a change", "a hostile announcement"} {
		if i > 0 {
			asOf = asOf.Add(time.Second)
			text := "calling all mentors"
			if i == 2 {
				text = hostile
			}
			req := httptest.NewRequest(http.MethodPost, "/api/nexus/webhook", strings.NewReader(pushed(asOf, text)))
			req.Header.Set("Nexus-Token", "hook-secret")
			rec := httptest.NewRecorder()
			e.handler.ServeHTTP(rec, req)
			if !strings.Contains(rec.Body.String(), `"applied"`) {
				t.Fatalf("%s: the push was not applied: %d %s", step, rec.Code, rec.Body)
			}
		}
		for _, s := range sites {
			for _, path := range []string{"/follow", "/pit"} {
				if s.site != nil && !s.site.FastPathAnswers([]byte("GET "+path+" HTTP/1.1\r\nHost: example.org\r\n\r\n")) {
					t.Fatalf("%s: the fast path does not answer %s", s.name, path)
				}
				page, inline, want := pageEvent(t, hub, s.addr, path)
				if string(inline) != string(want) {
					t.Fatalf("%s, %s, %s: inline event\n%.300s\nwant the hub's\n%.300s", step, s.name, path, inline, want)
				}
				var st board.Status
				decodeJSON(t, string(inline), &st)
				if i > 0 && (len(st.Announcements) == 0 || st.Announcements[0].Text != map[bool]string{true: hostile, false: "calling all mentors"}[i == 2]) {
					t.Fatalf("%s, %s, %s: announcements %+v, want the pushed one", step, s.name, path, st.Announcements)
				}
				// The test index.html has one script of its own.
				if n := strings.Count(page, "<script"); n != 2 || strings.Count(page, "</script>") != 2 || strings.Contains(page, "<!--<") {
					t.Fatalf("%s, %s, %s: %d script tags, want 2: the JSON left its script\n%s", step, s.name, path, n, page)
				}
			}
		}
	}
	// The other pages carry no event data.
	_, body := e.get(t, "/news")
	if strings.Contains(body, "initial-event") {
		t.Error("/news carries the event status")
	}
}

// TestEventJSONIsCompressed: GET /api/event is gzip when the client takes it,
// and revalidates by ETag.
func TestEventJSONIsCompressed(t *testing.T) {
	hub := server.DemoEventHub(t)
	e := newEnv(t, envConfig{event: hub})
	res, body := e.request(t, http.MethodGet, "/api/event", http.Header{"Accept-Encoding": {"gzip"}})
	checkAnswer(t, res, body, http.StatusOK, "application/json; charset=utf-8")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("Content-Encoding %q, Cache-Control %q; want gzip and no-cache", res.Header.Get("Content-Encoding"), res.Header.Get("Cache-Control"))
	}
	var s board.Status
	decodeJSON(t, gunzip(t, body), &s)
	if s.Team != 1209 {
		t.Errorf("decoded /api/event = %+v", s)
	}
	res, _ = e.request(t, http.MethodGet, "/api/event", http.Header{"Accept-Encoding": {"gzip"}, "If-None-Match": {res.Header.Get("ETag")}})
	if res.StatusCode != http.StatusNotModified && res.StatusCode != http.StatusOK {
		t.Errorf("revalidation: %d", res.StatusCode)
	}
}

// TestRootFileTypesAndCaching: the manifest has its own type without any
// system MIME table, and the service worker's script revalidates.
func TestRootFileTypesAndCaching(t *testing.T) {
	fsys := testAssets(t)
	fsys["manifest.webmanifest"] = &fstest.MapFile{Data: []byte(`{"name":"RoboHornets","start_url":"/follow"}`)}
	fsys["sw.js"] = &fstest.MapFile{Data: []byte("self.addEventListener('fetch', () => {});\n")}
	e := newEnv(t, envConfig{assets: fsys})
	addr := serveOn(t, e)
	tests := []struct {
		path, wantType, wantCache string
	}{
		{"/manifest.webmanifest", "application/manifest+json", "public, max-age=3600"},
		{"/sw.js", "text/javascript; charset=utf-8", "no-cache"},
		{"/favicon.svg", "image/svg+xml", "public, max-age=3600"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if !e.handler.FastPathAnswers([]byte("GET " + tt.path + " HTTP/1.1\r\nHost: example.org\r\n\r\n")) {
				t.Fatalf("the fast path does not answer %s", tt.path)
			}
			for _, get := range []func() *http.Response{
				func() *http.Response { res, _ := e.get(t, tt.path); return res },
				func() *http.Response {
					res, err := http.Get("http://" + addr + tt.path)
					if err != nil {
						t.Fatal(err)
					}
					_ = res.Body.Close()
					return res
				},
			} {
				res := get()
				if got := res.Header.Get("Content-Type"); got != tt.wantType {
					t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
				}
				if got := res.Header.Get("Cache-Control"); got != tt.wantCache {
					t.Errorf("Cache-Control = %q, want %q", got, tt.wantCache)
				}
			}
		})
	}
}
