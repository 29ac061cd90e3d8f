package alerts

import (
	"cmp"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/realevent"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

// TestRealEventDay plays a real past event (2024nytr, TBA's saved answers,
// Nexus derived from them) from two days before to after its last match,
// merges the board at every moment something changes (each step of the
// timeline, and each match's queue, on-deck, on-field and start times)
// and feeds each board to Changes with the one before. Team 3360 played 9
// qualification matches, was the first pick of Alliance 2, won Playoff 3,
// lost Playoff 8, won Playoffs 10 and 12 and went out in Playoff 13.
// Over the whole event it gets, as distinct IDs: for each of its 14
// matches one call per lead (0 to 3) and one result; one selection notice;
// one outcome, eliminated; nothing else.
func TestRealEventDay(t *testing.T) {
	const team, key = 3360, "2024nytr"
	ev, err := realevent.Load(os.DirFS("../../testutil/realevent/testdata/2024nytr"), team)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 14, 14, 0, 0, 0, time.UTC)
	first := time.Duration(ev.Timeline.Steps[0].At)
	p := replaytest.Play(t, ev.Timeline, start, start.Add(first))

	var moments []time.Duration
	for _, st := range ev.Timeline.Steps {
		moments = append(moments, time.Duration(st.At))
		if st.Nexus == nil {
			continue
		}
		for _, m := range st.Nexus.Matches {
			for _, o := range []*replay.Offset{m.Times.ActualQueue, m.Times.ActualOnDeck, m.Times.ActualOnField, m.Times.ActualStart} {
				if o != nil {
					moments = append(moments, time.Duration(*o))
				}
			}
		}
	}
	slices.Sort(moments)
	moments = slices.Compact(moments)

	sent := map[string]int{} // times Changes returned each ID
	var prev, last board.Status
	for _, at := range moments {
		p.At(at)
		now := start.Add(at)
		next := board.Merge(upstream(t, p, team, key, now), now)
		got := Changes(prev, next, now)
		checkWords(t, team, got)
		for _, a := range got {
			sent[a.ID]++
		}
		prev, last = next, next
	}

	var want []string
	for _, m := range last.Schedule {
		for n := range MaxMatchesAhead + 1 {
			want = append(want, "queue/"+key+"/"+board.Slug(m.Label)+"/"+strconv.Itoa(n))
		}
		want = append(want, "result/"+key+"/"+board.Slug(m.Label))
	}
	if len(last.Schedule) != 14 {
		t.Errorf("the last board lists %d matches of ours, want 14", len(last.Schedule))
	}
	want = append(want, "selection/"+key, "playoffs/"+key+"/eliminated")
	slices.Sort(want)
	got := slices.Sorted(func(yield func(string) bool) {
		for id := range sent {
			if !yield(id) {
				return
			}
		}
	})
	if !slices.Equal(got, want) {
		t.Errorf("alerts over the event:\n%v\nwant\n%v", got, want)
	}
	// A call or result returned twice is one the transport sends once (same
	// ID); only a lead after a spell with nothing on the field may be.
	for id, n := range sent {
		if n > 1 && (!strings.HasPrefix(id, "queue/") || strings.HasSuffix(id, "/0")) {
			t.Errorf("%s returned %d times", id, n)
		}
		if n > 1 {
			t.Logf("%s returned %d times (a lead after a break)", id, n)
		}
	}
}

// upstream is what the hub would hold after asking the replay, as it
// stands now, every endpoint the board reads.
func upstream(t *testing.T, p *replaytest.Player, team int, key string, now time.Time) board.Upstream {
	t.Helper()
	args := frcapi.Args{Event: key, Team: team}
	tba := func(e frcapi.Endpoint, v any) { p.Get(replay.Base(frcapi.TBA)+e.PathOf(args), v) }
	up := board.Upstream{Team: team, Configured: true, EventKey: key, NexusEventKey: key,
		Nexus: board.NexusData{Health: board.Health{State: board.StateOK}, LastGood: now},
		TBA:   board.TBAData{Health: board.Health{State: board.StateOK}, LastGood: now}}

	var nexus frcapi.NexusEventStatus
	p.Get(replay.Base(frcapi.Nexus)+frcapi.NexusEvent.PathOf(args), &nexus)
	up.Nexus.Event = &nexus

	var event frcapi.TBAEventInfo
	tba(frcapi.TBAEvent, &event)
	up.TBA.Event = &board.EventInfo{Key: event.Key, Name: event.Name, Timezone: event.Timezone, PlayoffType: frcapi.Deref(event.PlayoffType)}
	tba(frcapi.TBATeamMatches, &up.TBA.Matches)
	tba(frcapi.TBAEventMatches, &up.TBA.EventMatches)

	var status *frcapi.TBATeamEventStatus
	tba(frcapi.TBATeamStatus, &status)
	if status != nil {
		up.TBA.TeamStatus = &board.TeamStatus{NextMatchKey: frcapi.Deref(status.NextMatchKey)}
		if q := status.Qual; q != nil && q.Ranking != nil && q.Ranking.Rank > 0 {
			up.TBA.TeamStatus.Rank = &board.Rank{Rank: q.Ranking.Rank, Of: q.NumTeams, Record: board.Record(q.Ranking.Record)}
		}
	}

	var alliances []*frcapi.TBAAlliance
	tba(frcapi.TBAAlliances, &alliances)
	for i, a := range alliances {
		al := board.ListedAlliance{Name: "Alliance " + strconv.Itoa(i+1)}
		if a != nil {
			al.Name = cmp.Or(a.Name, al.Name)
			for _, k := range a.Picks {
				al.Teams = append(al.Teams, frcapi.TeamNumber(k))
			}
			if bk := a.Backup.Backup; bk != nil {
				al.BackupIn, al.BackupOut = frcapi.TeamNumber(bk.In), frcapi.TeamNumber(bk.Out)
			}
			if a.Status != nil {
				al.State, al.Round = a.Status.Status, a.Status.DoubleElimRound
			}
		}
		up.TBA.Alliances = append(up.TBA.Alliances, al)
	}
	return up
}
