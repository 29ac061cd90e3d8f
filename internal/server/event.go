package server

import (
	"net/http"
)

// serveEvent is the pit display's data, as JSON.
func (s *Server) serveEvent(w http.ResponseWriter, _ *http.Request) {
	body, _ := s.opts.Event.JSON()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(body)
}

// serveEventStream sends the pit display's data as an "event" event now and
// after every change. Viewers only read what the hub holds: they never cause
// an upstream request.
func (s *Server) serveEventStream(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, "event", s.opts.Event.Subscribe, func() []byte {
		body, _ := s.opts.Event.JSON()
		return body
	})
}
