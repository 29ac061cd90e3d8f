package frcevent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

// Demo is the bundled demo timeline served in-process by a replay server,
// so that --event demo runs the same clients, merge and hub as a real
// event. It needs no key from the user: it brings its own.
type Demo struct {
	url   string
	srv   *http.Server
	done  chan struct{}
	close sync.Once
	err   error
}

// The demo's own keys for its own server.
const (
	demoNexusKey = "demo-nexus-key"
	demoTBAKey   = "demo-tba-key"
)

// StartDemo serves the demo timeline on 127.0.0.1 (a free port), shifted
// to start now and looping every five minutes, until ctx ends or Close is
// called. Pass its Apply result to NewHub.
func StartDemo(ctx context.Context, c clock.Clock, logger *slog.Logger) (*Demo, error) {
	if c == nil {
		c = clock.Real{}
	}
	if logger == nil {
		logger = slog.Default()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("event: demo: %w", err)
	}
	handler := replay.New(replay.Options{Timeline: replay.Demo(), Loop: true, Clock: c, NexusKey: demoNexusKey, TBAKey: demoTBAKey})
	d := &Demo{
		url:  "http://" + ln.Addr().String(),
		srv:  &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)},
		done: make(chan struct{}),
	}
	go func() {
		defer close(d.done)
		if err := d.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("event: demo server stopped", "err", err)
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			_ = d.Close() // logged by Serve's goroutine if it matters
		case <-d.done:
		}
	}()
	logger.Info("event: demo upstream serving", "url", d.url)
	return d, nil
}

// demoSpeedup is how much faster than a real event the demo's sources are
// polled: its event is compressed to about ten minutes, and a minute
// between two looks at TBA would skip whole rounds of the playoffs.
const demoSpeedup = 10

// Apply returns opts set to read the demo: team 1209, event 2026demo, the
// demo's URLs and keys. It turns the cache off, so that the demo never
// replaces the cache of a real event.
func (d *Demo) Apply(opts Options) Options {
	tl := replay.Demo()
	opts.Team, opts.EventKey, opts.NexusEventKey, opts.Disabled = tl.Team, tl.Event, "", false
	opts.NexusURL, opts.TBAURL = d.url+replay.Base(frcapi.Nexus), d.url+replay.Base(frcapi.TBA)
	opts.NexusKey, opts.TBAKey = demoNexusKey, demoTBAKey
	opts.CacheFile = ""
	opts.Speedup = demoSpeedup
	return opts
}

// Close stops the demo server and waits for it. Later calls return the
// first result.
func (d *Demo) Close() error {
	d.close.Do(func() {
		d.err = d.srv.Close()
		<-d.done
	})
	return d.err
}
