package server_test

import (
	"cmp"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/server"
)

func TestEventAPIAndStream(t *testing.T) {
	hub := server.DemoEventHub(t)
	e := newEnv(t, envConfig{event: hub})
	res, body := e.get(t, "/api/event")
	checkAnswer(t, res, body, http.StatusOK, "application/json; charset=utf-8")
	var s board.Status
	decodeJSON(t, body, &s)
	if !s.Configured || s.NextMatch == nil || s.NextMatch.Label != "Qualification 14" || s.Team != 1209 {
		t.Fatalf("/api/event = %+v, want the demo's Qualification 14 for team 1209", s)
	}
	checkSecurityHeaders(t, res.Header)

	srv := newHTTPServer(t, e)
	stream := startStream(t, srv, "/api/event/stream")
	ev := stream.next(t)
	if ev.Type != "event" || !strings.Contains(ev.Data, `"label":"Qualification 14"`) {
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
	var s board.Status
	decodeJSON(t, body, &s)
	if s.Configured {
		t.Fatalf("/api/event without an event hub = %+v, want not configured", s)
	}
}

func TestNexusWebhookOnlyWithAToken(t *testing.T) {
	hub := server.DemoEventHub(t)
	without := newEnv(t, envConfig{event: hub})
	if res, _ := without.request(t, http.MethodPost, "/api/nexus/webhook", nil); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST without a configured token = %d, want 405", res.StatusCode)
	}
	with := newEnv(t, envConfig{event: hub, webhookToken: "s3cret"})
	if res, _ := with.get(t, "/api/nexus/webhook"); res.StatusCode == http.StatusOK {
		t.Errorf("GET of the webhook = %d, want an error", res.StatusCode)
	}
}

// pushed is an EventStatus of the demo event as Nexus pushes it, dated asOf.
func pushed(asOf time.Time, announcement string) string {
	return fmt.Sprintf(`{"eventKey":"2026demo","dataAsOfTime":%d,"nowQueuing":null,"matches":[],
		"announcements":[{"id":"w1","announcement":%q,"postedTime":%d}],"partsRequests":[]}`,
		asOf.UnixMilli(), announcement, asOf.UnixMilli())
}

// TestNexusWebhook sends pushes through the whole handler, in order: each
// refused or ignored one must leave the event data as it was, each applied
// one must be what the data shows next. Nexus sends the same status more
// than once and asks its receivers to keep the one with the latest
// dataAsOfTime, so a replayed push is answered 200 "ignored", not an error
// that the sender would retry.
func TestNexusWebhook(t *testing.T) {
	hub := server.DemoEventHub(t)
	e := newEnv(t, envConfig{event: hub, webhookToken: "hook-secret"})
	polled := hub.Current().Nexus.AsOf
	newer := polled.Add(time.Second)

	tests := []struct {
		name     string
		token    string
		asOf     time.Time
		text     string // the push's announcement; "" means name
		edit     func(body string) string
		code     int
		contains string
	}{
		{name: "no token", asOf: newer, code: http.StatusUnauthorized, contains: "Nexus-Token"},
		{name: "wrong token", token: "hook-secreT", asOf: newer, code: http.StatusUnauthorized, contains: "Nexus-Token"},
		{name: "longer token", token: "hook-secret-and-more", asOf: newer, code: http.StatusUnauthorized, contains: "Nexus-Token"},
		{name: "too big", token: "hook-secret", asOf: newer, edit: func(b string) string { return b[:len(b)-1] + `,"pad":"` + strings.Repeat("x", 1<<20) + `"}` },
			code: http.StatusRequestEntityTooLarge, contains: "too large"},
		{name: "malformed", token: "hook-secret", asOf: newer, edit: func(b string) string { return b[:len(b)/2] }, code: http.StatusBadRequest, contains: "malformed"},
		{name: "no eventKey", token: "hook-secret", asOf: newer, edit: func(b string) string { return strings.Replace(b, `"eventKey":"2026demo",`, "", 1) },
			code: http.StatusBadRequest, contains: "no eventKey"},
		{name: "another event", token: "hook-secret", asOf: newer, edit: func(b string) string { return strings.Replace(b, "2026demo", "2026else", 1) },
			code: http.StatusConflict, contains: "another event"},
		{name: "from the future", token: "hook-secret", asOf: polled.Add(1000 * time.Hour), code: http.StatusUnprocessableEntity, contains: "future"},
		{name: "older than the poll", token: "hook-secret", asOf: polled.Add(-time.Minute), code: http.StatusOK, contains: `"ignored"`},
		{name: "newer", token: "hook-secret", asOf: newer, code: http.StatusOK, contains: `"applied"`},
		{name: "the same push replayed", token: "hook-secret", asOf: newer, text: "newer", code: http.StatusOK, contains: `"ignored"`},
		{name: "as old as the push, other data", token: "hook-secret", asOf: newer, code: http.StatusOK, contains: `"ignored"`},
		{name: "an older snapshot replayed", token: "hook-secret", asOf: newer.Add(-time.Millisecond), code: http.StatusOK, contains: `"ignored"`},
		{name: "wrong token, newer", token: "hook-secreT", asOf: newer.Add(time.Second), code: http.StatusUnauthorized, contains: "Nexus-Token"},
		{name: "newer again", token: "hook-secret", asOf: newer.Add(time.Second), code: http.StatusOK, contains: `"applied"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := cmp.Or(tt.text, tt.name)
			body := pushed(tt.asOf, text)
			if tt.edit != nil {
				body = tt.edit(body)
			}
			req := httptest.NewRequest(http.MethodPost, "/api/nexus/webhook", strings.NewReader(body))
			if tt.token != "" {
				req.Header.Set("Nexus-Token", tt.token)
			}
			before := hub.Current()
			rec := httptest.NewRecorder()
			e.handler.ServeHTTP(rec, req)
			if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.contains) {
				t.Fatalf("answer %d %s, want %d with %q", rec.Code, rec.Body, tt.code, tt.contains)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			after := hub.Current()
			if tt.contains == `"applied"` {
				if !after.Nexus.AsOf.Equal(tt.asOf) || !slices.Equal(announcements(after), []string{text}) {
					t.Fatalf("after an applied push the data is as of %v with announcements %q, want %v and [%q]", after.Nexus.AsOf, announcements(after), tt.asOf, text)
				}
				return
			}
			if !after.Nexus.AsOf.Equal(before.Nexus.AsOf) || !slices.Equal(announcements(after), announcements(before)) {
				t.Fatalf("a push answered %d changed the data: as of %v with announcements %q, was %v with %q",
					rec.Code, after.Nexus.AsOf, announcements(after), before.Nexus.AsOf, announcements(before))
			}
		})
	}
}

// announcements are the texts of the announcements s shows.
func announcements(s board.Status) []string {
	var texts []string
	for _, a := range s.Announcements {
		texts = append(texts, a.Text)
	}
	return texts
}
