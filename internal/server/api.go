package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/news"
)

// encodedLists caches the JSON of the latest snapshot, so many readers of an
// unchanged list share one encoding.
type encodedLists struct {
	mu      sync.Mutex
	version uint64
	body    []byte
	etag    string
}

func (e *encodedLists) get(snap news.Snapshot) ([]byte, string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.body == nil || e.version != snap.Version {
		e.body, _ = json.Marshal(snap) // a Snapshot always marshals
		sum := sha256.Sum256(e.body)
		e.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
		e.version = snap.Version
	}
	return e.body, e.etag
}

func (s *server) serveNewsList(w http.ResponseWriter, r *http.Request) {
	body, etag := s.lists.get(s.opts.Hub.Current())
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(body)
}

func (s *server) article(r *http.Request) (news.Article, error) {
	id := r.PathValue("id")
	if err := news.ValidateID(id); err != nil {
		return news.Article{}, err
	}
	a, ok := s.opts.Hub.Current().Article(id)
	if !ok {
		return news.Article{}, fmt.Errorf("article %q: %w", id, news.ErrNotFound)
	}
	return a, nil
}

func (s *server) serveArticle(w http.ResponseWriter, r *http.Request) {
	a, err := s.article(r)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// serveNewsStream sends the news list as a "news" event now and after every change.
func (s *server) serveNewsStream(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, "news", func(snap news.Snapshot) any { return snap })
}

// serveArticleStream sends one article as an "article" event now and after
// every change; the data is null while the article does not exist.
func (s *server) serveArticleStream(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := news.ValidateID(id); err != nil {
		writeError(w, err)
		return
	}
	s.stream(w, r, "article", func(snap news.Snapshot) any {
		if a, ok := snap.Article(id); ok {
			return a
		}
		return nil
	})
}

// retryMillis tells EventSource how soon to reconnect after a dropped stream.
const retryMillis = 2000

// stream runs one server-sent events connection: the current value first,
// then a value after each change that alters it, and a comment every
// heartbeat so proxies keep the connection open. It ends with the request.
func (s *server) stream(w http.ResponseWriter, r *http.Request, event string, view func(news.Snapshot) any) {
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

	changed, stop := s.opts.Hub.Subscribe()
	defer stop()
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", retryMillis); err != nil {
		return
	}
	var last []byte
	send := func() error {
		data, err := json.Marshal(view(s.opts.Hub.Current()))
		if err != nil {
			return err
		}
		if string(data) == string(last) {
			return nil
		}
		last = data
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data); err != nil {
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
