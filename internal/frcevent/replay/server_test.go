package replay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

var start = time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)

func s(v string) *string { return &v }

func timeline() Timeline {
	return Timeline{
		Team: 1209, Event: "2026test", NexusEvent: "2026test_div", Length: Offset(10 * time.Minute),
		Steps: []Step{
			{State: State{
				Nexus: &NexusEvent{Matches: []NexusMatch{
					{Label: "Qualification 1", RedTeams: []*string{s("1209"), nil, s("3")}, Times: NexusTimes{
						EstimatedStart: At(2 * time.Minute), ActualQueue: At(time.Minute), ActualOnDeck: At(90 * time.Second), ActualOnField: At(2 * time.Minute)}},
					{Label: "Qualification 2", Status: "Queuing soon"},
				}},
				Announcements: []Announcement{{ID: "a", Text: "later", Posted: Offset(30 * time.Second)}},
				Matches: []Match{
					{Key: "2026test_qm1", CompLevel: "qm", SetNumber: 1, MatchNumber: 1, Red: []string{"frc1209"}, Blue: []string{"frc2"},
						RedScore: 10, BlueScore: 5, WinningAlliance: "red", Time: At(2 * time.Minute), ActualTime: At(2 * time.Minute), ResultAt: At(3 * time.Minute)},
					{Key: "2026test_qm2", CompLevel: "qm", Red: []string{"frc7"}, Blue: []string{"frc8"}},
				},
				Event: &Event{Key: "2026test", Name: "Test", Timezone: "America/Chicago", StartDay: -1, EndDay: 1},
			}},
			{At: Offset(5 * time.Minute), State: State{Pits: map[string]string{"1209": "A1"}}},
			{At: Offset(6 * time.Minute), State: State{DownEvents: []string{"2026test"}}},
		},
	}
}

type fixture struct {
	clk *clock.Fake
	srv *Server
	web *httptest.Server
}

func newFixture(t *testing.T) fixture {
	clk := clock.NewFake(start)
	srv := New(Options{Timeline: timeline(), Clock: clk, Loop: true, NexusKey: "nk", TBAKey: "tk"})
	web := httptest.NewServer(srv)
	t.Cleanup(web.Close)
	return fixture{clk, srv, web}
}

func (f fixture) get(t *testing.T, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.web.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := f.web.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

const (
	nexusPath = "/nexus/api/v1/event/2026test_div"
	tbaPath   = "/tba/api/v3/team/frc1209/event/2026test/matches/simple"
)

func TestKeysAndEvents(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, path string
		header     []string
		want       int
	}{
		{"nexus without key", nexusPath, nil, 401},
		{"nexus wrong key", nexusPath, []string{"Nexus-Api-Key", "tk"}, 403},
		{"nexus", nexusPath, []string{"Nexus-Api-Key", "nk"}, 200},
		{"nexus TBA's key for a division", "/nexus/api/v1/event/2026test", []string{"Nexus-Api-Key", "nk"}, 404},
		{"nexus pits", nexusPath + "/pits", []string{"Nexus-Api-Key", "nk"}, 200},
		{"tba without key", tbaPath, nil, 401},
		{"tba wrong key", tbaPath, []string{"X-TBA-Auth-Key", "nk"}, 403},
		{"tba", tbaPath, []string{"X-TBA-Auth-Key", "tk"}, 200},
		{"tba unknown event", "/tba/api/v3/event/2026nope", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba other team", "/tba/api/v3/team/frc254/event/2026test/status", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba team events", "/tba/api/v3/team/frc1209/events/2026/simple", []string{"X-TBA-Auth-Key", "tk"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if resp, body := f.get(t, tt.path, tt.header...); resp.StatusCode != tt.want {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, tt.want)
			}
		})
	}
}
