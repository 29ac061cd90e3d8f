package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// serveEvent is the pit display's data, as JSON, compressed once per
// version: the follow page's first request on a phone.
func (s *Server) serveEvent(w http.ResponseWriter, r *http.Request) {
	body, version := s.opts.Event.JSON()
	s.eventBodies.get(version, "api/event", func() *asset { return newBody(body, jsonType) }).serve(w, r, cacheRevalidate)
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

// maxWebhookBody bounds a pushed EventStatus; a whole event is far smaller.
const maxWebhookBody = 1 << 20

// The errors of the webhook's requests.
var (
	errBadToken = errors.New("bad or missing Nexus-Token")
	errBadBody  = errors.New("cannot read the body")
)

// serveNexusWebhook takes Nexus's pushes, which carry the token set in
// Options.NexusWebhookToken in their Nexus-Token header. An applied push
// answers {"status":"applied"}; one older than the data held
// {"status":"ignored"}, as a poll may have been ahead of it.
func (s *Server) serveNexusWebhook(w http.ResponseWriter, r *http.Request) {
	// Hashing first makes the comparison take the same time whatever the
	// length of the token sent.
	got := sha256.Sum256([]byte(r.Header.Get("Nexus-Token")))
	if subtle.ConstantTimeCompare(got[:], s.webhookToken[:]) != 1 {
		writeError(w, errBadToken)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	if err != nil {
		writeError(w, fmt.Errorf("%w: %w", errBadBody, err))
		return
	}
	applied, err := s.opts.Event.PushNexus(body)
	switch {
	case err != nil:
		writeError(w, err)
	case applied:
		writeJSON(w, http.StatusOK, map[string]string{"status": "applied"})
	default:
		writeJSON(w, http.StatusOK, map[string]string{"status": "ignored", "reason": "not newer than the data held"})
	}
}
