package replay_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

// player serves a timeline from start on a fake clock, with the default keys.
type player struct {
	t     *testing.T
	clk   *clock.Fake
	srv   *replay.Server
	web   *httptest.Server
	start time.Time
}

func play(t *testing.T, tl replay.Timeline, start, now time.Time) *player {
	t.Helper()
	clk := clock.NewFake(now)
	srv := replay.New(replay.Options{Timeline: tl, Start: start, Clock: clk, NexusKey: replay.DefaultNexusKey, TBAKey: replay.DefaultTBAKey})
	web := httptest.NewServer(srv)
	t.Cleanup(web.Close)
	return &player{t: t, clk: clk, srv: srv, web: web, start: start}
}

// at moves the clock on to offset o of the timeline.
func (p *player) at(o time.Duration) { p.clk.Advance(p.start.Add(o).Sub(p.clk.Now())) }

// get decodes the answer of a GET of path into v and returns the body.
func (p *player) get(path string, v any) string {
	p.t.Helper()
	header := "X-TBA-Auth-Key"
	key := replay.DefaultTBAKey
	if strings.HasPrefix(path, "/nexus/") {
		header, key = "Nexus-Api-Key", replay.DefaultNexusKey
	}
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set(header, key)
	rec := httptest.NewRecorder()
	p.srv.ServeHTTP(rec, req)
	if rec.Code != 200 {
		p.t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		p.t.Fatalf("GET %s: %v in %s", path, err, rec.Body)
	}
	return rec.Body.String()
}

func matchByKey(ms []frcapi.TBAMatch, key string) *frcapi.TBAMatch {
	for i := range ms {
		if ms[i].Key == key {
			return &ms[i]
		}
	}
	return nil
}

// The demo plays the whole event: qualifications, alliance selection with
// us picked live, a bracket where we drop to the lower half and win on, a
// backup robot, the finals and the awards.
func TestDemoPlaysTheWholeEvent(t *testing.T) {
	start := time.Date(2026, 3, 14, 14, 0, 0, 0, time.UTC)
	p := play(t, replay.Demo(), start, start)
	const base = "/tba/api/v3/event/2026demo"
	var ev frcapi.TBAEventInfo
	p.get(base, &ev)
	if ev.PlayoffType == nil || *ev.PlayoffType != 10 || *ev.PlayoffTypeString != "Double Elimination Bracket (8 Alliances)" {
		t.Fatalf("event playoff type = %+v", ev)
	}
	var teams []frcapi.TBATeam
	p.get(base+"/teams/simple", &teams)
	if len(teams) != 30 || !slices.ContainsFunc(teams, func(tm frcapi.TBATeam) bool {
		return tm.Key == "frc1209" && tm.TeamNumber == 1209 && tm.Nickname == "RoboHornets"
	}) {
		t.Fatalf("teams = %+v", teams)
	}

	// Qualifications: no alliances (null), no playoff match listed.
	var alliances []frcapi.TBAAlliance
	if body := p.get(base+"/alliances", &alliances); body != "null" {
		t.Fatalf("alliances during qualifications = %s, want null", body)
	}
	var matches []frcapi.TBAMatch
	p.get(base+"/matches/simple", &matches)
	if len(matches) != 40 || matches[0].EventKey != "2026demo" || *matches[39].Alliances.Red.Score != -1 {
		t.Fatalf("event matches during qualifications: %d, %+v", len(matches), matches[39])
	}
	var status frcapi.TBATeamEventStatus
	p.get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if status.Alliance != nil || status.Playoff != nil || status.Qual.Status != "playing" {
		t.Fatalf("team status during qualifications: %+v", status)
	}

	// Alliance selection: the break, then captains, then we are picked.
	p.at(390 * time.Second)
	var nexus frcapi.NexusEventStatus
	p.get("/nexus/api/v1/event/2026demo", &nexus)
	if last := nexus.Matches[len(nexus.Matches)-1]; last.Label != "Qualification 40" || *last.BreakAfter != "Alliance selection" {
		t.Fatalf("Nexus at selection: last %+v", last)
	}
	var rankings frcapi.TBAEventRanking
	p.get(base+"/rankings", &rankings)
	if rankings.Rankings[10].TeamKey != "frc1209" || rankings.Rankings[10].Rank != 11 || len(rankings.Rankings[10].SortOrders) != 2 ||
		len(rankings.SortOrderInfo) != 2 || rankings.SortOrderInfo[0].Name != "Ranking Score" {
		t.Fatalf("final rankings: %+v", rankings)
	}
	p.at(400 * time.Second)
	p.get(base+"/alliances", &alliances)
	if len(alliances) != 8 || len(alliances[2].Picks) != 1 || alliances[2].Status != nil || !alliances[2].Backup.Present || alliances[2].Backup.Backup != nil {
		t.Fatalf("alliances while captains are named: %+v", alliances)
	}
	p.get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if status.Alliance != nil {
		t.Fatalf("picked before our pick: %+v", status.Alliance)
	}
	p.at(410 * time.Second)
	p.get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if a := status.Alliance; a == nil || a.Number != 3 || a.Pick != 1 || a.Name != "Alliance 3" || status.Playoff != nil || status.Qual.Status != "completed" {
		t.Fatalf("after our pick: %+v %+v", status.Alliance, status.Playoff)
	}

	// The bracket's first round is listed; the rest waits: absent on TBA
	// (the finals are listed with empty team keys), null teams on Nexus.
	p.at(430 * time.Second)
	p.get(base+"/matches/simple", &matches)
	if matchByKey(matches, "2026demo_sf4m1") == nil || matchByKey(matches, "2026demo_sf5m1") != nil {
		t.Fatalf("playoff matches at 430 s: %d listed", len(matches))
	}
	if f := matchByKey(matches, "2026demo_f1m1"); f == nil || len(f.Alliances.Red.TeamKeys) != 0 || f.Alliances.Blue.TeamKeys == nil {
		t.Fatalf("final 1 before it is decided: %+v", f)
	}
	p.get("/nexus/api/v1/event/2026demo", &nexus)
	labels := map[string]int{}
	for i, m := range nexus.Matches {
		labels[m.Label] = i
	}
	if m := nexus.Matches[labels["Playoff 5"]]; m.RedTeams != nil || m.BlueTeams != nil {
		t.Fatalf("Nexus Playoff 5 undecided: %+v", m)
	}
	// Alliance 3 plays Playoff 4, against Alliance 6, as in FIRST's bracket.
	if m := nexus.Matches[labels["Playoff 4"]]; len(m.RedTeams) != 3 || *m.RedTeams[1] != "1209" {
		t.Fatalf("Nexus Playoff 4: %+v", m)
	}
	p.get(base+"/alliances", &alliances)
	if st := alliances[2].Status; st == nil || st.Status != "playing" || st.DoubleElimRound != "Round 1" || st.Level != "sf" {
		t.Fatalf("Alliance 3 before its first match: %+v", st)
	}

	// We lose Playoff 8 and drop to the lower bracket.
	p.at(520 * time.Second)
	p.get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if pl := status.Playoff; pl == nil || pl.Record != (replay.Record{Wins: 1, Losses: 1}) || pl.Status != "playing" || pl.DoubleElimRound != "Round 3" ||
		*status.NextMatchKey != "2026demo_sf10m1" {
		t.Fatalf("after Playoff 8: %+v next %v", status.Playoff, status.NextMatchKey)
	}

	// A backup comes in for our partner 6328, and plays Playoff 12 on.
	p.at(540 * time.Second)
	p.get(base+"/alliances", &alliances)
	if bk := alliances[2].Backup.Backup; bk == nil || *bk != (replay.Backup{In: "frc4613", Out: "frc6328"}) {
		t.Fatalf("Alliance 3's backup = %+v", alliances[2].Backup)
	}
	p.get("/tba/api/v3/team/frc1209/event/2026demo/matches/simple", &matches)
	if m := matchByKey(matches, "2026demo_sf12m1"); m == nil || !slices.Equal(m.Alliances.Red.TeamKeys, []string{"frc148", "frc1209", "frc4613"}) {
		t.Fatalf("our Playoff 12: %+v", m)
	}
	p.get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if status.Alliance.Backup == nil || status.Alliance.Backup.In != "frc4613" {
		t.Fatalf("our status's backup: %+v", status.Alliance)
	}

	// The finals, best of three, then the awards.
	p.at(612 * time.Second)
	p.get(base+"/alliances", &alliances)
	if st := alliances[2].Status; st.Status != "won" || st.Level != "f" || st.CurrentLevelRecord != (replay.Record{Wins: 2, Losses: 1}) || st.Record != (replay.Record{Wins: 6, Losses: 2}) {
		t.Fatalf("Alliance 3 after the finals: %+v", st)
	}
	if st := alliances[0].Status; st.Status != "eliminated" || st.DoubleElimRound != "Finals" {
		t.Fatalf("Alliance 1 after the finals: %+v", st)
	}
	p.get("/nexus/api/v1/event/2026demo", &nexus)
	if last := nexus.Matches[len(nexus.Matches)-1]; last.Label != "Final 3" || *last.BreakAfter != "Awards break" || last.Status != frcapi.OnField {
		t.Fatalf("Nexus after the finals: %+v", last)
	}
	for _, e := range []frcapi.Endpoint{frcapi.TBAAlliances, frcapi.TBAEventMatches, frcapi.TBAEventTeams} {
		if p.srv.Count(e) == 0 {
			t.Errorf("%s not counted", e)
		}
	}
}

// A timeline may script an alliance's status and the team status's parts.
func TestScriptedPlayoffStatus(t *testing.T) {
	start := time.Date(2026, 3, 14, 14, 0, 0, 0, time.UTC)
	tl := replay.Timeline{Team: 1209, Event: "2026x", Steps: []replay.Step{{State: replay.State{
		Event: &replay.Event{Key: "2026x", Timezone: "UTC"},
		Alliances: []replay.Alliance{{Picks: []string{"frc1", "frc1209"}, NoBackupKey: true,
			Status: &replay.AllianceStatus{Level: "sf", Status: "playing", DoubleElimRound: "Round 2"}}},
		TeamStatus: &replay.TeamStatus{Rank: 2, NumTeams: 3,
			Playoff: &replay.TeamPlayoff{TBAPlayoffStatus: replay.AllianceStatus{Level: "f", Status: "won", DoubleElimRound: "Finals"}}},
	}}}}
	p := play(t, tl, start, start)
	var raw []map[string]json.RawMessage
	p.get("/tba/api/v3/event/2026x/alliances", &raw)
	if _, ok := raw[0]["backup"]; ok || raw[0]["name"] != nil || !strings.Contains(string(raw[0]["status"]), `"double_elim_round":"Round 2"`) ||
		!strings.Contains(string(raw[0]["status"]), `"playoff_type":null`) {
		t.Fatalf("scripted alliance: %s", raw)
	}
	var status frcapi.TBATeamEventStatus
	p.get("/tba/api/v3/team/frc1209/event/2026x/status", &status)
	if status.Alliance == nil || status.Alliance.Name != "Alliance 1" || status.Alliance.Pick != 1 || status.Playoff.Status != "won" {
		t.Fatalf("scripted team status: %+v %+v", status.Alliance, status.Playoff)
	}
	var teams []any
	if body := p.get("/tba/api/v3/event/2026x/teams/simple", &teams); body != "[]" {
		t.Fatalf("no teams: %s", body)
	}
}

func loadNYTR(t *testing.T, team int) replay.RealEvent {
	t.Helper()
	ev, err := replay.LoadReal(os.DirFS("testdata/2024nytr"), team)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// playAt serves the real event with its moment now.
func playAt(t *testing.T, ev replay.RealEvent, moment string) *player {
	t.Helper()
	o, err := ev.At(moment)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 14, 14, 0, 0, 0, time.UTC)
	return play(t, ev.Timeline, now.Add(-time.Duration(o)), now)
}

// Team 20 was Alliance 4's first pick at 2024nytr, lost Playoff 2 and
// Playoff 5: the product owner's moments, seen through its eyes.
func TestRealEventMoments(t *testing.T) {
	ev := loadNYTR(t, 20)
	const base = "/tba/api/v3/event/2024nytr"
	for _, name := range []string{"quals", "selection", "alliances", "playoffs", "eliminated", "end"} {
		if _, ok := ev.Moments[name]; !ok {
			t.Fatalf("moment %q missing: %v", name, ev.Moments)
		}
	}

	t.Run("quals", func(t *testing.T) {
		p := playAt(t, ev, "quals")
		var matches []frcapi.TBAMatch
		p.get(base+"/matches/simple", &matches)
		played, listed := 0, len(matches)
		for _, m := range matches {
			if *m.Alliances.Red.Score >= 0 {
				played++
			} else if m.ActualTime != nil && m.PostResultTime != nil {
				t.Fatalf("unplayed match with a result time: %+v", m)
			}
		}
		if listed != 77 || played < 30 || played > 45 {
			t.Fatalf("during quals: %d listed, %d played", listed, played)
		}
		var alliances []frcapi.TBAAlliance
		if body := p.get(base+"/alliances", &alliances); body != "null" {
			t.Fatalf("alliances during quals: %s", body)
		}
		var status frcapi.TBATeamEventStatus
		p.get("/tba/api/v3/team/frc20/event/2024nytr/status", &status)
		if status.Qual.Ranking == nil || len(status.Qual.Ranking.SortOrders) != 2 || status.NextMatchKey == nil {
			t.Fatalf("team 20 during quals: %+v", status.Qual)
		}
		var nexus frcapi.NexusEventStatus
		p.get("/nexus/api/v1/event/2024nytr", &nexus)
		if len(nexus.Matches) != 77 || nexus.Matches[0].Label != "Qualification 1" || nexus.Matches[0].Status != frcapi.OnField ||
			nexus.Matches[76].Status != frcapi.QueuingSoon {
			t.Fatalf("Nexus during quals: %d matches, first %+v", len(nexus.Matches), nexus.Matches[0])
		}
	})

	t.Run("selection", func(t *testing.T) {
		p := playAt(t, ev, "selection")
		var alliances []frcapi.TBAAlliance
		if body := p.get(base+"/alliances", &alliances); body != "null" {
			t.Fatalf("alliances during selection: %s", body)
		}
		var rankings frcapi.TBAEventRanking
		p.get(base+"/rankings", &rankings)
		if rankings.Rankings[0].TeamKey != "frc1796" || len(rankings.Rankings[0].SortOrders) != 6 || rankings.SortOrderInfo[0].Name != "Ranking Score" {
			t.Fatalf("final rankings at selection: %+v", rankings.Rankings[0])
		}
		var nexus frcapi.NexusEventStatus
		p.get("/nexus/api/v1/event/2024nytr", &nexus)
		if last := nexus.Matches[len(nexus.Matches)-1]; last.Label != "Qualification 77" || last.BreakAfter == nil || *last.BreakAfter != "Alliance selection" {
			t.Fatalf("Nexus at selection: %+v", last)
		}
	})

	t.Run("alliances", func(t *testing.T) {
		p := playAt(t, ev, "alliances")
		var raw []map[string]json.RawMessage
		p.get(base+"/alliances", &raw)
		// TBA's list has no backup key, though 9624 played for 3181.
		if _, ok := raw[0]["backup"]; len(raw) != 8 || ok {
			t.Fatalf("alliances: %s", raw)
		}
		var matches []frcapi.TBAMatch
		p.get(base+"/matches/simple", &matches)
		if len(matches) != 77+4 || matchByKey(matches, "2024nytr_sf4m1") == nil || matchByKey(matches, "2024nytr_sf4m1").ActualTime != nil {
			t.Fatalf("listed: %d", len(matches))
		}
		var nexus frcapi.NexusEventStatus
		p.get("/nexus/api/v1/event/2024nytr", &nexus)
		if n := len(nexus.Matches); n != 77+4 || nexus.Matches[77].Label != "Playoff 1" {
			t.Fatalf("Nexus playoffs listed: %d", n)
		}
	})

	t.Run("eliminated", func(t *testing.T) {
		p := playAt(t, ev, "eliminated")
		var status frcapi.TBATeamEventStatus
		p.get("/tba/api/v3/team/frc20/event/2024nytr/status", &status)
		if a := status.Alliance; a == nil || a.Number != 4 || a.Pick != 1 || a.Name != "Alliance 4" {
			t.Fatalf("team 20's alliance: %+v", a)
		}
		if pl := status.Playoff; pl == nil || pl.Status != "eliminated" || pl.DoubleElimRound != "Round 2" || pl.Record != (replay.Record{Losses: 2}) ||
			status.NextMatchKey != nil || *status.LastMatchKey != "2024nytr_sf5m1" {
			t.Fatalf("team 20 eliminated: %+v next %v last %v", status.Playoff, status.NextMatchKey, status.LastMatchKey)
		}
		var alliances []frcapi.TBAAlliance
		p.get(base+"/alliances", &alliances)
		if st := alliances[0].Status; st.Status != "playing" {
			t.Fatalf("Alliance 1 while the playoffs go on: %+v", st)
		}
		var matches []frcapi.TBAMatch
		p.get(base+"/matches/simple", &matches)
		if matchByKey(matches, "2024nytr_sf13m1") != nil || matchByKey(matches, "2024nytr_f1m1") != nil {
			t.Fatal("later playoff matches listed before they were decided")
		}
	})

	t.Run("end", func(t *testing.T) {
		// Every alliance's status, derived from the matches, is TBA's.
		p := playAt(t, ev, "end")
		var got []frcapi.TBAAlliance
		p.get(base+"/alliances", &got)
		data, err := os.ReadFile("testdata/2024nytr/alliances.json")
		if err != nil {
			t.Fatal(err)
		}
		var want []frcapi.TBAAlliance
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if g, w := *got[i].Status, *want[i].Status; g.Status != w.Status || g.Level != w.Level || g.Record != w.Record ||
				g.CurrentLevelRecord != w.CurrentLevelRecord || g.DoubleElimRound != w.DoubleElimRound || *g.PlayoffType != *w.PlayoffType {
				t.Errorf("Alliance %d: %+v, TBA says %+v", i+1, g, w)
			}
		}
	})

	if _, err := ev.At("teatime"); err == nil {
		t.Fatal("an unknown moment accepted")
	}
	if o, err := ev.At("2024-03-22T13:05:00Z"); err != nil || o != 0 {
		t.Fatalf("the first match's scheduled time = %v, %v", o, err)
	}
}
