package replay_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

func newFixture(t *testing.T) replaytest.Fixture[*replay.Server] {
	return replaytest.NewFixture(t, replay.New)
}

func TestKeysAndEvents(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, path string
		header     []string
		want       int
	}{
		{"nexus without key", replaytest.NexusPath, nil, 401},
		{"nexus wrong key", replaytest.NexusPath, []string{"Nexus-Api-Key", "tk"}, 403},
		{"nexus", replaytest.NexusPath, []string{"Nexus-Api-Key", "nk"}, 200},
		{"nexus TBA's key for a division", "/nexus/api/v1/event/2026test", []string{"Nexus-Api-Key", "nk"}, 404},
		{"nexus pits", replaytest.NexusPath + "/pits", []string{"Nexus-Api-Key", "nk"}, 200},
		{"tba without key", replaytest.TBAPath, nil, 401},
		{"tba wrong key", replaytest.TBAPath, []string{"X-TBA-Auth-Key", "nk"}, 403},
		{"tba", replaytest.TBAPath, []string{"X-TBA-Auth-Key", "tk"}, 200},
		{"tba unknown event", "/tba/api/v3/event/2026nope", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba rankings of an unknown event", "/tba/api/v3/event/2026nope/rankings", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba other team", "/tba/api/v3/team/frc254/event/2026test/status", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba matches of our team at an unknown event", "/tba/api/v3/team/frc1209/event/2026nope/matches/simple", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba team events", "/tba/api/v3/team/frc1209/events/2026/simple", []string{"X-TBA-Auth-Key", "tk"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if resp, body := f.Get(t, tt.path, tt.header...); resp.StatusCode != tt.want {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, tt.want)
			}
		})
	}
}

// A server given no keys, as the demo's in this process, serves anyone:
// without a key header or with any.
func TestServedWithoutKeys(t *testing.T) {
	srv := replay.New(replay.Options{Timeline: replaytest.Timeline(), Clock: clock.NewFake(replaytest.Start)})
	tests := []struct {
		name, path, header, key string
	}{
		{"nexus without key", replaytest.NexusPath, "", ""},
		{"nexus any key", replaytest.NexusPath, "Nexus-Api-Key", "anything"},
		{"tba without key", replaytest.TBAPath, "", ""},
		{"tba any key", replaytest.TBAPath, "X-TBA-Auth-Key", "anything"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			if tt.header != "" {
				req.Header.Set(tt.header, tt.key)
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Fatalf("status %d (%s), want 200", rec.Code, rec.Body)
			}
		})
	}
}

func TestETagAndCaching(t *testing.T) {
	f := newFixture(t)
	resp, _ := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk")
	etag := resp.Header.Get("ETag")
	if etag == "" || resp.Header.Get("Cache-Control") != "public, max-age=61" {
		t.Fatalf("headers = %v", resp.Header)
	}
	if resp, body := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk", "If-None-Match", etag); resp.StatusCode != 304 || len(body) != 0 {
		t.Fatalf("matching If-None-Match: %d %q", resp.StatusCode, body)
	}
	f.Clock.Advance(4 * time.Minute) // the score comes out
	if resp, _ := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk", "If-None-Match", etag); resp.StatusCode != 200 || resp.Header.Get("ETag") == etag {
		t.Fatalf("changed data: %d, ETag %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	if n := f.Server.Count(frcapi.TBATeamMatches); n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}
	if resp, _ := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk"); resp.Header.Get("ETag") != "" {
		t.Fatal("Nexus answers with an ETag")
	}
}
