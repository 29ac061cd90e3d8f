package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/server"
	"github.com/robohornets/robohornets/internal/testutil/ssetest"
)

// BenchmarkEventPushToStream measures the road from upstream to screen: a
// Nexus webhook push, its merge into the Status, and the live stream event
// that carries it to a viewer. Each op is one push until the viewer has it.
func BenchmarkEventPushToStream(b *testing.B) {
	hub := server.DemoEventHub(b)
	site := benchmarkServer(b, server.Options{Event: hub, NexusWebhookToken: "bench-token"})
	srv := httptest.NewServer(site)
	b.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/event/stream", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }() // closing a read body cannot lose data
	events := ssetest.NewReader(res.Body, ssetest.SkipComments)
	waitFor := func(text string) {
		for {
			ev, err := events.Next()
			if err != nil {
				b.Fatalf("stream ended before %q: %v", text, err)
			}
			if strings.Contains(ev.Data, text) {
				return
			}
		}
	}
	i, asOf := 0, time.Now()
	for b.Loop() {
		i++
		// Nexus dates its data in milliseconds; each push must be newer.
		asOf = asOf.Add(time.Millisecond)
		if now := time.Now(); now.After(asOf) {
			asOf = now
		}
		text := fmt.Sprintf("bench push %d", i)
		body := pushed(asOf, text)
		push, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/nexus/webhook", strings.NewReader(body))
		push.Header.Set("Nexus-Token", "bench-token")
		answer, err := http.DefaultClient.Do(push)
		if err != nil {
			b.Fatal(err)
		}
		verdict, _ := io.ReadAll(answer.Body)
		_ = answer.Body.Close() // closing a read body cannot lose data
		if answer.StatusCode != http.StatusOK || !strings.Contains(string(verdict), "applied") {
			b.Fatalf("push %d: %d %s", i, answer.StatusCode, verdict)
		}
		waitFor(text)
	}
}
