package faultreplay

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
)

// The broken answers: what a network, a proxy or a server in trouble
// sends instead of the answer it was given.

// copyHeader copies the header src into dst.
func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}

// cut sends the first half of body and drops the connection, as a network
// or a proxy failing in the middle of an answer does. With declared, the
// headers announce the whole body's length, which never comes; without,
// the body is chunked and its last chunk never comes.
func cut(w http.ResponseWriter, code int, body []byte, declared bool) {
	if declared {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(code)
	_, _ = w.Write(body[:len(body)/2])
	_ = http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler) // closes the connection without ending the answer
}

// padding is the filler Huge's body repeats, shared by every answer.
var padding = sync.OnceValue(func() []byte { return bytes.Repeat([]byte("x"), 64<<10) })

// serveHuge sends a valid JSON object of hugeSize bytes, {"pad":"xxx…"},
// a piece at a time: the server's memory does not grow with it. It stops
// when the client hangs up, as a client with a size limit does.
func serveHuge(w http.ResponseWriter) {
	head, tail := []byte(`{"pad":"`), []byte(`"}`)
	w.Header().Set("Content-Length", strconv.Itoa(hugeSize))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(head); err != nil {
		return
	}
	for left := hugeSize - len(head) - len(tail); left > 0; {
		n, err := w.Write(padding()[:min(left, len(padding()))])
		if err != nil {
			return
		}
		left -= n
	}
	_, _ = w.Write(tail)
}
