package replay_test

import (
	"testing"

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
		{"tba other team", "/tba/api/v3/team/frc254/event/2026test/status", []string{"X-TBA-Auth-Key", "tk"}, 404},
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
