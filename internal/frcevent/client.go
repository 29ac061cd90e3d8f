package frcevent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

const (
	// requestTimeout bounds one request, connection and body included.
	requestTimeout = 10 * time.Second
	// maxBody bounds an upstream answer: a bigger one is an error, never a
	// big allocation. A whole event is well under 1 MiB.
	maxBody = 4 << 20
)

// sourceError is a failed request with the Source state it puts its source
// in. Its text never holds a key: keys only travel in headers.
type sourceError struct {
	state board.SourceState
	err   error
}

func (e *sourceError) Error() string { return e.err.Error() }
func (e *sourceError) Unwrap() error { return e.err }

// stateOf returns the Source state a request error leads to.
func stateOf(err error) board.SourceState {
	if err == nil {
		return board.StateOK
	}
	var se *sourceError
	if errors.As(err, &se) {
		return se.state
	}
	return board.StateUnreachable
}

// refused reports whether the source turned us away for good (a bad key or
// an unknown event): asking again soon cannot help.
func refused(err error) bool {
	s := stateOf(err)
	return s == board.StateKeyRejected || s == board.StateNotFound
}

// response is an upstream answer that passed the status and size checks.
type response struct {
	notModified bool
	etag        string
	body        []byte
}

// httpGet sends one GET and sorts the answer into a response or a
// sourceError. what names the request in errors, like "nexus GET /event/x".
func httpGet(ctx context.Context, hc *http.Client, timeout time.Duration, what, url string, header http.Header) (response, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return response{}, &sourceError{board.StateUnreachable, fmt.Errorf("event: %s: %w", what, err)}
	}
	req.Header = header
	resp, err := hc.Do(req)
	if err != nil {
		return response{}, &sourceError{board.StateUnreachable, fmt.Errorf("event: %s: %w", what, err)}
	}
	defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		return response{notModified: true}, nil
	case http.StatusUnauthorized, http.StatusForbidden:
		return response{}, &sourceError{board.StateKeyRejected, fmt.Errorf("event: %s: %s", what, resp.Status)}
	case http.StatusNotFound:
		return response{}, &sourceError{board.StateNotFound, fmt.Errorf("event: %s: %s", what, resp.Status)}
	default:
		return response{}, &sourceError{board.StateUnreachable, fmt.Errorf("event: %s: %s", what, resp.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return response{}, &sourceError{board.StateUnreachable, fmt.Errorf("event: %s: read body: %w", what, err)}
	}
	if len(body) > maxBody {
		return response{}, &sourceError{board.StateUnreachable, fmt.Errorf("event: %s: body over %d bytes", what, maxBody)}
	}
	return response{etag: resp.Header.Get("ETag"), body: body}, nil
}

// requestHeader is the header of a request to src: JSON, and the key
// unless there is none (Options.Keyless).
func requestHeader(src frcapi.Source, key string) http.Header {
	header := http.Header{"Accept": {"application/json"}}
	if key != "" {
		header.Set(src.KeyHeader(), key)
	}
	return header
}

// decode unmarshals an upstream body; a malformed one makes the source
// unreachable, as a truncated answer is a network fault more than anything.
func decode(what string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return &sourceError{board.StateUnreachable, fmt.Errorf("event: %s: decode: %w", what, err)}
	}
	return nil
}
