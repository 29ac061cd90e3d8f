package board

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

var t0 = time.Date(2026, 3, 14, 15, 0, 0, 0, time.UTC)

func at(minutes int) *time.Time {
	t := t0.Add(time.Duration(minutes) * time.Minute)
	return &t
}

// atMillis is at in Nexus's Unix milliseconds.
func atMillis(minutes int) *int64 { return new(at(minutes).UnixMilli()) }

// atSeconds is at in TBA's Unix seconds.
func atSeconds(minutes int) *int64 { return new(at(minutes).Unix()) }

// flex is a team list as Nexus sends it: nil is an undecided alliance, ""
// an undecided seat.
func flex(teams []string) []*frcapi.FlexString {
	if teams == nil {
		return nil
	}
	out := make([]*frcapi.FlexString, len(teams))
	for i, t := range teams {
		if t != "" {
			out[i] = new(frcapi.FlexString(t))
		}
	}
	return out
}

// nx is a Nexus match without times.
func nx(label, status string, red, blue []string) frcapi.NexusMatch {
	return frcapi.NexusMatch{Label: label, Status: status, RedTeams: flex(red), BlueTeams: flex(blue)}
}

// nm is Nexus's Qualification n, on field n minutes after t0.
func nm(n int, status string, red, blue []string) frcapi.NexusMatch {
	m := nx("Qualification "+itoa(n), status, red, blue)
	m.Times = frcapi.NexusTimes{EstimatedQueueTime: atMillis(n - 10), EstimatedStartTime: atMillis(n), ScheduledStartTime: atMillis(n - 1)}
	return m
}

// sides are a TBA match's alliances as TBA sends them: the teams' keys
// and the scores, -1 while unplayed.
func sides(red, blue []string, rs, bs int) frcapi.TBAMatchAlliances {
	side := func(teams []string, score int) *frcapi.TBAMatchAlliance {
		keys := make([]string, len(teams))
		for i, t := range teams {
			keys[i] = "frc" + t
		}
		return &frcapi.TBAMatchAlliance{TeamKeys: keys, Score: &score}
	}
	return frcapi.TBAMatchAlliances{Red: side(red, rs), Blue: side(blue, bs)}
}

// tm is TBA's qm n; scores -1 mean unplayed.
func tm(n int, red, blue []string, rs, bs int, winner string) frcapi.TBAMatch {
	m := frcapi.TBAMatch{Key: "2026test_qm" + itoa(n), CompLevel: "qm", SetNumber: 1, MatchNumber: n, Alliances: sides(red, blue, rs, bs),
		WinningAlliance: winner, Time: atSeconds(n - 1), PredictedTime: atSeconds(n)}
	if rs >= 0 {
		m.ActualTime = atSeconds(n)
	}
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }

var (
	us    = []string{"1209", "254", "1678"}
	them  = []string{"118", "148", "971"}
	other = []string{"111", "222", "333"}
)

// baseUpstream is a qualification day seen by both sources: Q1 and Q3
// played (ours), Q4 on field, ours next are Q5, Q7, Q9 and Q11.
func baseUpstream() Upstream {
	return Upstream{
		Team: 1209, Configured: true, EventKey: "2026test", NexusEventKey: "2026test",
		Nexus: NexusData{
			Health: Health{StateOK, "Live from Nexus"}, LastGood: t0,
			Event: &frcapi.NexusEventStatus{EventKey: "2026test", DataAsOfTime: atMillis(-1), NowQueuing: new("Qualification 6"),
				Matches: []frcapi.NexusMatch{
					nm(1, "On field", us, them), nm(2, "On field", other, them), nm(3, "On field", them, us),
					nm(4, "On field", other, them), nm(5, "On deck", us, other), nm(6, "Now queuing", them, other),
					nm(7, "Queuing soon", other, us), nm(8, "Queuing soon", them, other), nm(9, "Queuing soon", us, them),
					nm(11, "Queuing soon", them, us),
				},
				Announcements: []frcapi.NexusAnnouncement{{ID: "1", Announcement: "old", PostedTime: atMillis(-30)}, {ID: "2", Announcement: "new", PostedTime: atMillis(-5)}},
				PartsRequests: []frcapi.NexusPartsRequest{
					{ID: "p1", RequestedByTeam: "118", Parts: "bolt", PostedTime: atMillis(-20)}, {ID: "p2", RequestedByTeam: "148", Parts: "nut", PostedTime: atMillis(-2)},
				},
			},
			Pits: map[string]string{"1209": "B12"},
		},
		TBA: TBAData{
			Health: Health{StateOK, "Live from TBA"}, LastGood: t0.Add(-30 * time.Second),
			TeamStatus: &TeamStatus{Rank: &Rank{Rank: 9, Of: 30, Record: Record{3, 2, 0}}, NextMatchKey: "2026test_qm5", PitLocation: "Pit 7"},
			Matches: []frcapi.TBAMatch{
				tm(1, us, them, 80, 60, "red"), tm(3, them, us, 70, 70, ""), tm(5, us, other, -1, -1, ""),
				tm(7, other, us, -1, -1, ""), tm(9, us, them, -1, -1, ""), tm(11, them, us, -1, -1, ""),
			},
			Event: &EventInfo{Key: "2026test", Name: "Test Regional", Timezone: "America/Chicago", Webcasts: []frcapi.TBAWebcast{
				{Type: "twitch", Channel: "firstinspires"}, {Type: "youtube", Channel: "abc123"}, {Type: "livestream", Channel: "x"}, {Type: "twitch"},
			}},
			DownEvents: []string{"2026other"},
		},
	}
}

func labels(ms []Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Label)
	}
	return out
}

func TestMerge(t *testing.T) {
	now := t0
	tests := []struct {
		name   string
		change func(up *Upstream)
		now    time.Time
		check  func(t *testing.T, s Status)
	}{
		{
			name: "Nexus first: next, upcoming, recent, on field, queue",
			check: func(t *testing.T, s Status) {
				if s.NextMatch == nil || s.NextMatch.Label != "Qualification 5" || s.NextMatch.Status != "On deck" {
					t.Fatalf("NextMatch = %+v, want Qualification 5 on deck", s.NextMatch)
				}
				if got := labels(s.Upcoming); !slices.Equal(got, []string{"Qualification 7", "Qualification 9"}) {
					t.Errorf("Upcoming = %v", got)
				}
				if got := labels(s.Recent); !slices.Equal(got, []string{"Qualification 3", "Qualification 1"}) {
					t.Errorf("Recent = %v, want latest first", got)
				}
				if s.OnField == nil || s.OnField.Label != "Qualification 4" {
					t.Errorf("OnField = %+v, want Qualification 4", s.OnField)
				}
				if s.NowQueuing != "Qualification 6" {
					t.Errorf("NowQueuing = %q", s.NowQueuing)
				}
				n := s.NextMatch
				if n.Alliance != "red" || !slices.Equal(n.Partners, []string{"254", "1678"}) || n.Key != "2026test_qm5" {
					t.Errorf("NextMatch alliance %q partners %v key %q", n.Alliance, n.Partners, n.Key)
				}
				if n.Times.Queue == nil || !n.Times.Queue.Equal(*at(-5)) || !n.Times.Scheduled.Equal(*at(4)) {
					t.Errorf("NextMatch times = %+v", n.Times)
				}
				if n.RedScore != nil || n.Result != "" {
					t.Errorf("unplayed match has score %v result %q", n.RedScore, n.Result)
				}
			},
		},
		{
			name: "played scores give results, ties included",
			check: func(t *testing.T, s Status) {
				q3, q1 := s.Recent[0], s.Recent[1]
				if q1.Result != "win" || *q1.RedScore != 80 || *q1.BlueScore != 60 || q1.Alliance != "red" {
					t.Errorf("Q1 = %+v, want a red win 80-60", q1)
				}
				if q3.Result != "tie" || q3.Alliance != "blue" {
					t.Errorf("Q3 = %+v, want a blue tie", q3)
				}
				if q1.Times.ActualStart == nil || !q1.Times.ActualStart.Equal(*at(1)) {
					t.Errorf("Q1 actual start = %v, want TBA's actual_time", q1.Times.ActualStart)
				}
			},
		},
		{
			name:   "loss when the other alliance wins",
			change: func(up *Upstream) { up.TBA.Matches[1] = tm(3, them, us, 90, 20, "red") },
			check: func(t *testing.T, s Status) {
				if s.Recent[0].Result != "loss" {
					t.Errorf("Q3 result = %q, want loss", s.Recent[0].Result)
				}
			},
		},
		{
			name: "rank, pit, event, webcasts, announcements from their sources",
			check: func(t *testing.T, s Status) {
				if s.Rank == nil || *s.Rank != (Rank{9, 30, Record{3, 2, 0}}) {
					t.Errorf("Rank = %+v", s.Rank)
				}
				if s.Pit != "B12" {
					t.Errorf("Pit = %q, want Nexus's B12 over TBA's", s.Pit)
				}
				if s.EventName != "Test Regional" || s.Timezone != "America/Chicago" {
					t.Errorf("event = %q %q", s.EventName, s.Timezone)
				}
				want := []Webcast{{"twitch", "https://www.twitch.tv/firstinspires"}, {"youtube", "https://www.youtube.com/watch?v=abc123"}}
				if !slices.Equal(s.Webcasts, want) {
					t.Errorf("Webcasts = %v, want %v", s.Webcasts, want)
				}
				if s.Announcements[0].ID != "2" || s.PartsRequests[0].ID != "p2" {
					t.Errorf("announcements %v parts %v, want newest first", s.Announcements, s.PartsRequests)
				}
				if s.FeedDown {
					t.Error("FeedDown for another event's feed")
				}
				if !s.AsOf.Equal(s.TBA.AsOf) || !s.Nexus.AsOf.Equal(t0.Add(-time.Minute)) {
					t.Errorf("AsOf = %v (nexus %v, tba %v), want the newest", s.AsOf, s.Nexus.AsOf, s.TBA.AsOf)
				}
			},
		},
		{
			name: "rank falls back on the rankings, pit on TBA",
			change: func(up *Upstream) {
				up.TBA.TeamStatus = &TeamStatus{PitLocation: "Pit 7"}
				up.TBA.Rankings = []RankingLine{{Team: "254", Rank: 1}, {Team: "1209", Rank: 2, Record: Record{5, 1, 0}}, {Team: "118", Rank: 3}}
				up.Nexus.Pits = nil
			},
			check: func(t *testing.T, s Status) {
				if s.Rank == nil || *s.Rank != (Rank{2, 3, Record{5, 1, 0}}) {
					t.Errorf("Rank = %+v, want 2 of 3 from rankings", s.Rank)
				}
				if s.Pit != "Pit 7" {
					t.Errorf("Pit = %q, want TBA's", s.Pit)
				}
			},
		},
		{
			name: "no rank before rankings; null TBA status",
			change: func(up *Upstream) {
				up.TBA.TeamStatus = nil
			},
			check: func(t *testing.T, s Status) {
				if s.Rank != nil {
					t.Errorf("Rank = %+v, want nil", s.Rank)
				}
			},
		},
		{
			name: "TBA only: event without Nexus",
			change: func(up *Upstream) {
				up.Nexus = NexusData{Health: Health{StateNotFound, "Nexus does not know event 2026test"}}
			},
			check: func(t *testing.T, s Status) {
				if s.NextMatch == nil || s.NextMatch.Label != "Qualification 5" || s.NextMatch.Key != "2026test_qm5" || s.NextMatch.Status != "" {
					t.Fatalf("NextMatch = %+v, want TBA's Qualification 5", s.NextMatch)
				}
				if got := labels(s.Upcoming); !slices.Equal(got, []string{"Qualification 7", "Qualification 9"}) {
					t.Errorf("Upcoming = %v", got)
				}
				if got := labels(s.Recent); !slices.Equal(got, []string{"Qualification 3", "Qualification 1"}) || s.Recent[1].Result != "win" {
					t.Errorf("Recent = %v (%+v)", got, s.Recent)
				}
				if s.OnField != nil || s.NowQueuing != "" {
					t.Errorf("OnField %+v NowQueuing %q without Nexus", s.OnField, s.NowQueuing)
				}
				if s.Pit != "Pit 7" || len(s.Announcements) != 0 {
					t.Errorf("Pit %q announcements %v", s.Pit, s.Announcements)
				}
				if s.Nexus.State != StateNotFound {
					t.Errorf("Nexus state = %q", s.Nexus.State)
				}
			},
		},
		{
			name: "TBA only: next_match_key wins over the first unplayed",
			change: func(up *Upstream) {
				up.Nexus = NexusData{}
				up.TBA.TeamStatus.NextMatchKey = "2026test_qm7"
			},
			check: func(t *testing.T, s Status) {
				if s.NextMatch == nil || s.NextMatch.Label != "Qualification 7" {
					t.Fatalf("NextMatch = %+v, want TBA's next_match_key", s.NextMatch)
				}
				if got := labels(s.Upcoming); !slices.Equal(got, []string{"Qualification 9", "Qualification 11"}) {
					t.Errorf("Upcoming = %v", got)
				}
			},
		},
		{
			name: "Nexus failing briefly keeps its schedule",
			change: func(up *Upstream) {
				up.Nexus.Health = Health{StateUnreachable, "Nexus unreachable"}
				up.Nexus.LastGood = t0.Add(-time.Minute)
			},
			check: func(t *testing.T, s Status) {
				if s.NextMatch == nil || s.NextMatch.Status != "On deck" || s.NowQueuing == "" {
					t.Errorf("NextMatch = %+v, want Nexus's view kept", s.NextMatch)
				}
			},
		},
		{
			name: "Nexus down for long: TBA stands in, announcements stay",
			change: func(up *Upstream) {
				up.Nexus.Health = Health{StateUnreachable, "Nexus unreachable"}
				up.Nexus.LastGood = t0.Add(-5 * time.Minute)
				up.TBA.Matches[2] = tm(5, us, other, 50, 40, "red")
			},
			check: func(t *testing.T, s Status) {
				if s.NextMatch == nil || s.NextMatch.Label != "Qualification 7" || s.NextMatch.Status != "" {
					t.Errorf("NextMatch = %+v, want TBA's Qualification 7", s.NextMatch)
				}
				if s.Recent[0].Label != "Qualification 5" || s.Recent[0].Result != "win" {
					t.Errorf("Recent[0] = %+v, want Q5 won", s.Recent[0])
				}
				if len(s.Announcements) != 2 || s.NowQueuing != "" {
					t.Errorf("announcements %d, NowQueuing %q", len(s.Announcements), s.NowQueuing)
				}
			},
		},
		{
			name: "undecided alliances and seats",
			change: func(up *Upstream) {
				ev := up.Nexus.Event
				ev.Matches = []frcapi.NexusMatch{
					nx("Playoff 1", "On field", []string{"1209", "", "118"}, []string{"254", "148", "971"}),
					nx("Playoff 7", "Queuing soon", nil, nil),
					nx("Final 1", "Queuing soon", nil, []string{"", "1209", ""}),
				}
				up.TBA.Matches = []frcapi.TBAMatch{{Key: "2026test_sf7m1", CompLevel: "sf", SetNumber: 7, MatchNumber: 1, Alliances: sides([]string{"1209", "2", "3"}, []string{"4", "5", "6"}, -1, -1)}}
			},
			check: func(t *testing.T, s Status) {
				r := s.Recent[0]
				if r.Label != "Playoff 1" || !slices.Equal(r.Red, []string{"1209", "", "118"}) || !slices.Equal(r.Partners, []string{"118"}) {
					t.Errorf("Playoff 1 = %+v, want the empty seat kept and left out of partners", r)
				}
				n := s.NextMatch
				if n == nil || n.Label != "Playoff 7" || n.Key != "2026test_sf7m1" || n.Alliance != "red" || len(n.Red) != 3 {
					t.Fatalf("NextMatch = %+v, want Playoff 7 with TBA's teams", n)
				}
				f := s.Upcoming[0]
				if f.Label != "Final 1" || f.Red == nil || len(f.Red) != 0 || f.Alliance != "blue" || len(f.Partners) != 0 {
					t.Errorf("Final 1 = %+v, want red [] (undecided) and blue ours", f)
				}
				data, _ := json.Marshal(f)
				if !strings.Contains(string(data), `"red":[]`) {
					t.Errorf("undecided alliance encodes as %s, want []", data)
				}
			},
		},
		{
			name: "a replay takes the key and the score, the replayed match does not",
			change: func(up *Upstream) {
				ev := up.Nexus.Event
				rematch := nx("Qualification 1 Replay", "On field", us, them)
				rematch.ReplayOf = new("Qualification 1")
				ev.Matches = []frcapi.NexusMatch{
					nm(1, "On field", us, them), nm(3, "On field", them, us),
					rematch,
					nm(5, "Queuing soon", us, other),
				}
			},
			check: func(t *testing.T, s Status) {
				if got := labels(s.Recent); !slices.Equal(got, []string{"Qualification 1 Replay", "Qualification 3"}) {
					t.Fatalf("Recent = %v", got)
				}
				rp := s.Recent[0]
				if rp.Key != "2026test_qm1" || rp.ReplayOf != "Qualification 1" || rp.Result != "win" {
					t.Errorf("replay = %+v, want key qm1, replayOf, a win", rp)
				}
			},
		},
		{
			name: "a playoff replay takes the next match of its set, not the original's score",
			change: func(up *Upstream) {
				up.Nexus.Event.Matches = []frcapi.NexusMatch{
					nx("Playoff 2", "On field", us, them), nx("Playoff 2 Replay", "On field", us, them), nx("Playoff 2 Replay 2", "On deck", us, them),
				}
				up.Nexus.Event.Matches[1].ReplayOf, up.Nexus.Event.Matches[2].ReplayOf = new("Playoff 2"), new("Playoff 2")
				up.TBA.Matches = []frcapi.TBAMatch{
					{Key: "2026test_sf2m1", CompLevel: "sf", SetNumber: 2, MatchNumber: 1, Alliances: sides(us, them, 50, 50)},
					{Key: "2026test_sf2m2", CompLevel: "sf", SetNumber: 2, MatchNumber: 2, Alliances: sides(us, them, 40, 60), WinningAlliance: "blue"},
					{Key: "2026test_sf2m3", CompLevel: "sf", SetNumber: 2, MatchNumber: 3, Alliances: sides(us, them, -1, -1)},
				}
			},
			check: func(t *testing.T, s Status) {
				if len(s.Recent) != 2 || s.NextMatch == nil {
					t.Fatalf("Recent = %+v, next %+v", s.Recent, s.NextMatch)
				}
				original, replay := s.Recent[1], s.Recent[0]
				if original.Key != "2026test_sf2m1" || original.Result != "tie" {
					t.Errorf("Playoff 2 = %+v, want sf2m1, a tie", original)
				}
				if replay.Key != "2026test_sf2m2" || replay.Result != "loss" {
					t.Errorf("Playoff 2 Replay = %+v, want sf2m2, a loss", replay)
				}
				if s.NextMatch.Key != "2026test_sf2m3" || s.NextMatch.Result != "" {
					t.Errorf("second replay = %+v, want sf2m3, unplayed", s.NextMatch)
				}
			},
		},
		{
			name: "a match without a TBA key never takes a TBA match without one",
			change: func(up *Upstream) {
				up.Nexus.Event.Matches = []frcapi.NexusMatch{
					nx("Practice 1", "On field", us, them),
					nm(5, "Queuing soon", us, other),
				}
				up.TBA.Matches = append(up.TBA.Matches, frcapi.TBAMatch{CompLevel: "pm", Alliances: sides(us, them, 1, 0), WinningAlliance: "red"})
			},
			check: func(t *testing.T, s Status) {
				if len(s.Recent) != 1 || s.Recent[0].Label != "Practice 1" {
					t.Fatalf("Recent = %+v", s.Recent)
				}
				if p := s.Recent[0]; p.RedScore != nil || p.Result != "" {
					t.Errorf("Practice 1 = %+v, want no score of TBA's keyless match", p)
				}
			},
		},
		{
			name: "a cached Nexus schedule is not live while Nexus is off, however recent",
			change: func(up *Upstream) {
				up.Nexus.Health = Health{StateOff, "No Nexus key set"}
				up.Nexus.LastGood = t0.Add(-10 * time.Second)
			},
			check: func(t *testing.T, s Status) {
				if s.NowQueuing != "" || s.NextMatch == nil || s.NextMatch.Key != "2026test_qm5" || s.NextMatch.Status != "" {
					t.Errorf("next %+v, queuing %q; want TBA's view", s.NextMatch, s.NowQueuing)
				}
			},
		},
		{
			name: "a break after our next match",
			change: func(up *Upstream) {
				up.Nexus.Event.Matches[4].BreakAfter = new("Lunch")
			},
			check: func(t *testing.T, s Status) {
				if s.NextMatch.BreakAfter != "Lunch" {
					t.Errorf("BreakAfter = %q", s.NextMatch.BreakAfter)
				}
			},
		},
		{
			name: "field in a break once the match before it is scored",
			change: func(up *Upstream) {
				up.Nexus.Event.Matches[2].BreakAfter = new("Lunch") // Q3, scored
				up.Nexus.Event.Matches = up.Nexus.Event.Matches[:3]
			},
			check: func(t *testing.T, s Status) {
				if s.OnField != nil {
					t.Errorf("OnField = %+v, want nil during the break", s.OnField)
				}
			},
		},
		{
			name: "a later match that started is on field though its status lags",
			change: func(up *Upstream) {
				up.Nexus.Event.Matches[4].Times.ActualStartTime = atMillis(5)
			},
			now: t0.Add(6 * time.Minute),
			check: func(t *testing.T, s Status) {
				if s.OnField == nil || s.OnField.Label != "Qualification 5" {
					t.Errorf("OnField = %+v, want Qualification 5", s.OnField)
				}
				if s.NextMatch.Label != "Qualification 7" {
					t.Errorf("NextMatch = %q, want Qualification 7 once 5 started", s.NextMatch.Label)
				}
			},
		},
		{
			name: "the field goes idle long after the last start",
			change: func(up *Upstream) {
				up.Nexus.Event.Matches[3].Times.ActualStartTime = atMillis(4)
			},
			now: t0.Add(30 * time.Minute),
			check: func(t *testing.T, s Status) {
				if s.OnField != nil {
					t.Errorf("OnField = %+v, want nil 26 min after its start", s.OnField)
				}
			},
		},
		{
			name: "feed down marks TBA down",
			change: func(up *Upstream) {
				up.TBA.DownEvents = []string{"2026test"}
			},
			check: func(t *testing.T, s Status) {
				if !s.FeedDown || s.TBA.State != StateDown || s.TBA.Message == "" {
					t.Errorf("FeedDown %v TBA %+v", s.FeedDown, s.TBA)
				}
			},
		},
		{
			name: "not configured: empty lists, the message",
			change: func(up *Upstream) {
				up.Configured, up.Message = false, "No event"
			},
			check: func(t *testing.T, s Status) {
				data, _ := json.Marshal(s)
				for _, want := range []string{`"configured":false`, `"message":"No event"`, `"upcoming":[]`, `"recent":[]`, `"announcements":[]`, `"webcasts":[]`, `"nextMatch":null`} {
					if !strings.Contains(string(data), want) {
						t.Errorf("JSON lacks %s: %s", want, data)
					}
				}
			},
		},
		{
			name: "nothing known yet",
			change: func(up *Upstream) {
				up.Nexus, up.TBA = NexusData{}, TBAData{}
			},
			check: func(t *testing.T, s Status) {
				if s.NextMatch != nil || s.Rank != nil || !s.AsOf.IsZero() || len(s.Recent) != 0 {
					t.Errorf("Status = %+v, want empty", s)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := baseUpstream()
			if tt.change != nil {
				tt.change(&up)
			}
			n := now
			if !tt.now.IsZero() {
				n = tt.now
			}
			tt.check(t, Merge(up, n))
		})
	}
}

func TestMergeIsPure(t *testing.T) {
	up := baseUpstream()
	a, _ := json.Marshal(Merge(up, t0))
	b, _ := json.Marshal(Merge(up, t0))
	if string(a) != string(b) {
		t.Fatal("two merges of the same data differ")
	}
	if !reflect.DeepEqual(baseUpstream().Nexus.Event.Matches[0].RedTeams, up.Nexus.Event.Matches[0].RedTeams) {
		t.Fatal("merge changed its input")
	}
}

func TestKeyForLabel(t *testing.T) {
	tests := []struct {
		label  string
		replay int
		want   string
	}{
		{"Qualification 14", 0, "2026x_qm14"},
		{"Qualification 14", 1, "2026x_qm14"},
		{"Playoff 5", 0, "2026x_sf5m1"},
		{"Playoff 5", 1, "2026x_sf5m2"},
		{"Playoff 5", 2, "2026x_sf5m3"},
		{"Match 13", 0, "2026x_sf13m1"},
		{"Match 13", 1, "2026x_sf13m2"},
		{"Final 2", 0, "2026x_f1m2"},
		{"Practice 3", 0, ""},
		{"Qualification", 0, ""},
		{"Qualification 14 Replay", 0, ""},
		{"Qualification -1", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.label+"/"+itoa(tt.replay), func(t *testing.T) {
			if got := keyForLabel("2026x", tt.label, tt.replay); got != tt.want {
				t.Errorf("keyForLabel(%q, %d) = %q, want %q", tt.label, tt.replay, got, tt.want)
			}
		})
	}
}

func TestLabelForTBA(t *testing.T) {
	tests := []struct {
		m              frcapi.TBAMatch
		label, replays string
	}{
		{frcapi.TBAMatch{Key: "e_qm14", CompLevel: "qm", SetNumber: 1, MatchNumber: 14}, "Qualification 14", ""},
		{frcapi.TBAMatch{Key: "e_sf5m1", CompLevel: "sf", SetNumber: 5, MatchNumber: 1}, "Playoff 5", ""},
		{frcapi.TBAMatch{Key: "e_sf5m2", CompLevel: "sf", SetNumber: 5, MatchNumber: 2}, "Playoff 5 Replay", "Playoff 5"},
		{frcapi.TBAMatch{Key: "e_sf5m3", CompLevel: "sf", SetNumber: 5, MatchNumber: 3}, "Playoff 5 Replay", "Playoff 5"},
		{frcapi.TBAMatch{Key: "e_f1m3", CompLevel: "f", SetNumber: 1, MatchNumber: 3}, "Final 3", ""},
		{frcapi.TBAMatch{Key: "e_qf2m1", CompLevel: "qf", SetNumber: 2, MatchNumber: 1}, "Quarterfinal 2-1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.m.Key, func(t *testing.T) {
			label, replays := labelForTBA(tt.m)
			if label != tt.label || replays != tt.replays {
				t.Errorf("labelForTBA = %q, %q; want %q, %q", label, replays, tt.label, tt.replays)
			}
			if tt.m.CompLevel == "qf" {
				return // brackets before 2023: Nexus has no label for them
			}
			// Nexus's label of the same match maps back to its whole key;
			// a playoff's replays come in order, the k-th being match k+1.
			original, replay := label, 0
			if replays != "" {
				original, replay = replays, tt.m.MatchNumber-1
			}
			if key := keyForLabel("e", original, replay); key != tt.m.Key {
				t.Errorf("keyForLabel(%q, %d) = %q, want %q", original, replay, key, tt.m.Key)
			}
		})
	}
}

func TestTBAOnlyOrdersLevels(t *testing.T) {
	in := []frcapi.TBAMatch{
		{Key: "e_f1m1", CompLevel: "f", SetNumber: 1, MatchNumber: 1, Alliances: sides(us, nil, -1, -1)},
		{Key: "e_sf2m1", CompLevel: "sf", SetNumber: 2, MatchNumber: 1, Alliances: sides(us, nil, -1, -1)},
		{Key: "e_qm30", CompLevel: "qm", SetNumber: 1, MatchNumber: 30, Alliances: sides(us, nil, 1, 0), WinningAlliance: "red"},
		{Key: "e_qm4", CompLevel: "qm", SetNumber: 1, MatchNumber: 4, Alliances: sides(us, nil, 1, 2), WinningAlliance: "blue"},
	}
	ms, done := tbaMatches(in, "1209")
	if got := labels(ms); !slices.Equal(got, []string{"Qualification 4", "Qualification 30", "Playoff 2", "Final 1"}) {
		t.Fatalf("order = %v", got)
	}
	if !slices.Equal(done, []bool{true, true, false, false}) || ms[0].Result != "loss" || ms[1].Result != "win" {
		t.Fatalf("done %v results %q %q", done, ms[0].Result, ms[1].Result)
	}
}

// TestEventPlaceAndDays passes on where the event is and its days, as
// far as TBA knows them.
func TestEventPlaceAndDays(t *testing.T) {
	for _, tt := range []struct {
		city, state, country, want string
	}{
		{"Tulsa", "OK", "USA", "Tulsa, OK, USA"},
		{"Istanbul", "", "Türkiye", "Istanbul, Türkiye"},
		{"", "", "", ""},
	} {
		up := baseUpstream()
		up.TBA.Event = &EventInfo{Key: "2026okok", Name: "Oklahoma Regional", City: tt.city, StateProv: tt.state, Country: tt.country,
			StartDate: "2026-03-12", EndDate: "2026-03-14"}
		s := Merge(up, t0)
		if s.EventPlace != tt.want || s.EventStart != "2026-03-12" || s.EventEnd != "2026-03-14" {
			t.Errorf("place %q, days %s to %s; want %q, 2026-03-12 to 2026-03-14", s.EventPlace, s.EventStart, s.EventEnd, tt.want)
		}
	}
}
