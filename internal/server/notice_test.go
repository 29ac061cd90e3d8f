package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/server"
)

// noticeEnv is a website with a notice hub over a local docstore.
type noticeEnv struct {
	*env
	db  docstore.DB
	hub *notice.Hub
	srv *httptest.Server
}

func newNoticeEnv(t *testing.T) noticeEnv {
	t.Helper()
	e := newEnv(t, envConfig{})
	db, err := docstore.OpenLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	hub := notice.NewHub(notice.Options{DB: db, Clock: e.clock, Logger: discardLogger()})
	runUntilCleanup(t, hub.Run)
	e.handler = server.New(server.Options{Assets: testAssets(t), Hub: e.hub, Notice: hub, Clock: e.clock, Logger: discardLogger(), Heartbeat: testHeartbeat})
	srv := httptest.NewServer(e.handler)
	t.Cleanup(srv.Close)
	return noticeEnv{env: e, db: db, hub: hub, srv: srv}
}

// put writes the pit notice as the console does.
func (n noticeEnv) put(t *testing.T, text string, until time.Time) {
	t.Helper()
	data, err := json.Marshal(notice.Notice{Text: text, Until: until, By: "Sam Editor", At: clockStart})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.db.Put(context.Background(), notice.Collection, notice.ID, data); err != nil {
		t.Fatal(err)
	}
}

// decodeNotice decodes a notice answer or event.
func decodeNotice(t *testing.T, data string) notice.Notice {
	t.Helper()
	var got notice.Notice
	decodeJSON(t, data, &got)
	return got
}

func TestNoticeAPIAndStream(t *testing.T) {
	n := newNoticeEnv(t)
	res, body := n.get(t, "/api/notice")
	checkAnswer(t, res, body, http.StatusOK, "application/json; charset=utf-8")
	if got := res.Header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("Cache-Control = %q, want no-cache", got)
	}
	checkSecurityHeaders(t, res.Header)
	if got := decodeNotice(t, body); got.Text != "" {
		t.Fatalf("/api/notice before any = %+v, want the empty notice", got)
	}

	stream := startStream(t, n.srv, "/api/notice/stream")
	if ev := stream.next(t); ev.Type != "notice" || decodeNotice(t, ev.Data).Text != "" {
		t.Fatalf("first stream event = %+v, want the empty notice", ev)
	}
	until := clockStart.Add(10 * time.Minute)
	n.put(t, "Pit closed for inspection", until)
	ev := stream.next(t)
	got := decodeNotice(t, ev.Data)
	if ev.Type != "notice" || got.Text != "Pit closed for inspection" || !got.Until.Equal(until) {
		t.Fatalf("stream event after the write = %+v, want the notice until %v", ev, until)
	}
	if got.By != "" {
		t.Errorf("the public notice names its author %q; only the console may", got.By)
	}
	if _, body := n.get(t, "/api/notice"); decodeNotice(t, body).Text != "Pit closed for inspection" {
		t.Fatalf("/api/notice after the write = %s", body)
	}
	// Taken down from the console: the stream says so.
	n.put(t, "", time.Time{})
	if ev := stream.next(t); ev.Type != "notice" || decodeNotice(t, ev.Data).Text != "" {
		t.Fatalf("stream event after the notice was taken down = %+v, want the empty notice", ev)
	}
}

func TestNoticeIsEmptyWithoutAHub(t *testing.T) {
	e := newEnv(t, envConfig{})
	res, body := e.get(t, "/api/notice")
	checkAnswer(t, res, body, http.StatusOK, "application/json; charset=utf-8")
	if got := decodeNotice(t, body); got.Text != "" || !got.Until.IsZero() {
		t.Fatalf("/api/notice without a hub = %+v, want the empty notice", got)
	}
	srv := newHTTPServer(t, e)
	if ev := startStream(t, srv, "/api/notice/stream").next(t); ev.Type != "notice" || decodeNotice(t, ev.Data).Text != "" {
		t.Fatalf("stream without a hub = %+v, want the empty notice", ev)
	}
	if res, body := e.request(t, http.MethodPost, "/api/notice", nil); res.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /api/notice = %d %s, want 405: the public API only reads", res.StatusCode, body)
	}
}

func TestNoticeStreamCountsAgainstTheCaps(t *testing.T) {
	e := newEnv(t, envConfig{})
	h := server.New(server.Options{Assets: testAssets(t), Hub: e.hub, Clock: e.clock, Logger: discardLogger(), MaxStreams: 1})
	first, _ := openRecorded(t, h, "/api/notice/stream", "192.0.2.1:1000")
	defer first.end()
	second, answered := openRecorded(t, h, "/api/notice/stream", "192.0.2.2:1000")
	defer second.end()
	if !answered || !strings.Contains(second.rec.String(), "too many live streams") {
		t.Fatalf("a notice stream beyond --max-streams = %q, want it refused", second.rec.String())
	}
}
