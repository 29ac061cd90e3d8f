package replay_test

import (
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

// The demo's season: its own event, the regional before it and the
// championship after, in the team's events, statuses and awards.
func TestSeasonEndpoints(t *testing.T) {
	p := replaytest.Play(t, replay.Demo(), replaytest.Start, replaytest.Start)
	const base = "/tba/api/v3/team/frc1209"

	var events []frcapi.TBAEventInfo
	p.Get(base+"/events/2026/simple", &events)
	var keys []string
	for _, e := range events {
		keys = append(keys, e.Key+" "+e.StartDate+" "+e.EndDate)
	}
	// The demo starts on 14 March 2026, day 0 of its event.
	if want := []string{"2026demo 2026-03-13 2026-03-15", "2026arfs 2026-02-20 2026-02-22", "2026okcmp 2026-04-09 2026-04-12"}; !slices.Equal(keys, want) {
		t.Fatalf("events = %q, want %q", keys, want)
	}

	var statuses frcapi.TBAStatuses
	body := p.Get(base+"/events/2026/statuses", &statuses)
	if len(statuses) != 3 {
		t.Fatalf("statuses of %d events, want 3: %s", len(statuses), body)
	}
	if st, ok := statuses["2026okcmp"]; !ok || st != nil {
		t.Errorf("the championship not started: %+v (listed %v), want null", st, ok)
	}
	fs := statuses["2026arfs"]
	if fs == nil || fs.Qual == nil || fs.Qual.Ranking == nil || fs.Qual.Ranking.Rank != 12 || fs.Qual.NumTeams != 38 || fs.Qual.Status != "completed" ||
		fs.Qual.Ranking.Record != (frcapi.TBARecord{Wins: 6, Losses: 5, Ties: 1}) {
		t.Fatalf("Fort Smith qual = %s", body)
	}
	if fs.Alliance == nil || fs.Alliance.Number != 5 || fs.Alliance.Pick != 1 || fs.Playoff == nil ||
		fs.Playoff.Status != "eliminated" || fs.Playoff.DoubleElimRound != "Round 4" || fs.Playoff.Level != "sf" {
		t.Fatalf("Fort Smith playoff = %+v / %+v", fs.Alliance, fs.Playoff)
	}
	// The event's own is /status's, here in its qualifications.
	var own frcapi.TBATeamEventStatus
	p.Get(base+"/event/2026demo/status", &own)
	demo := statuses["2026demo"]
	if demo == nil || demo.Qual == nil || own.Qual == nil || demo.Qual.Status != "playing" || demo.Qual.NumTeams != own.Qual.NumTeams || demo.Playoff != nil {
		t.Fatalf("the demo's status = %+v, want /status's %+v", demo, own)
	}

	var awards []frcapi.TBAAward
	p.Get(base+"/awards/2026", &awards)
	if got := awardNames(awards); !slices.Equal(got, []string{"2026arfs Judges' Award 13"}) {
		t.Fatalf("awards before the awards break = %q", got)
	}
	if r := awards[0].RecipientList; len(r) != 1 || frcapi.Deref(r[0].TeamKey) != "frc1209" || r[0].Awardee != nil || awards[0].Year != 2026 {
		t.Fatalf("recipients = %+v", awards[0])
	}
	p.At(630 * time.Second)
	p.Get(base+"/awards/2026", &awards)
	if got, want := awardNames(awards), []string{"2026arfs Judges' Award 13", "2026demo Regional Winners 1", "2026demo Quality Award 17"}; !slices.Equal(got, want) {
		t.Fatalf("awards after the awards break = %q, want %q", got, want)
	}
	p.Get(base+"/events/2026/statuses", &statuses)
	if st := statuses["2026demo"]; st == nil || st.Playoff == nil || st.Playoff.Status != "won" {
		t.Fatalf("the demo's status once won = %+v", st)
	}

	// Another year has none of them; another team is not ours.
	var awards2025 []frcapi.TBAAward
	var statuses2025 frcapi.TBAStatuses
	p.Get(base+"/awards/2025", &awards2025)
	p.Get(base+"/events/2025/statuses", &statuses2025)
	if len(awards2025) != 0 || len(statuses2025) != 0 {
		t.Fatalf("2025: awards %+v, statuses %+v", awards2025, statuses2025)
	}
	for _, path := range []string{"/tba/api/v3/team/frc254/awards/2026", "/tba/api/v3/team/frc254/events/2026/statuses"} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("X-TBA-Auth-Key", replay.DefaultTBAKey)
		rec := httptest.NewRecorder()
		p.Server.ServeHTTP(rec, req)
		if rec.Code != 404 {
			t.Errorf("GET %s: %d, want 404", path, rec.Code)
		}
	}
}

func awardNames(awards []frcapi.TBAAward) []string {
	var out []string
	for _, a := range awards {
		out = append(out, strings.Join([]string{a.EventKey, a.Name, strconv.Itoa(a.AwardType)}, " "))
	}
	return out
}
