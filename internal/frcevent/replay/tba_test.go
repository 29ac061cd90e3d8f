package replay_test

import (
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

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
