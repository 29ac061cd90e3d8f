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

// writeError sends {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
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

// writeBodyError answers an error of readJSON: 413 for a body too large, else 400.
func writeBodyError(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d bytes", tooBig.Limit))
		return
	}
	writeError(w, http.StatusBadRequest, err.Error())
}
