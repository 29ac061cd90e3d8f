package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

func benchmarkHandler(b *testing.B) http.Handler {
	b.Helper()
	store, err := news.OpenLocal(filepath.Join(b.TempDir(), "news"), nil)
	if err != nil {
		b.Fatal(err)
	}
	hub := news.NewHub(news.HubOptions{Store: store})
	// Subscribed before Run starts, so the first list cannot slip past.
	changed, stop := hub.Subscribe()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hub.Run(ctx)
	}()
	b.Cleanup(func() { cancel(); <-done })
	<-changed
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><html><head><!--app-head--><title>x</title></head><body><div id=root></div></body></html>")}}
	return server.New(server.Options{Assets: assets, Hub: hub, Logger: discardLogger()})
}

func benchmarkGet(b *testing.B, path string) {
	h := benchmarkHandler(b)
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
