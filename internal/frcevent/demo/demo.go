// Package demo plays the bundled demo event to a hub inside this process:
// the replay server of package replay answers the hub's requests through an
// http.RoundTripper, so that --event demo runs the same clients, merge and
// hub as a real event, with no socket, no key and no fault.
package demo

import (
	"bytes"
	"io"
	"net/http"
	"strconv"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

// origin is the demo's upstream in URLs. The transport answers every
// request itself; the name is in a reserved domain (RFC 2606), which no
// resolver knows, so no request could leave the process by mistake.
const origin = "http://demo.invalid"

// speedup is how much faster than a real event the demo's sources are
// polled: its event is compressed to about ten minutes, and a minute
// between two looks at TBA would skip whole rounds of the playoffs.
const speedup = 10

// Apply returns opts set to read the demo: its team and event, its
// upstream in this process as opts.HTTPClient, asked without keys. The
// timeline starts at opts.Clock's time now (nil means clock.Real) and
// loops. It turns the cache off, so that the demo never replaces the cache
// of a real event.
func Apply(opts frcevent.Options) frcevent.Options {
	c := opts.Clock
	if c == nil {
		c = clock.Real{}
	}
	tl := replay.Demo()
	upstream := replay.New(replay.Options{Timeline: tl, Loop: true, Clock: c})
	opts.Team, opts.EventKey, opts.NexusEventKey, opts.Disabled = tl.Team, tl.Event, "", false
	opts.NexusURL, opts.TBAURL = origin+replay.Base(frcapi.Nexus), origin+replay.Base(frcapi.TBA)
	opts.NexusKey, opts.TBAKey, opts.Keyless = "", "", true
	opts.HTTPClient = &http.Client{Transport: transport{upstream}}
	opts.CacheFile = ""
	opts.Speedup = speedup
	return opts
}

// transport answers each request with handler, in the caller's goroutine.
type transport struct{ handler http.Handler }

// RoundTrip implements http.RoundTripper. The handler gets a copy of req,
// as a server's handler would: ServeMux sets the pattern it matched on the
// request it serves, and a RoundTripper must not change req.
func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close() // the replay reads no body; closing is the RoundTripper's job
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	in := req.Clone(req.Context())
	in.Body, in.RequestURI = http.NoBody, req.URL.RequestURI()
	w := &response{header: make(http.Header)}
	t.handler.ServeHTTP(w, in)
	code := w.code
	if code == 0 {
		code = http.StatusOK
	}
	return &http.Response{
		Status: strconv.Itoa(code) + " " + http.StatusText(code), StatusCode: code,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.header, Body: io.NopCloser(bytes.NewReader(w.body.Bytes())), ContentLength: int64(w.body.Len()),
		Request: req,
	}, nil
}

// response is the http.ResponseWriter of one request: the replay's answers
// are small JSON, kept whole.
type response struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (w *response) Header() http.Header { return w.header }

func (w *response) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *response) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}
