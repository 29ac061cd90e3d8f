package frcevent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

// TBA's season endpoints, decoded from answers made of real TBA data
// (testdata/season/SOURCES.md).
func TestTBAClientDecodesTheSeason(t *testing.T) {
	files := map[string]string{
		"/team/frc2240/events/2025/statuses": "testdata/season/statuses-frc2240-2025.json",
		"/team/frc2240/awards/2025":          "testdata/season/awards-frc2240-2025.json",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, err := os.ReadFile(files[r.URL.Path])
		if err != nil {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(data)
	}))
	defer srv.Close()
	c := &tbaClient{base: srv.URL, http: srv.Client(), timeout: time.Second}
	ctx := context.Background()

	results, err := c.teamEventStatuses(ctx, 2240, 2025)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*board.SeasonResult{"2025mndu2": {Rank: 7, Of: 54, Record: &board.Record{Wins: 8, Losses: 1},
		Playoff: board.SeasonPlayoff{Kind: board.SeasonPlayoffWon, Alliance: 2, Record: &board.Record{Wins: 5}}}}
	if !reflect.DeepEqual(results, want) {
		t.Errorf("statuses = %+v, want %+v", results["2025mndu2"], want["2025mndu2"])
	}
	awards, err := c.teamAwards(ctx, 2240, 2025)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string][]string{"2025mndu2": {"Regional Winners", "Quality Award"}}; !reflect.DeepEqual(awards, want) {
		t.Errorf("awards = %q, want %q", awards, want)
	}
}

// seasonTimeline is testTimeline with a season: a regional before the
// event, where we were eliminated in Round 4 and won the Judges' Award.
func seasonTimeline() replay.Timeline {
	tl := testTimeline()
	tl.Steps[0].Season = []replay.SeasonEvent{{
		Event: replay.Event{Key: "2026arfs", Name: "Fort Smith Regional", Timezone: "America/Chicago", StartDay: -22, EndDay: -20,
			City: "Fort Smith", StateProv: "AR", Country: "USA"},
		Status: &replay.TeamStatus{Rank: 12, NumTeams: 38, Record: replay.Record{Wins: 6, Losses: 5, Ties: 1},
			Alliance: &replay.TeamAlliance{Name: "Alliance 5", Number: 5, Pick: 1},
			Playoff: &replay.TeamPlayoff{TBAPlayoffStatus: replay.AllianceStatus{Level: "sf", Status: "eliminated", DoubleElimRound: "Round 4",
				Record: replay.Record{Wins: 2, Losses: 2}}}},
		Awards: []replay.Award{{Name: "Judges' Award", Type: 13}},
	}}
	return tl
}

// wantSeason is seasonTimeline's season as the board shows it: the
// regional, then the event itself (3rd of 24 so far).
var wantSeason = []board.SeasonEvent{
	{Key: "2026arfs", Name: "Fort Smith Regional", Place: "Fort Smith, AR, USA", Start: "2026-02-20", End: "2026-02-22",
		Rank: 12, Of: 38, Record: &board.Record{Wins: 6, Losses: 5, Ties: 1},
		Playoff: board.SeasonPlayoff{Kind: board.SeasonPlayoffEliminated, Alliance: 5, Level: board.PlayoffLevelBracket, Round: 4, Record: &board.Record{Wins: 2, Losses: 2}},
		Awards:  []string{"Judges' Award"}},
	{Key: "2026test", Name: "Test Regional", Start: "2026-03-13", End: "2026-03-15",
		Rank: 3, Of: 24, Record: &board.Record{Wins: 1}, Playoff: board.SeasonPlayoff{Kind: board.SeasonPlayoffNone}, Awards: []string{}},
}

func TestHubSeasonWithAnEvent(t *testing.T) {
	e := newEnv(t, seasonTimeline())
	h, _ := e.runHub(t, e.options(), 2)
	if s := h.Current(); !reflect.DeepEqual(s.Season, wantSeason) {
		t.Fatalf("season = %+v, want %+v", s.Season, wantSeason)
	}
	// Slowly: every 30 min, not at the event's pace.
	e.advance(29*time.Minute, 30*time.Second, 2)
	for _, ep := range []frcapi.Endpoint{frcapi.TBATeamEvents, frcapi.TBATeamEventStatuses, frcapi.TBATeamAwards} {
		if n := e.up.Count(ep); n != 1 {
			t.Errorf("%s asked %d times in 29 min, want once", ep, n)
		}
	}
	e.advance(2*time.Minute, 30*time.Second, 2)
	if n := e.up.Count(frcapi.TBATeamEventStatuses); n != 2 {
		t.Errorf("statuses asked %d times in 31 min, want twice", n)
	}
}

func TestHubSeasonWithoutAnEvent(t *testing.T) {
	tl := seasonTimeline()
	tl.Steps[0].TeamEvents = []replay.Event{} // no event today: the season's regional only
	e := newEnv(t, tl)
	opts := e.options()
	opts.EventKey, opts.CacheFile = "", filepath.Join(t.TempDir(), "event.json")
	h, stop := e.runHub(t, opts, 2) // the search and the season
	s := h.Current()
	if s.Configured || !reflect.DeepEqual(s.Season, wantSeason[:1]) || s.TBA.State != board.StateOK {
		t.Fatalf("configured %v, TBA %+v, season %+v, want the season without an event", s.Configured, s.TBA, s.Season)
	}
	if n := e.up.Count(frcapi.TBATeamEvents); n != 1 {
		t.Errorf("events asked %d times by the search and the season, want once", n)
	}
	stop()
	// A restart without TBA still shows it, from the cache.
	opts.TBAKey = ""
	if s := NewHub(opts).Current(); !reflect.DeepEqual(s.Season, wantSeason[:1]) {
		t.Fatalf("season from the cache = %+v", s.Season)
	}
}

func TestHubSeasonKeepsTheLastGood(t *testing.T) {
	e := newEnv(t, seasonTimeline())
	o, opts := e.withOverrides(t)
	h, _ := e.runHub(t, opts, 2)
	if s := h.Current(); !reflect.DeepEqual(s.Season, wantSeason) {
		t.Fatalf("season = %+v", s.Season)
	}
	// The statuses break, then answer {} (no status anywhere), the awards
	// answer []: the results and awards held stay.
	o.set("/tba/api/v3/team/frc1209/events/2026/statuses", `{"2026arfs": {"qual": `)
	e.advance(31*time.Minute, 30*time.Second, 2)
	o.set("/tba/api/v3/team/frc1209/events/2026/statuses", `{}`)
	o.set("/tba/api/v3/team/frc1209/awards/2026", `[]`)
	e.advance(31*time.Minute, 30*time.Second, 2)
	s := h.Current()
	if !reflect.DeepEqual(s.Season, wantSeason) {
		t.Fatalf("season after failures = %+v, want the last good", s.Season)
	}
	// The results are optional: TBA is still up.
	if s.TBA.State != board.StateOK {
		t.Errorf("TBA %+v while only the season's statuses failed", s.TBA)
	}
	if !strings.Contains(e.logs.String(), "team event statuses") {
		t.Errorf("the failure is not logged: %s", e.logs)
	}
}
