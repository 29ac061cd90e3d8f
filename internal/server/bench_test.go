package server_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

// benchmarkServer is the website over a local store with the sample news,
// and whatever else opts sets.
func benchmarkServer(b *testing.B, opts server.Options) *server.Server {
	b.Helper()
	store, err := news.OpenLocal(filepath.Join(b.TempDir(), "news"), nil)
	if err != nil {
		b.Fatal(err)
	}
	hub := news.NewHub(news.HubOptions{Store: store})
	// Subscribed before Run starts, so the first list cannot slip past.
	changed, stop := hub.Subscribe()
	defer stop()
	runUntilCleanup(b, hub.Run)
	<-changed
	opts.Assets = fstest.MapFS{"index.html": {Data: []byte("<!doctype html><html><head><!--app-head--><title>x</title></head><body><div id=root></div></body></html>")}}
	opts.Hub, opts.Logger = hub, discardLogger()
	return server.New(opts)
}

func benchmarkGet(b *testing.B, path string) {
	h := benchmarkServer(b, server.Options{})
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d", path, rec.Code)
		}
	}
}

func BenchmarkNewsList(b *testing.B)    { benchmarkGet(b, "/api/news") }
func BenchmarkArticlePage(b *testing.B) { benchmarkGet(b, "/news/build-season-by-the-numbers") }
func BenchmarkRSS(b *testing.B)         { benchmarkGet(b, "/news.xml") }
