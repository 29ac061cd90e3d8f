package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/news"
)

// etagCache holds the ETag of the latest news snapshot, so many readers of
// an unchanged list share one hash of its JSON.
type etagCache struct {
	mu      sync.Mutex
	version uint64
	etag    string
}

func (e *etagCache) get(snap news.Snapshot) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.etag == "" || e.version != snap.Version {
		sum := sha256.Sum256(snap.JSON)
		e.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
		e.version = snap.Version
	}
	return e.etag
}

func (s *Server) serveNewsList(w http.ResponseWriter, r *http.Request) {
	snap := s.opts.Hub.Current()
	etag := s.etags.get(snap)
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(snap.JSON)
}

func (s *Server) serveArticle(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := news.ValidateID(id); err != nil {
		writeError(w, err)
		return
	}
	data := s.opts.Hub.Current().ArticleJSON(id)
	if data == nil {
		writeError(w, fmt.Errorf("article %q: %w", id, news.ErrNotFound))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// serveNewsStream sends the news list as a "news" event now and after every change.
func (s *Server) serveNewsStream(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, "news", s.opts.Hub.Subscribe, func() []byte { return s.opts.Hub.Current().JSON })
}

// jsonNull is the data of an article event while the article does not exist.
var jsonNull = []byte("null")

// serveArticleStream sends one article as an "article" event now and after
// every change; the data is null while the article does not exist.
func (s *Server) serveArticleStream(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := news.ValidateID(id); err != nil {
		writeError(w, err)
		return
	}
	s.stream(w, r, "article", s.opts.Hub.Subscribe, func() []byte {
		if data := s.opts.Hub.Current().ArticleJSON(id); data != nil {
			return data
		}
		return jsonNull
	})
}

// retryMillis tells EventSource how soon to reconnect after a dropped stream.
const retryMillis = 2000

// stream runs one server-sent events connection: the current data first,
// then the data after each change that alters it, and a comment every
// heartbeat so proxies keep the connection open. The data is encoded once
// per change by its hub and shared by every viewer. It ends with the request
// or when the server shuts down.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, event string, subscribe func() (<-chan struct{}, func()), data func() []byte) {
	rc := http.NewResponseController(w)
	// A stream outlives any write timeout the server sets for normal requests.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		s.opts.Logger.Debug("server: cannot clear the write deadline", "err", err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	changed, stop := subscribe()
	defer stop()
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", retryMillis); err != nil {
		return
	}
	var last []byte
	send := func() error {
		d := data()
		if bytes.Equal(d, last) {
			return nil
		}
		last = d
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, d); err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := send(); err != nil {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.streams.Done():
			return
		case <-changed:
			if err := send(); err != nil {
				return
			}
		case <-s.opts.Clock.After(s.opts.Heartbeat):
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		}
	}
}
