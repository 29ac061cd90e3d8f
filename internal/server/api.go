package server

import (
	"fmt"
	"net/http"

	"github.com/robohornets/robohornets/internal/news"
)

func (s *Server) serveNewsList(w http.ResponseWriter, r *http.Request) {
	s.newsList().serve(w, r, cacheRevalidate)
}

// newsList is the body of /api/news, made once per news version.
func (s *Server) newsList() *asset {
	snap := s.opts.Hub.Current()
	return s.bodies.get(snap.Version, "api news", func() *asset { return newBody(snap.JSON, jsonType) })
}

func (s *Server) serveArticle(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := news.ValidateID(id); err != nil {
		writeError(w, err)
		return
	}
	snap := s.opts.Hub.Current()
	data := snap.ArticleJSON(id)
	if data == nil {
		writeError(w, fmt.Errorf("article %q: %w", id, news.ErrNotFound))
		return
	}
	s.bodies.get(snap.Version, "api article "+id, func() *asset {
		return newBody(data, jsonType)
	}).serve(w, r, cacheRevalidate)
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

var (
	retryBlock     = []byte(fmt.Sprintf("retry: %d\n\n", retryMillis))
	heartbeatBlock = []byte(": heartbeat\n\n")
	eventEnd       = []byte("\n\n")
)
