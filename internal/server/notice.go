package server

import (
	"net/http"

	"github.com/robohornets/robohornets/internal/notice"
)

// noNotice stands in for Options.Notice when it is nil: a hub that never
// has a notice, so the routes answer the empty notice.
var noNotice = notice.NewHub(notice.Options{})

// notices is the hub of the pit notice.
func (s *Server) notices() *notice.Hub {
	if s.opts.Notice != nil {
		return s.opts.Notice
	}
	return noNotice
}

// serveNotice is the pit notice in force, as JSON; its text is "" when
// there is none.
func (s *Server) serveNotice(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", jsonType)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(s.notices().JSON())
}

// serveNoticeStream sends the pit notice as a "notice" event now and after
// every change, its expiry too.
func (s *Server) serveNoticeStream(w http.ResponseWriter, r *http.Request) {
	hub := s.notices()
	s.stream(w, r, "notice", hub.Subscribe, hub.JSON)
}
