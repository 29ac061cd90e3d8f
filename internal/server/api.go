package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/robohornets/robohornets/internal/news"
)

func (s *Server) serveNewsList(w http.ResponseWriter, r *http.Request) {
	snap := s.opts.Hub.Current()
	s.responses.get(snap.Version, "api news", func() *asset {
		return newBody(snap.JSON, jsonType)
	}).serve(w, r, cacheRevalidate)
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
	s.responses.get(snap.Version, "api article "+id, func() *asset {
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

// stream runs one server-sent events connection: the current data first,
// then the data after each change that alters it, and a comment every
// heartbeat so proxies keep the connection open. The data is encoded once
// per change by its hub and shared by every viewer. It ends when the viewer
// goes, when the server shuts down, or when the viewer takes no data for
// Options.StreamWriteTimeout. A stream beyond the caps of Options.MaxStreams
// and Options.MaxStreamsPerClient is refused with 503.
//
// Over HTTP/1 the stream takes the connection over from net/http and runs
// on a goroutine of its own (see hijackStream), which keeps a viewer to a
// few KB of memory; elsewhere (HTTP/2, the desktop window, tests' recorders)
// it runs in the handler.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, event string, subscribe func() (<-chan struct{}, func()), data func() []byte) {
	release, ok := s.acquireStream(w, r)
	if !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	head := []byte("event: " + event + "\ndata: ")
	run := func(gone <-chan struct{}, write streamWrite) {
		s.sendEvents(gone, write, head, subscribe, data)
	}
	if s.hijackStream(w, r, release, run) {
		return
	}
	defer release()
	rc := http.NewResponseController(w)
	// The server writes the end of the response after the handler returns.
	defer func() { _ = rc.SetWriteDeadline(time.Now().Add(s.opts.StreamWriteTimeout)) }()
	w.WriteHeader(http.StatusOK)
	run(r.Context().Done(), func(flush bool, parts ...[]byte) error {
		if err := rc.SetWriteDeadline(time.Now().Add(s.opts.StreamWriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		if !flush {
			return nil
		}
		return rc.Flush()
	})
}

// streamWrite sends parts to a viewer within Options.StreamWriteTimeout, and
// makes sure they leave the process when flush is set. Each write sets its
// own deadline, so a viewer that stops reading (its socket buffers full) is
// dropped instead of holding a connection and goroutines for ever, while a
// quiet stream may stay open between writes as long as it likes. A
// connection deadline is wall time, read by the network poller, so it comes
// from time.Now, not from the injected clock.
type streamWrite func(flush bool, parts ...[]byte) error

// sendEvents is the loop of one stream: the retry block and the current
// data, then the data after each change and the heartbeats, until gone
// closes, the server shuts down or a write fails.
func (s *Server) sendEvents(gone <-chan struct{}, write streamWrite, head []byte, subscribe func() (<-chan struct{}, func()), data func() []byte) {
	changed, stop := subscribe()
	defer stop()
	var last []byte
	send := func(first bool) error {
		d := data()
		if !first && bytes.Equal(d, last) {
			return nil
		}
		last = d
		if first {
			return write(true, retryBlock, head, d, eventEnd)
		}
		return write(true, head, d, eventEnd)
	}
	if err := send(true); err != nil {
		return
	}
	for {
		select {
		case <-gone:
			return
		case <-s.streams.Done():
			return
		case <-changed:
			if err := send(false); err != nil {
				return
			}
		case <-s.opts.Clock.After(s.opts.Heartbeat):
			if err := write(true, heartbeatBlock); err != nil {
				return
			}
		}
	}
}
