// Package replaytest is what the tests of the replay server, of the fault
// injection in front of it and of the real-event loader share: one short
// timeline, a replay on a fake clock behind an httptest server, a GET with
// headers, and a Player that steps through a timeline and decodes answers.
package replaytest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

// Start is where the fixture's fake clock starts.
var Start = time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)

// The timeline's Nexus event and the team's TBA matches.
const (
	NexusPath = "/nexus/api/v1/event/2026test_div"
	TBAPath   = "/tba/api/v3/team/frc1209/event/2026test/matches/simple"
)

func s(v string) *string { return &v }

// Timeline is ten minutes of team 1209 at 2026test (Nexus's division
// 2026test_div): two qualification matches, the first queued, on deck and
// on field in its first two minutes and scored at three; an announcement
// at 30 s; the team's pit at 5 min; TBA lists the event as down at 6 min.
func Timeline() replay.Timeline {
	return replay.Timeline{
		Team: 1209, Event: "2026test", NexusEvent: "2026test_div", Length: replay.Offset(10 * time.Minute),
		Steps: []replay.Step{
			{State: replay.State{
				Nexus: &replay.NexusEvent{Matches: []replay.NexusMatch{
					{Label: "Qualification 1", RedTeams: []*string{s("1209"), nil, s("3")}, Times: replay.NexusTimes{
						EstimatedStart: replay.At(2 * time.Minute), ActualQueue: replay.At(time.Minute), ActualOnDeck: replay.At(90 * time.Second), ActualOnField: replay.At(2 * time.Minute)}},
					{Label: "Qualification 2", Status: "Queuing soon"},
				}},
				Announcements: []replay.Announcement{{ID: "a", Text: "later", Posted: replay.Offset(30 * time.Second)}},
				Matches: []replay.Match{
					{Key: "2026test_qm1", CompLevel: "qm", SetNumber: 1, MatchNumber: 1, Red: []string{"frc1209"}, Blue: []string{"frc2"},
						RedScore: 10, BlueScore: 5, WinningAlliance: "red", Time: replay.At(2 * time.Minute), ActualTime: replay.At(2 * time.Minute), ResultAt: replay.At(3 * time.Minute)},
					{Key: "2026test_qm2", CompLevel: "qm", Red: []string{"frc7"}, Blue: []string{"frc8"}},
				},
				Event: &replay.Event{Key: "2026test", Name: "Test", Timezone: "America/Chicago", StartDay: -1, EndDay: 1},
			}},
			{At: replay.Offset(5 * time.Minute), State: replay.State{Pits: map[string]string{"1209": "A1"}}},
			{At: replay.Offset(6 * time.Minute), State: replay.State{DownEvents: []string{"2026test"}}},
		},
	}
}

// Fixture is a server S playing Timeline on a fake clock at Start, looping,
// with the keys "nk" (Nexus) and "tk" (TBA), served by Web.
type Fixture[S http.Handler] struct {
	Clock  *clock.Fake
	Server S
	Web    *httptest.Server
}

// NewFixture builds the fixture's server with newServer (replay.New, or a
// replay behind faults) and serves it until the test ends.
func NewFixture[S http.Handler](t testing.TB, newServer func(replay.Options) S) Fixture[S] {
	clk := clock.NewFake(Start)
	srv := newServer(replay.Options{Timeline: Timeline(), Clock: clk, Loop: true, NexusKey: "nk", TBAKey: "tk"})
	web := httptest.NewServer(srv)
	t.Cleanup(web.Close)
	return Fixture[S]{Clock: clk, Server: srv, Web: web}
}

// Do GETs path with the header's name, value pairs and returns the answer
// unread, or the error. Unlike Get it may be called from any goroutine.
func (f Fixture[S]) Do(ctx context.Context, path string, header ...string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.Web.URL+path, nil)
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return f.Web.Client().Do(req)
}

// Get is Do that reads the whole body. It fails the test when there is no
// answer, so call it from the test's goroutine.
func (f Fixture[S]) Get(t testing.TB, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	resp, err := f.Do(context.Background(), path, header...)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// Player serves a timeline from its start on a fake clock, with the default
// keys, and asks it as a client would.
type Player struct {
	t     *testing.T
	clk   *clock.Fake
	start time.Time
	// Server is the replay served.
	Server *replay.Server
}

// Play serves tl from start, with the fake clock at now.
func Play(t *testing.T, tl replay.Timeline, start, now time.Time) *Player {
	t.Helper()
	clk := clock.NewFake(now)
	srv := replay.New(replay.Options{Timeline: tl, Start: start, Clock: clk, NexusKey: replay.DefaultNexusKey, TBAKey: replay.DefaultTBAKey})
	return &Player{t: t, clk: clk, start: start, Server: srv}
}

// At moves the clock on to offset o of the timeline.
func (p *Player) At(o time.Duration) { p.clk.Advance(p.start.Add(o).Sub(p.clk.Now())) }

// Get decodes the answer of a GET of path into v and returns the body; an
// answer other than 200 fails the test.
func (p *Player) Get(path string, v any) string {
	p.t.Helper()
	header, key := frcapi.TBA.KeyHeader(), replay.DefaultTBAKey
	if strings.HasPrefix(path, replay.Base(frcapi.Nexus)+"/") {
		header, key = frcapi.Nexus.KeyHeader(), replay.DefaultNexusKey
	}
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set(header, key)
	rec := httptest.NewRecorder()
	p.Server.ServeHTTP(rec, req)
	if rec.Code != 200 {
		p.t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		p.t.Fatalf("GET %s: %v in %s", path, err, rec.Body)
	}
	return rec.Body.String()
}

// MatchByKey returns the match of ms with key, or nil.
func MatchByKey(ms []frcapi.TBAMatch, key string) *frcapi.TBAMatch {
	for i := range ms {
		if ms[i].Key == key {
			return &ms[i]
		}
	}
	return nil
}
