package realevent_test

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/realevent"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

func loadNYTR(t *testing.T, team int) realevent.Event {
	t.Helper()
	ev, err := realevent.Load(os.DirFS("testdata/2024nytr"), team)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// playAt serves the real event with its moment now.
func playAt(t *testing.T, ev realevent.Event, moment string) *replaytest.Player {
	t.Helper()
	o, err := ev.At(moment)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 14, 14, 0, 0, 0, time.UTC)
	return replaytest.Play(t, ev.Timeline, now.Add(-time.Duration(o)), now)
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
		p.Get(base+"/matches", &matches)
		played, listed := 0, len(matches)
		for _, m := range matches {
			if *m.Alliances.Red.Score >= 0 {
				played++
				if len(m.ScoreBreakdown["red"]) == 0 || len(m.ScoreBreakdown["blue"]) == 0 {
					t.Fatalf("played match %s without its score breakdowns: %s", m.Key, m.ScoreBreakdown)
				}
			} else if m.ActualTime != nil && m.PostResultTime != nil || m.ScoreBreakdown != nil {
				t.Fatalf("unplayed match with a result time or a breakdown: %+v", m)
			}
		}
		if listed != 77 || played < 30 || played > 45 {
			t.Fatalf("during quals: %d listed, %d played", listed, played)
		}
		var alliances []frcapi.TBAAlliance
		if body := p.Get(base+"/alliances", &alliances); body != "null" {
			t.Fatalf("alliances during quals: %s", body)
		}
		var status frcapi.TBATeamEventStatus
		p.Get("/tba/api/v3/team/frc20/event/2024nytr/status", &status)
		// Ranked by 2024's sort orders, from the breakdowns of the results out.
		names := []string{"Ranking Score", "Avg Coop", "Avg Match", "Avg Auto", "Avg Stage"}
		var got []string
		for _, s := range status.Qual.SortOrderInfo {
			got = append(got, s.Name)
		}
		if status.Qual.Ranking == nil || len(status.Qual.Ranking.SortOrders) != len(names) || !slices.Equal(got, names) || status.NextMatchKey == nil {
			t.Fatalf("team 20 during quals: %+v", status.Qual)
		}
		var nexus frcapi.NexusEventStatus
		p.Get("/nexus/api/v1/event/2024nytr", &nexus)
		if len(nexus.Matches) != 77 || nexus.Matches[0].Label != "Qualification 1" || nexus.Matches[0].Status != frcapi.OnField ||
			nexus.Matches[76].Status != frcapi.QueuingSoon {
			t.Fatalf("Nexus during quals: %d matches, first %+v", len(nexus.Matches), nexus.Matches[0])
		}
	})

	t.Run("selection", func(t *testing.T) {
		p := playAt(t, ev, "selection")
		var alliances []frcapi.TBAAlliance
		if body := p.Get(base+"/alliances", &alliances); body != "null" {
			t.Fatalf("alliances during selection: %s", body)
		}
		var rankings frcapi.TBAEventRanking
		p.Get(base+"/rankings", &rankings)
		if rankings.Rankings[0].TeamKey != "frc1796" || len(rankings.Rankings[0].SortOrders) != 6 || rankings.SortOrderInfo[0].Name != "Ranking Score" {
			t.Fatalf("final rankings at selection: %+v", rankings.Rankings[0])
		}
		var nexus frcapi.NexusEventStatus
		p.Get("/nexus/api/v1/event/2024nytr", &nexus)
		if last := nexus.Matches[len(nexus.Matches)-1]; last.Label != "Qualification 77" || last.BreakAfter == nil || *last.BreakAfter != "Alliance selection" {
			t.Fatalf("Nexus at selection: %+v", last)
		}
	})

	t.Run("alliances", func(t *testing.T) {
		p := playAt(t, ev, "alliances")
		var raw []map[string]json.RawMessage
		p.Get(base+"/alliances", &raw)
		// TBA's list has no backup key, though 9624 played for 3181.
		if _, ok := raw[0]["backup"]; len(raw) != 8 || ok {
			t.Fatalf("alliances: %s", raw)
		}
		var matches []frcapi.TBAMatch
		p.Get(base+"/matches", &matches)
		if len(matches) != 77+4 || replaytest.MatchByKey(matches, "2024nytr_sf4m1") == nil || replaytest.MatchByKey(matches, "2024nytr_sf4m1").ActualTime != nil {
			t.Fatalf("listed: %d", len(matches))
		}
		var nexus frcapi.NexusEventStatus
		p.Get("/nexus/api/v1/event/2024nytr", &nexus)
		if n := len(nexus.Matches); n != 77+4 || nexus.Matches[77].Label != "Playoff 1" {
			t.Fatalf("Nexus playoffs listed: %d", n)
		}
	})

	t.Run("eliminated", func(t *testing.T) {
		p := playAt(t, ev, "eliminated")
		var status frcapi.TBATeamEventStatus
		p.Get("/tba/api/v3/team/frc20/event/2024nytr/status", &status)
		if a := status.Alliance; a == nil || a.Number != 4 || a.Pick != 1 || a.Name != "Alliance 4" {
			t.Fatalf("team 20's alliance: %+v", a)
		}
		if pl := status.Playoff; pl == nil || pl.Status != "eliminated" || pl.DoubleElimRound != "Round 2" || pl.Record != (replay.Record{Losses: 2}) ||
			status.NextMatchKey != nil || *status.LastMatchKey != "2024nytr_sf5m1" {
			t.Fatalf("team 20 eliminated: %+v next %v last %v", status.Playoff, status.NextMatchKey, status.LastMatchKey)
		}
		var alliances []frcapi.TBAAlliance
		p.Get(base+"/alliances", &alliances)
		if st := alliances[0].Status; st.Status != "playing" {
			t.Fatalf("Alliance 1 while the playoffs go on: %+v", st)
		}
		var matches []frcapi.TBAMatch
		p.Get(base+"/matches", &matches)
		if replaytest.MatchByKey(matches, "2024nytr_sf13m1") != nil || replaytest.MatchByKey(matches, "2024nytr_f1m1") != nil {
			t.Fatal("later playoff matches listed before they were decided")
		}
	})

	t.Run("end", func(t *testing.T) {
		// Every alliance's status, derived from the matches, is TBA's.
		p := playAt(t, ev, "end")
		var got []frcapi.TBAAlliance
		p.Get(base+"/alliances", &got)
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
