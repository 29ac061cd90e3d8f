package event

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// maxWebhookBody bounds a pushed EventStatus; a whole event is far smaller.
const maxWebhookBody = 1 << 20

// WebhookHandler returns the handler of Nexus's webhook (POST
// /api/nexus/webhook), which pushes the same EventStatus the API serves.
// Requests must carry token in the Nexus-Token header. A pushed status that
// is newer than any seen replaces the Nexus data and reaches subscribers at
// once; an older or equal one, or one of another event, is ignored. It
// panics when token is empty, a programmer error: the hook would be open to
// anyone.
func (h *Hub) WebhookHandler(token string) http.Handler {
	if token == "" {
		panic("event: WebhookHandler: empty token")
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "POST only"})
			return
		}
		// Hashing first makes the comparison take the same time whatever
		// the length of the token sent.
		got := sha256.Sum256([]byte(r.Header.Get("Nexus-Token")))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "bad or missing Nexus-Token"})
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "body over 1 MiB"})
			return
		case err != nil:
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "cannot read body"})
			return
		}
		ev, err := parseNexusEvent("nexus webhook", body)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "malformed EventStatus"})
			return
		}
		if reason := h.applyWebhook(ev); reason != "" {
			writeJSON(w, http.StatusOK, map[string]string{"status": "ignored", "reason": reason})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "applied"})
	})
}

// applyWebhook stores a pushed EventStatus and returns "", or says why it
// was ignored.
func (h *Hub) applyWebhook(ev *nexusEvent) (ignored string) {
	h.apply(func(up *upstream) {
		switch {
		case !up.Configured:
			ignored = "no event configured"
		case ev.EventKey != "" && ev.EventKey != up.NexusEventKey:
			ignored = "another event"
		case !h.storeNexusEvent(up, ev, true):
			ignored = "not newer than the data held"
		default:
			h.errs[epNexusEvent] = nil
			h.webhookSeen = true
		}
	})
	return ignored
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the client hung up: nothing to do
}
