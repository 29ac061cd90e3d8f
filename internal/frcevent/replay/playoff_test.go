package replay_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

// The demo plays the whole event: qualifications, alliance selection with
// us picked live, a bracket where we drop to the lower half and win on, a
// backup robot, the finals and the awards.
func TestDemoPlaysTheWholeEvent(t *testing.T) {
	start := time.Date(2026, 3, 14, 14, 0, 0, 0, time.UTC)
	p := replaytest.Play(t, replay.Demo(), start, start)
	const base = "/tba/api/v3/event/2026demo"
	var ev frcapi.TBAEventInfo
	p.Get(base, &ev)
	if ev.PlayoffType == nil || *ev.PlayoffType != 10 || *ev.PlayoffTypeString != "Double Elimination Bracket (8 Alliances)" {
		t.Fatalf("event playoff type = %+v", ev)
	}
	var teams []frcapi.TBATeam
	p.Get(base+"/teams/simple", &teams)
	if len(teams) != 30 || !slices.ContainsFunc(teams, func(tm frcapi.TBATeam) bool {
		return tm.Key == "frc1209" && tm.TeamNumber == 1209 && tm.Nickname == "RoboHornets"
	}) {
		t.Fatalf("teams = %+v", teams)
	}

	// Qualifications: no alliances (null), no playoff match listed.
	var alliances []frcapi.TBAAlliance
	if body := p.Get(base+"/alliances", &alliances); body != "null" {
		t.Fatalf("alliances during qualifications = %s, want null", body)
	}
	var matches []frcapi.TBAMatch
	p.Get(base+"/matches", &matches)
	if len(matches) != 40 || matches[0].EventKey != "2026demo" || *matches[39].Alliances.Red.Score != -1 {
		t.Fatalf("event matches during qualifications: %d, %+v", len(matches), matches[39])
	}
	var status frcapi.TBATeamEventStatus
	p.Get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if status.Alliance != nil || status.Playoff != nil || status.Qual.Status != "playing" {
		t.Fatalf("team status during qualifications: %+v", status)
	}

	// Alliance selection: the break, then captains, then we are picked.
	p.At(390 * time.Second)
	var nexus frcapi.NexusEventStatus
	p.Get("/nexus/api/v1/event/2026demo", &nexus)
	if last := nexus.Matches[len(nexus.Matches)-1]; last.Label != "Qualification 40" || *last.BreakAfter != "Alliance selection" {
		t.Fatalf("Nexus at selection: last %+v", last)
	}
	var rankings frcapi.TBAEventRanking
	p.Get(base+"/rankings", &rankings)
	if rankings.Rankings[10].TeamKey != "frc1209" || rankings.Rankings[10].Rank != 11 || len(rankings.Rankings[10].SortOrders) != 2 ||
		len(rankings.SortOrderInfo) != 2 || rankings.SortOrderInfo[0].Name != "Ranking Score" {
		t.Fatalf("final rankings: %+v", rankings)
	}
	p.At(400 * time.Second)
	p.Get(base+"/alliances", &alliances)
	if len(alliances) != 8 || len(alliances[2].Picks) != 1 || alliances[2].Status != nil || !alliances[2].Backup.Present || alliances[2].Backup.Backup != nil {
		t.Fatalf("alliances while captains are named: %+v", alliances)
	}
	p.Get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if status.Alliance != nil {
		t.Fatalf("picked before our pick: %+v", status.Alliance)
	}
	p.At(410 * time.Second)
	p.Get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if a := status.Alliance; a == nil || a.Number != 3 || a.Pick != 1 || a.Name != "Alliance 3" || status.Playoff != nil || status.Qual.Status != "completed" {
		t.Fatalf("after our pick: %+v %+v", status.Alliance, status.Playoff)
	}

	// The bracket's first round is listed; the rest waits: absent on TBA
	// (the finals are listed with empty team keys), null teams on Nexus.
	p.At(430 * time.Second)
	p.Get(base+"/matches", &matches)
	if replaytest.MatchByKey(matches, "2026demo_sf4m1") == nil || replaytest.MatchByKey(matches, "2026demo_sf5m1") != nil {
		t.Fatalf("playoff matches at 430 s: %d listed", len(matches))
	}
	if f := replaytest.MatchByKey(matches, "2026demo_f1m1"); f == nil || len(f.Alliances.Red.TeamKeys) != 0 || f.Alliances.Blue.TeamKeys == nil {
		t.Fatalf("final 1 before it is decided: %+v", f)
	}
	p.Get("/nexus/api/v1/event/2026demo", &nexus)
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
	p.Get(base+"/alliances", &alliances)
	if st := alliances[2].Status; st == nil || st.Status != "playing" || st.DoubleElimRound != "Round 1" || st.Level != "sf" {
		t.Fatalf("Alliance 3 before its first match: %+v", st)
	}

	// We lose Playoff 8 and drop to the lower bracket.
	p.At(520 * time.Second)
	p.Get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if pl := status.Playoff; pl == nil || pl.Record != (replay.Record{Wins: 1, Losses: 1}) || pl.Status != "playing" || pl.DoubleElimRound != "Round 3" ||
		*status.NextMatchKey != "2026demo_sf10m1" {
		t.Fatalf("after Playoff 8: %+v next %v", status.Playoff, status.NextMatchKey)
	}

	// A backup comes in for our partner 6328, and plays Playoff 12 on.
	p.At(540 * time.Second)
	p.Get(base+"/alliances", &alliances)
	if bk := alliances[2].Backup.Backup; bk == nil || *bk != (replay.Backup{In: "frc4613", Out: "frc6328"}) {
		t.Fatalf("Alliance 3's backup = %+v", alliances[2].Backup)
	}
	p.Get("/tba/api/v3/team/frc1209/event/2026demo/matches/simple", &matches)
	if m := replaytest.MatchByKey(matches, "2026demo_sf12m1"); m == nil || !slices.Equal(m.Alliances.Red.TeamKeys, []string{"frc148", "frc1209", "frc4613"}) {
		t.Fatalf("our Playoff 12: %+v", m)
	}
	p.Get("/tba/api/v3/team/frc1209/event/2026demo/status", &status)
	if status.Alliance.Backup == nil || status.Alliance.Backup.In != "frc4613" {
		t.Fatalf("our status's backup: %+v", status.Alliance)
	}

	// The finals, best of three, then the awards.
	p.At(612 * time.Second)
	p.Get(base+"/alliances", &alliances)
	if st := alliances[2].Status; st.Status != "won" || st.Level != "f" || st.CurrentLevelRecord != (replay.Record{Wins: 2, Losses: 1}) || st.Record != (replay.Record{Wins: 6, Losses: 2}) {
		t.Fatalf("Alliance 3 after the finals: %+v", st)
	}
	if st := alliances[0].Status; st.Status != "eliminated" || st.DoubleElimRound != "Finals" {
		t.Fatalf("Alliance 1 after the finals: %+v", st)
	}
	p.Get("/nexus/api/v1/event/2026demo", &nexus)
	if last := nexus.Matches[len(nexus.Matches)-1]; last.Label != "Final 3" || *last.BreakAfter != "Awards break" || last.Status != frcapi.OnField {
		t.Fatalf("Nexus after the finals: %+v", last)
	}
	for _, e := range []frcapi.Endpoint{frcapi.TBAAlliances, frcapi.TBAEventMatches, frcapi.TBAEventTeams} {
		if p.Server.Count(e) == 0 {
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
	p := replaytest.Play(t, tl, start, start)
	var raw []map[string]json.RawMessage
	p.Get("/tba/api/v3/event/2026x/alliances", &raw)
	if _, ok := raw[0]["backup"]; ok || raw[0]["name"] != nil || !strings.Contains(string(raw[0]["status"]), `"double_elim_round":"Round 2"`) ||
		!strings.Contains(string(raw[0]["status"]), `"playoff_type":null`) {
		t.Fatalf("scripted alliance: %s", raw)
	}
	var status frcapi.TBATeamEventStatus
	p.Get("/tba/api/v3/team/frc1209/event/2026x/status", &status)
	if status.Alliance == nil || status.Alliance.Name != "Alliance 1" || status.Alliance.Pick != 1 || status.Playoff.Status != "won" {
		t.Fatalf("scripted team status: %+v %+v", status.Alliance, status.Playoff)
	}
	var teams []any
	if body := p.Get("/tba/api/v3/event/2026x/teams/simple", &teams); body != "[]" {
		t.Fatalf("no teams: %s", body)
	}
}
