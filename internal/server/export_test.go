package server

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/server/fastpath"
)

// FastPathAnswers reports whether the fast path answers req (raw bytes)
// itself rather than handing it to net/http.
func (s *Server) FastPathAnswers(req []byte) bool {
	r, ok := fastpath.Parse(req)
	if !ok || s.fast == nil {
		return false
	}
	_, ok = fastSite{s}.Answer(r)
	return ok
}

// DemoEventHub runs an event hub against the replay server playing the
// bundled demo until the test ends, and returns it once it has merged a
// next match.
func DemoEventHub(tb testing.TB) *frcevent.Hub {
	tb.Helper()
	upstream := httptest.NewServer(replay.New(replay.Options{Timeline: replay.Demo(), NexusKey: replay.DefaultNexusKey, TBAKey: replay.DefaultTBAKey}))
	tb.Cleanup(upstream.Close)
	hub := frcevent.NewHub(frcevent.Options{
		EventKey: replay.Demo().Event,
		NexusURL: upstream.URL + "/nexus/api/v1",
		TBAURL:   upstream.URL + "/tba/api/v3",
		NexusKey: replay.DefaultNexusKey,
		TBAKey:   replay.DefaultTBAKey,
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	changed, stop := hub.Subscribe()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = hub.Run(ctx) }()
	tb.Cleanup(func() { cancel(); <-done })
	deadline := time.After(10 * time.Second)
	for hub.Current().NextMatch == nil {
		select {
		case <-changed:
		case <-deadline:
			tb.Fatalf("no next match from the demo: %+v", hub.Current())
		}
	}
	return hub
}
