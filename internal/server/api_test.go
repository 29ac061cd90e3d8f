package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/testutil/ssetest"
)

// testArticle is the newest article, dated before the test clock's now
// (clockStart): a later one would be scheduled, hidden until its date.
var testArticle = news.Article{
	ID:      "robot-wins-regional",
	Title:   "Robot wins the regional",
	Date:    time.Date(2026, 11, 22, 5, 9, 26, 0, time.FixedZone("CDT", -5*3600)),
	Content: "Java the Hutt took **first place** at the Tulsa regional.\n\nThanks to every sponsor.\n",
}

func keys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestNewsListJSON(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.put(t, testArticle)
	res, body := e.get(t, "/api/news")
	checkAnswer(t, res, body, http.StatusOK, "application/json; charset=utf-8")

	// The shape: exactly these keys, so the frontend's types stay true.
	var top map[string]json.RawMessage
	decodeJSON(t, body, &top)
	if got, want := keys(top), []string{"articles", "asOf", "live"}; !slices.Equal(got, want) {
		t.Errorf("top-level keys = %q, want %q", got, want)
	}
	var rawArticles []map[string]json.RawMessage
	decodeJSON(t, string(top["articles"]), &rawArticles)
	for _, a := range rawArticles {
		if got, want := keys(a), []string{"content", "date", "html", "id", "preview", "title"}; !slices.Equal(got, want) {
			t.Fatalf("article keys = %q, want %q", got, want)
		}
	}

	// The values: the store's articles, newest first, rendered.
	var snap struct {
		Articles []news.Rendered `json:"articles"`
		AsOf     time.Time       `json:"asOf"`
		Live     bool            `json:"live"`
	}
	decodeJSON(t, body, &snap)
	want := e.list(t)
	if len(snap.Articles) != len(want) {
		t.Fatalf("%d articles, want %d", len(snap.Articles), len(want))
	}
	for i, a := range snap.Articles {
		w := want[i]
		if a.ID != w.ID || a.Title != w.Title || a.Content != w.Content || !a.Date.Equal(w.Date) {
			t.Errorf("article %d = %q %q %v, want %q %q %v", i, a.ID, a.Title, a.Date, w.ID, w.Title, w.Date)
		}
		if a.HTML == "" || a.Preview == "" {
			t.Errorf("article %q has no html or preview", a.ID)
		}
		if i > 0 && a.Date.After(snap.Articles[i-1].Date) {
			t.Errorf("article %q is newer than the one before it", a.ID)
		}
	}
	got, ok := findArticle(snap.Articles, testArticle.ID)
	if !ok {
		t.Fatalf("%q is not in the list", testArticle.ID)
	}
	if !strings.Contains(got.HTML, "<strong>first place</strong>") || !strings.Contains(got.HTML, "<p>Thanks to every sponsor.</p>") {
		t.Errorf("html = %q, want the markdown rendered", got.HTML)
	}
	if !snap.Live {
		t.Error("live = false for a running hub")
	}
	if !snap.AsOf.Equal(clockStart) {
		t.Errorf("asOf = %v, want the hub clock's %v", snap.AsOf, clockStart)
	}
}

func findArticle(list []news.Rendered, id string) (news.Rendered, bool) {
	for _, a := range list {
		if a.ID == id {
			return a, true
		}
	}
	return news.Rendered{}, false
}

func TestNewsListETag(t *testing.T) {
	e := newEnv(t, envConfig{})
	res, body := e.get(t, "/api/news")
	etag := res.Header.Get("ETag")
	if res.StatusCode != http.StatusOK || etag == "" || !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) {
		t.Fatalf("status %d, ETag %q: want 200 and a quoted ETag", res.StatusCode, etag)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control = %q, want no-cache", cc)
	}

	again, againBody := e.get(t, "/api/news")
	if again.Header.Get("ETag") != etag || againBody != body {
		t.Errorf("an unchanged list changed its ETag (%q then %q) or body", etag, again.Header.Get("ETag"))
	}

	tests := []struct {
		name        string
		ifNoneMatch string
		wantStatus  int
	}{
		{"current ETag", etag, http.StatusNotModified},
		{"other ETag", `"something-else"`, http.StatusOK},
		{"no ETag", "", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.ifNoneMatch != "" {
				h.Set("If-None-Match", tt.ifNoneMatch)
			}
			res, got := e.request(t, "GET", "/api/news", h)
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d", res.StatusCode, tt.wantStatus)
			}
			if tt.wantStatus == http.StatusNotModified && got != "" {
				t.Errorf("304 with a body %q", got)
			}
			if tt.wantStatus == http.StatusOK && got != body {
				t.Errorf("body differs from the first response")
			}
			if res.Header.Get("ETag") != etag {
				t.Errorf("ETag = %q, want %q", res.Header.Get("ETag"), etag)
			}
		})
	}

	t.Run("a change in the store changes the ETag", func(t *testing.T) {
		e.put(t, testArticle)
		res, got := e.request(t, "GET", "/api/news", http.Header{"If-None-Match": {etag}})
		if res.StatusCode != http.StatusOK {
			t.Fatalf("status with the old ETag = %d, want 200", res.StatusCode)
		}
		newTag := res.Header.Get("ETag")
		if newTag == "" || newTag == etag {
			t.Fatalf("ETag after a change = %q, old %q", newTag, etag)
		}
		if !strings.Contains(got, testArticle.ID) {
			t.Errorf("body lacks the new article")
		}
		if res, _ := e.request(t, "GET", "/api/news", http.Header{"If-None-Match": {newTag}}); res.StatusCode != http.StatusNotModified {
			t.Errorf("status with the new ETag = %d, want 304", res.StatusCode)
		}

		if err := e.store.Delete(context.Background(), testArticle.ID); err != nil {
			t.Fatal(err)
		}
		e.waitFor(t, "the article to go", func(s news.Snapshot) bool { _, ok := s.Article(testArticle.ID); return !ok })
		res, _ = e.request(t, "GET", "/api/news", http.Header{"If-None-Match": {newTag}})
		if res.StatusCode != http.StatusOK || res.Header.Get("ETag") == newTag {
			t.Errorf("after a delete: status %d ETag %q, want 200 and a new ETag", res.StatusCode, res.Header.Get("ETag"))
		}
	})
}

func TestArticleAPI(t *testing.T) {
	e := newEnv(t, envConfig{})
	want := e.put(t, testArticle)
	tests := []struct {
		name       string
		path       string
		wantStatus int
		wantErr    string // in the JSON error
	}{
		{name: "existing", path: "/api/news/" + testArticle.ID, wantStatus: 200},
		{name: "missing", path: "/api/news/nope", wantStatus: 404, wantErr: "no such article"},
		{name: "reserved id", path: "/api/news/__reserved__", wantStatus: 400, wantErr: "invalid article id"},
		{name: "dot dot", path: "/api/news/%2E%2E", wantStatus: 404, wantErr: "could name two paths"},
		{name: "dot", path: "/api/news/%2E", wantStatus: 404, wantErr: "could name two paths"},
		{name: "escaped slash", path: "/api/news/a%2Fb", wantStatus: 404, wantErr: "could name two paths"},
		{name: "too long", path: "/api/news/" + strings.Repeat("x", news.MaxIDBytes+1), wantStatus: 400, wantErr: "invalid article id"},
		{name: "unknown API", path: "/api/x", wantStatus: 404, wantErr: "/api/x"},
		{name: "unknown API below news", path: "/api/news/a/b/c", wantStatus: 404, wantErr: "/api/news/a/b/c"},
		{name: "API root", path: "/api/", wantStatus: 404, wantErr: "no API"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := e.get(t, tt.path)
			checkAnswer(t, res, body, tt.wantStatus, "application/json; charset=utf-8")
			if tt.wantStatus != http.StatusOK {
				var e struct{ Error string }
				decodeJSON(t, body, &e)
				if !strings.Contains(e.Error, tt.wantErr) {
					t.Errorf("error = %q, want it to contain %q", e.Error, tt.wantErr)
				}
				return
			}
			var got news.Rendered
			decodeJSON(t, body, &got)
			if got.ID != want.ID || got.Title != want.Title || got.Content != want.Content || !got.Date.Equal(want.Date) || got.HTML != want.HTML || got.Preview != want.Preview {
				t.Errorf("article = %+v, want %+v", got, want)
			}
		})
	}
}

// sseStream is an event stream of a real HTTP server, read on its own
// goroutine until the test ends, comments (heartbeats) included.
type sseStream struct{ *ssetest.Stream }

// openStream opens path on srv and reads it until the test ends.
func openStream(t *testing.T, srv *httptest.Server, path string) *sseStream {
	t.Helper()
	return &sseStream{ssetest.Open(t, srv.Client(), srv.URL+path, ssetest.ReportComments, waitTimeout)}
}

// next returns the next event or comment, failing the test at the deadline.
func (s *sseStream) next(t *testing.T) ssetest.Event {
	t.Helper()
	return s.Next(t, waitTimeout)
}

// startStream opens path and checks the headers, and that the stream sets
// its reconnection time before its first event.
func startStream(t *testing.T, srv *httptest.Server, path string) *sseStream {
	t.Helper()
	s := openStream(t, srv, path)
	if s.Response.StatusCode != http.StatusOK {
		t.Fatalf("status = %d, want 200", s.Response.StatusCode)
	}
	for name, want := range map[string]string{
		"Content-Type":      "text/event-stream",
		"Cache-Control":     "no-store",
		"X-Accel-Buffering": "no",
	} {
		if got := s.Response.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	checkSecurityHeaders(t, s.Response.Header)
	if ev := s.Peek(t, waitTimeout); ev.Retry <= 0 || ev.Retry > time.Minute {
		t.Errorf("first event %+v: retry %v, want a positive number of milliseconds up to a minute", ev, ev.Retry)
	}
	return s
}

func newHTTPServer(t *testing.T, e *env) *httptest.Server {
	srv := httptest.NewServer(e.handler)
	t.Cleanup(srv.Close)
	return srv
}

func articleIDs[A interface{ news.Article | news.Rendered }](list []A) []string {
	ids := make([]string, len(list))
	for i, a := range list {
		switch a := any(a).(type) {
		case news.Article:
			ids[i] = a.ID
		case news.Rendered:
			ids[i] = a.ID
		}
	}
	return ids
}

func TestNewsStream(t *testing.T) {
	e := newEnv(t, envConfig{})
	srv := newHTTPServer(t, e)
	s := startStream(t, srv, "/api/news/stream")

	first := s.next(t)
	if first.Type != "news" {
		t.Fatalf("first event = %+v, want event: news", first)
	}
	var snap news.Snapshot
	decodeJSON(t, first.Data, &snap)
	if got, want := articleIDs(snap.Articles), articleIDs(e.list(t)); !slices.Equal(got, want) {
		t.Errorf("first event ids = %q, want the store's %q", got, want)
	}
	if !snap.Live {
		t.Error("first event: live = false")
	}

	if err := e.store.Put(context.Background(), testArticle); err != nil {
		t.Fatal(err)
	}
	// The next event must carry the change; nothing else happens meanwhile.
	ev := s.next(t)
	if ev.Type != "news" {
		t.Fatalf("event after Put = %+v, want event: news", ev)
	}
	decodeJSON(t, ev.Data, &snap)
	got, ok := findArticle(snap.Articles, testArticle.ID)
	if !ok {
		t.Fatalf("event after Put lacks %q: ids %q", testArticle.ID, articleIDs(snap.Articles))
	}
	if got.Title != testArticle.Title || !strings.Contains(got.HTML, "<strong>first place</strong>") {
		t.Errorf("streamed article = %+v", got)
	}
	if got, want := articleIDs(snap.Articles), articleIDs(e.list(t)); !slices.Equal(got, want) {
		t.Errorf("ids after Put = %q, want %q", got, want)
	}
}

func TestArticleStream(t *testing.T) {
	e := newEnv(t, envConfig{})
	srv := newHTTPServer(t, e)

	t.Run("missing, then added, then removed", func(t *testing.T) {
		s := startStream(t, srv, "/api/news/"+testArticle.ID+"/stream")
		if ev := s.next(t); ev.Type != "article" || ev.Data != "null" {
			t.Fatalf("first event = %+v, want event: article with null", ev)
		}
		if err := e.store.Put(context.Background(), testArticle); err != nil {
			t.Fatal(err)
		}
		ev := s.next(t)
		if ev.Type != "article" {
			t.Fatalf("event after Put = %+v", ev)
		}
		var a news.Rendered
		decodeJSON(t, ev.Data, &a)
		if a.ID != testArticle.ID || a.Title != testArticle.Title || !a.Date.Equal(testArticle.Date) || a.HTML == "" {
			t.Errorf("streamed article = %+v", a)
		}
		if err := e.store.Delete(context.Background(), testArticle.ID); err != nil {
			t.Fatal(err)
		}
		if ev := s.next(t); ev.Type != "article" || ev.Data != "null" {
			t.Errorf("event after Delete = %+v, want null", ev)
		}
	})

	t.Run("other articles' changes send nothing", func(t *testing.T) {
		s := startStream(t, srv, "/api/news/welcome-to-the-new-site/stream")
		first := s.next(t)
		var a news.Article
		decodeJSON(t, first.Data, &a)
		if first.Type != "article" || a.ID != "welcome-to-the-new-site" {
			t.Fatalf("first event = %+v", first)
		}
		other := testArticle
		other.ID = "another-story"
		e.put(t, other)
		// The watched article changes after the other one; the stream's
		// next event must be this change, proving the other sent nothing.
		changed := a
		changed.Title = "Welcome, edited"
		if err := e.store.Put(context.Background(), news.Article{ID: a.ID, Title: changed.Title, Date: a.Date, Content: a.Content}); err != nil {
			t.Fatal(err)
		}
		ev := s.next(t)
		decodeJSON(t, ev.Data, &a)
		if a.Title != changed.Title {
			t.Errorf("next event title = %q, want %q", a.Title, changed.Title)
		}
	})

	t.Run("invalid id", func(t *testing.T) {
		res, body := e.get(t, "/api/news/__x__/stream")
		if res.StatusCode != http.StatusBadRequest {
			t.Fatalf("status = %d, want 400", res.StatusCode)
		}
		var got struct{ Error string }
		decodeJSON(t, body, &got)
		if !strings.Contains(got.Error, "invalid article id") {
			t.Errorf("error = %q", got.Error)
		}
	})
}

// blockUntilWaiters is fake.BlockUntilWaiters with a deadline.
func blockUntilWaiters(t *testing.T, fake *clock.Fake, n int) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		fake.BlockUntilWaiters(n)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitTimeout):
		t.Fatalf("timed out waiting for %d clock waiters", n)
	}
}

func TestStreamHeartbeat(t *testing.T) {
	e := newEnv(t, envConfig{})
	srv := newHTTPServer(t, e)
	s := startStream(t, srv, "/api/news/stream")
	if ev := s.next(t); ev.Type != "news" {
		t.Fatalf("first event = %+v", ev)
	}
	for i := range 2 {
		blockUntilWaiters(t, e.clock, 1)
		e.clock.Advance(testHeartbeat)
		ev := s.next(t)
		if !ev.IsComment || ev.Comment != "heartbeat" {
			t.Fatalf("block %d after %v = %+v, want a heartbeat comment", i, testHeartbeat, ev)
		}
	}
}

// streamRecorder is a ResponseWriter that a test may read while a handler
// is still writing to it.
type streamRecorder struct {
	mu      sync.Mutex
	header  http.Header
	status  int
	body    bytes.Buffer
	flushed chan struct{}
}

func newStreamRecorder() *streamRecorder {
	return &streamRecorder{header: http.Header{}, flushed: make(chan struct{}, 1)}
}

func (r *streamRecorder) Header() http.Header { return r.header }

func (r *streamRecorder) WriteHeader(code int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = code
	}
}

func (r *streamRecorder) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

func (r *streamRecorder) Flush() {
	select {
	case r.flushed <- struct{}{}:
	default:
	}
}

// hasEvent reports whether the recorded stream holds an event of type typ
// (any type for ""), with data data unless data is "".
func (r *streamRecorder) hasEvent(typ, data string) bool {
	events, _ := ssetest.Parse(r.String(), ssetest.SkipComments)
	return slices.ContainsFunc(events, func(ev ssetest.Event) bool {
		return (typ == "" || ev.Type == typ) && (data == "" || ev.Data == data)
	})
}

func (r *streamRecorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.body.String()
}

func TestStreamEndsWithTheRequestOrShutdown(t *testing.T) {
	tests := []struct{ name, path, event, data string }{
		{"news", "/api/news/stream", "news", ""},
		{"article", "/api/news/welcome-to-the-new-site/stream", "article", ""},
		{"missing article", "/api/news/nope/stream", "article", "null"},
	}
	for _, tt := range tests {
		for _, end := range []string{"request cancelled", "server shut down"} {
			t.Run(tt.name+"/"+end, func(t *testing.T) {
				e := newEnv(t, envConfig{})
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				req := httptest.NewRequestWithContext(ctx, http.MethodGet, tt.path, nil)
				rec := newStreamRecorder()
				done := make(chan struct{})
				go func() {
					defer close(done)
					e.handler.ServeHTTP(rec, req)
				}()
				deadline := time.After(waitTimeout)
				for !rec.hasEvent(tt.event, tt.data) {
					select {
					case <-rec.flushed:
					case <-done:
						t.Fatalf("the handler returned before the request ended: %q", rec.String())
					case <-deadline:
						t.Fatalf("no %s event in %q", tt.event, rec.String())
					}
				}
				if end == "request cancelled" {
					cancel()
				} else if err := e.handler.Shutdown(context.Background()); err != nil {
					t.Fatalf("Shutdown: %v", err)
				}
				select {
				case <-done:
				case <-time.After(waitTimeout):
					t.Fatalf("the stream did not end after the %s", end)
				}
			})
		}
	}
}
