package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/event"
	"github.com/robohornets/robohornets/internal/event/replay"
)

// demoEventHub runs an event hub against the replay server playing the
// bundled demo, until the test ends, and waits for its first merged Status.
func demoEventHub(t *testing.T) *event.Hub {
	t.Helper()
	upstream := httptest.NewServer(replay.New(replay.Options{Timeline: replay.Demo()}))
	t.Cleanup(upstream.Close)
	hub := event.NewHub(event.Options{
		EventKey: replay.Demo().Event,
		NexusURL: upstream.URL + "/nexus/api/v1",
		TBAURL:   upstream.URL + "/tba/api/v3",
		NexusKey: replay.DefaultNexusKey,
		TBAKey:   replay.DefaultTBAKey,
		Logger:   discardLogger(),
	})
	changed, stop := hub.Subscribe()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hub.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	deadline := time.After(waitTimeout)
	for hub.Current().NextMatch == nil {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no next match from the demo: %+v", hub.Current())
		}
	}
	return hub
}

func TestEventAPIAndStream(t *testing.T) {
	hub := demoEventHub(t)
	e := newEnv(t, envConfig{event: hub})
	res, body := e.get(t, "/api/event")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("GET /api/event: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var s event.Status
	decodeJSON(t, body, &s)
	if !s.Configured || s.NextMatch == nil || s.NextMatch.Label != "Qualification 14" || s.Team != 1209 {
		t.Fatalf("/api/event = %+v, want the demo's Qualification 14 for team 1209", s)
	}
	checkSecurityHeaders(t, res.Header)

	srv := newHTTPServer(t, e)
	stream := startStream(t, srv, "/api/event/stream")
	ev := stream.next(t)
	if ev.Event != "event" || !strings.Contains(ev.Data, `"label":"Qualification 14"`) {
		t.Fatalf("first stream event = %+v", ev)
	}
	for _, secret := range []string{replay.DefaultNexusKey, replay.DefaultTBAKey} {
		if strings.Contains(body, secret) || strings.Contains(ev.Data, secret) {
			t.Fatalf("an API key reached a response: %q", secret)
		}
	}
}

func TestEventIsOffWithoutAHub(t *testing.T) {
	e := newEnv(t, envConfig{})
	_, body := e.get(t, "/api/event")
	var s event.Status
	decodeJSON(t, body, &s)
	if s.Configured {
		t.Fatalf("/api/event without an event hub = %+v, want not configured", s)
	}
}

func TestNexusWebhookOnlyWithAToken(t *testing.T) {
	hub := demoEventHub(t)
	without := newEnv(t, envConfig{event: hub})
	if res, _ := without.request(t, http.MethodPost, "/api/nexus/webhook", nil); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST without a configured token = %d, want 405", res.StatusCode)
	}
	with := newEnv(t, envConfig{event: hub, webhookToken: "s3cret"})
	res, body := with.request(t, http.MethodPost, "/api/nexus/webhook", http.Header{"Nexus-Token": {"wrong"}})
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST with a wrong token = %d %s, want 401", res.StatusCode, body)
	}
	if res, _ := with.get(t, "/api/nexus/webhook"); res.StatusCode == http.StatusOK {
		t.Errorf("GET of the webhook = %d, want an error", res.StatusCode)
	}
}
