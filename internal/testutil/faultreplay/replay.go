package faultreplay

import (
	"net/http"

	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

// Replay is a replay server behind a Handler: it plays and counts as the
// server does, and fails as the Handler is told. Tests hold one value for
// both, as they did when the replay server failed on its own.
type Replay struct {
	*replay.Server
	*Handler
}

// NewReplay returns a replay server of opts behind faults. The faults'
// clock and start default to the server's, so that a schedule's offsets
// are the timeline's.
func NewReplay(opts replay.Options, faults Options) *Replay {
	if faults.Clock == nil {
		faults.Clock = opts.Clock
	}
	if faults.Start.IsZero() {
		faults.Start = opts.Start
	}
	srv := replay.New(opts)
	return &Replay{Server: srv, Handler: Wrap(srv, faults)}
}

// ServeHTTP serves through the faults.
func (r *Replay) ServeHTTP(w http.ResponseWriter, req *http.Request) { r.Handler.ServeHTTP(w, req) }
