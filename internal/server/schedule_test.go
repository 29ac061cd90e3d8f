package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/news"
)

// TestScheduledArticleStaysHiddenUntilItsDate: an article dated after now
// is in the store but nowhere on the site (API, stream, pages, feed,
// sitemap) until its date, when it appears without anyone acting.
func TestScheduledArticleStaysHiddenUntilItsDate(t *testing.T) {
	e := newEnv(t, envConfig{noRun: true})
	scheduled := news.Article{ID: "scheduled-story", Title: "Scheduled story", Date: clockStart.Add(30 * time.Second), Content: "Not yet."}
	if err := e.store.Put(context.Background(), scheduled); err != nil {
		t.Fatal(err)
	}
	// Started after the write, the hub's first list holds the article, so
	// its schedule is the clock's only waiter.
	runUntilCleanup(t, e.hub.Run)
	e.waitFor(t, "the hub to go live", func(s news.Snapshot) bool { return s.Live })
	srv := newHTTPServer(t, e)
	stream := startStream(t, srv, "/api/news/stream")
	if ev := stream.next(t); ev.Type != "news" || strings.Contains(ev.Data, scheduled.ID) {
		t.Fatalf("first news event = %+v, want the list without the scheduled article", ev)
	}
	for _, path := range []string{"/api/news", "/news.xml", "/sitemap.xml", "/news"} {
		if _, body := e.get(t, path); strings.Contains(body, scheduled.ID) || strings.Contains(body, scheduled.Title) {
			t.Errorf("%s leaks the scheduled article before its date", path)
		}
	}
	if _, body := e.get(t, "/news/"+scheduled.ID); strings.Contains(body, scheduled.Title) || strings.Contains(body, scheduled.Content) {
		t.Errorf("the article's page shows the scheduled article before its date")
	}
	if res, _ := e.get(t, "/api/news/"+scheduled.ID); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /api/news/%s before its date = %d, want 404", scheduled.ID, res.StatusCode)
	}

	// The schedule's timer and the stream's heartbeat.
	blockUntilWaiters(t, e.clock, 2)
	e.clock.Advance(30 * time.Second)
	e.waitFor(t, "the scheduled article at its date", func(s news.Snapshot) bool { return s.ArticleJSON(scheduled.ID) != nil })
	for {
		ev := stream.next(t)
		if ev.IsComment {
			continue // the heartbeat was due too
		}
		if ev.Type != "news" || !strings.Contains(ev.Data, scheduled.ID) {
			t.Fatalf("news event at the date = %+v, want the list with the scheduled article", ev)
		}
		break
	}
	if res, body := e.get(t, "/api/news/"+scheduled.ID); res.StatusCode != http.StatusOK || !strings.Contains(body, scheduled.Title) {
		t.Fatalf("GET /api/news/%s at its date = %d %s, want the article", scheduled.ID, res.StatusCode, body)
	}
	for _, path := range []string{"/news.xml", "/sitemap.xml"} {
		if _, body := e.get(t, path); !strings.Contains(body, scheduled.ID) {
			t.Errorf("%s lacks the article at its date", path)
		}
	}
}
