package cli

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

// --event demo plays the bundled event to the pit display: the hub is set
// up as for a real event and reads the demo's timeline in this process,
// whatever keys the environment holds.
func TestStartEventDemo(t *testing.T) {
	c := commonFlags{news: news.Config{Dir: t.TempDir(), Kind: news.StoreLocal}}
	e := eventFlags{team: 1209, event: eventDemo, nexusKey: "env-nexus-key", tbaKey: "env-tba-key",
		nexusURL: "https://frc.nexus/api/v1", tbaURL: "https://www.thebluealliance.com/api/v3"}
	svc, err := start(c, e, slog.New(slog.NewTextHandler(io.Discard, nil)), server.Options{}, consoleConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.stop()
	changed, unsubscribe := svc.event.Subscribe()
	defer unsubscribe()
	deadline := time.After(10 * time.Second)
	for {
		// Both sources answer before every one of their endpoints has
		// (the event's name comes with a later TBA answer): wait for all.
		s := svc.event.Current()
		if s.Nexus.State == board.StateOK && s.TBA.State == board.StateOK &&
			s.EventKey == "2026demo" && s.EventName == "RoboHornets Demo Regional" && s.Pit == "B12" && s.NextMatch != nil {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no demo event after 10 s (both sources live, the demo's key, name, pit and a next match): %+v", svc.event.Current())
		}
	}
}
