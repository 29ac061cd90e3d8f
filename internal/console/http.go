package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// errBadBody marks a request body that is not the JSON the route takes.
var errBadBody = errors.New("bad request body")

// jsonType is the Content-Type of every answer of the API.
const jsonType = "application/json; charset=utf-8"

// writeJSON sends v with status; answers of the console are never cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", jsonType)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client is gone if this fails
}

// writeError sends the Refusal {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, Refusal{Error: msg})
}

// readJSON decodes the request's body, at most MaxBodyBytes, into v; the
// error wraps errBadBody or is an *http.MaxBytesError.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return fmt.Errorf("%w: %v", errBadBody, err)
	}
	return nil
}

// withBody adapts h, a handler that takes the request's JSON body as a B,
// to a member's handler: readJSON reads the body, and a body it cannot
// read is h's refusal.
func withBody[B any](h func(w http.ResponseWriter, r *http.Request, m Member, body B) error) memberHandler {
	return func(w http.ResponseWriter, r *http.Request, m Member) error {
		var body B
		if err := readJSON(w, r, &body); err != nil {
			return err
		}
		return h(w, r, m, body)
	}
}

// refusal returns the answer to err when it refuses the request itself
// rather than reporting a failure: an *apiError, or a body readJSON could
// not take (413 when it is too large, else 400).
func refusal(err error) (*apiError, bool) {
	var ae *apiError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		return ae, true
	case errors.As(err, &tooBig):
		return &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d bytes", tooBig.Limit)}, true
	case errors.Is(err, errBadBody):
		return &apiError{http.StatusBadRequest, err.Error()}, true
	}
	return nil, false
}
