// Command replayd serves the Nexus and TBA APIs from a replay timeline, for
// end-to-end tests and trying the pit display without network:
//
//	replayd -listen 127.0.0.1:8098 -timeline demo -loop
//
// Or it plays a real past event, saved as The Blue Alliance's answers (see
// internal/testutil/realevent/testdata/2024nytr), from a chosen moment on:
//
//	replayd -real internal/testutil/realevent/testdata/2024nytr -team 20 -at eliminated
//
// -at is a moment's name (quals, selection, alliances, playoffs,
// eliminated, end), a duration from the first qualification match's
// scheduled time, or a time of the event in RFC 3339; the event is shifted
// so that this moment is now. Nexus is derived from TBA's matches.
//
// It prints "listening on http://ADDR" once it accepts connections.
// POST /control with {"fault":"FAULT","api":"nexus|tba|"} makes one API, or
// both, fail that way, or ("") serve again. FAULT is one of slow, hang, 500,
// 403, malformed, truncated, truncated-chunked, huge, down and flap; flap
// alternates between -flap-fault and good answers every -flap-every.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/robohornets/robohornets/cmd/internal/cmdmain"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/faultreplay"
	"github.com/robohornets/robohornets/internal/testutil/realevent"
)

func main() { os.Exit(cmdmain.Run("replayd", run)) }

// run serves until ctx ends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replayd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	timeline := fs.String("timeline", "demo", `timeline file (JSON), or "demo" for the bundled one`)
	nexusKey := fs.String("nexus-key", replay.DefaultNexusKey, "Nexus-Api-Key to accept")
	tbaKey := fs.String("tba-key", replay.DefaultTBAKey, "X-TBA-Auth-Key to accept")
	loop := fs.Bool("loop", false, "start the timeline again after its length")
	flapEvery := fs.Duration("flap-every", faultreplay.DefaultFlapEvery, "how long each bad and good spell of the flap fault lasts")
	flapFault := fs.String("flap-fault", string(faultreplay.Down), "the `fault` of the flap fault's bad spells")
	realDir := fs.String("real", "", "play a real past event from this `dir` of TBA answers instead of -timeline")
	team := fs.Int("team", 0, "with -real: the team the /team/ endpoints answer for")
	at := fs.String("at", "quals", "with -real: the `moment` that is now: quals, selection, alliances, playoffs, eliminated, end, a duration or an RFC 3339 time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f := faultreplay.Fault(*flapFault); f == faultreplay.None || f == faultreplay.Flap || !f.Valid() {
		return fmt.Errorf("-flap-fault %q: want a fault other than flap", *flapFault)
	}
	if *flapEvery <= 0 {
		return fmt.Errorf("-flap-every %v: want a positive duration", *flapEvery)
	}
	tl := replay.Demo()
	var start time.Time
	if *realDir != "" {
		if *team <= 0 {
			return fmt.Errorf("-real needs -team")
		}
		ev, err := realevent.Load(os.DirFS(*realDir), *team)
		if err != nil {
			return err
		}
		offset, err := ev.At(*at)
		if err != nil {
			return err
		}
		tl, start = ev.Timeline, time.Now().Add(-time.Duration(offset))
	} else if *timeline != "demo" {
		data, err := os.ReadFile(*timeline)
		if err != nil {
			return err
		}
		if tl, err = replay.Parse(data); err != nil {
			return err
		}
	}
	srv := faultreplay.NewReplay(replay.Options{Timeline: tl, Start: start, Loop: *loop, NexusKey: *nexusKey, TBAKey: *tbaKey},
		faultreplay.Options{FlapEvery: *flapEvery, FlapFault: faultreplay.Fault(*flapFault)})
	mux := http.NewServeMux()
	mux.Handle("/control", srv.ControlHandler())
	mux.Handle("/", srv)
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	server := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- server.Serve(ln) }()
	// Whoever started replayd learns its address from this line.
	if _, err := fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr()); err != nil {
		_ = server.Close() // the write error is the one to report
		return err
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := server.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
