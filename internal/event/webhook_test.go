package event

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// pushed is an EventStatus as Nexus pushes it, dated asOf.
func pushed(asOf time.Time, announcement string) string {
	return fmt.Sprintf(`{"eventKey":"2026test","dataAsOfTime":%d,"nowQueuing":"Qualification 3",
		"matches":[{"label":"Qualification 3","status":"Now queuing","redTeams":["1209","666","777"],"blueTeams":["888","999","101"],"times":{}}],
		"announcements":[{"id":"w1","announcement":%q,"postedTime":%d}],"partsRequests":[]}`,
		asOf.UnixMilli(), announcement, asOf.UnixMilli())
}

func post(h http.Handler, token, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/api/nexus/webhook", strings.NewReader(body))
	if token != "" {
		req.Header.Set("Nexus-Token", token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestWebhook(t *testing.T) {
	e := newEnv(t, testTimeline())
	h, _ := e.runHub(t, e.options(), 2)
	hook := h.WebhookHandler("hook-secret")
	changed, unsubscribe := h.Subscribe()
	defer unsubscribe()
	polled := h.Current().Nexus.AsOf

	tests := []struct {
		name     string
		token    string
		body     string
		code     int
		applied  bool
		contains string
	}{
		{"no token", "", pushed(start.Add(time.Hour), "x"), http.StatusUnauthorized, false, "Nexus-Token"},
		{"wrong token", "hook-secreT", pushed(start.Add(time.Hour), "x"), http.StatusUnauthorized, false, "Nexus-Token"},
		{"too big", "hook-secret", `{"pad":"` + strings.Repeat("x", maxWebhookBody) + `"}`, http.StatusRequestEntityTooLarge, false, "1 MiB"},
		{"malformed", "hook-secret", `{"eventKey":"2026test","matches":[`, http.StatusBadRequest, false, "malformed"},
		{"older than the poll", "hook-secret", pushed(polled.Add(-time.Minute), "old"), http.StatusOK, false, "ignored"},
		{"as old as the poll", "hook-secret", pushed(polled, "same"), http.StatusOK, false, "ignored"},
		{"another event", "hook-secret", strings.Replace(pushed(start.Add(time.Hour), "x"), "2026test", "2026else", 1), http.StatusOK, false, "another event"},
		{"newer", "hook-secret", pushed(start.Add(time.Minute), "Pushed news"), http.StatusOK, true, "applied"},
		{"older than the last push", "hook-secret", pushed(start.Add(30*time.Second), "stale"), http.StatusOK, false, "ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := post(hook, tt.token, tt.body)
			if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.contains) {
				t.Fatalf("answer %d %s, want %d with %q", rec.Code, rec.Body, tt.code, tt.contains)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			if got := notified(changed); got != tt.applied {
				t.Fatalf("notified = %v, want %v", got, tt.applied)
			}
		})
	}
	s := h.Current()
	if s.Announcements[0].Text != "Pushed news" || s.NowQueuing != "Qualification 3" || !s.Nexus.AsOf.Equal(start.Add(time.Minute)) {
		t.Fatalf("after the push: %+v", s)
	}
	// The next poll brings older data than the push: the push stays.
	e.advance(30*time.Second, time.Second, 2)
	if s := h.Current(); s.Announcements[0].Text != "Pushed news" {
		t.Fatalf("a poll of older data replaced the push: %+v", s.Announcements)
	}
	rec := httptest.NewRecorder()
	hook.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/nexus/webhook", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET = %d, want 405", rec.Code)
	}
}

func TestWebhookWithoutNexusKey(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.NexusKey = ""
	h, _ := e.runHub(t, opts, 1)
	if s := h.Current(); s.Nexus.State != StateOff {
		t.Fatalf("Nexus = %+v before any push", s.Nexus)
	}
	if rec := post(h.WebhookHandler("t"), "t", pushed(start, "hi")); rec.Code != http.StatusOK {
		t.Fatalf("push: %d %s", rec.Code, rec.Body)
	}
	if s := h.Current(); s.Nexus.State != StateOK || s.NextMatch == nil || s.NextMatch.Label != "Qualification 3" {
		t.Fatalf("after a push: Nexus %+v next %+v", s.Nexus, s.NextMatch)
	}
}

func TestWebhookNeedsAToken(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an empty token")
		}
	}()
	NewHub(Options{Disabled: true}).WebhookHandler("")
}
