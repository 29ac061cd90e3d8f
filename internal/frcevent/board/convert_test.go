package board

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// parse decodes a Nexus EventStatus as the hub's client does.
func parse(t *testing.T, body string) *frcapi.NexusEventStatus {
	t.Helper()
	var ev frcapi.NexusEventStatus
	if err := json.Unmarshal([]byte(body), &ev); err != nil {
		t.Fatal(err)
	}
	return &ev
}

func TestNexusAnswerAsThePageShowsIt(t *testing.T) {
	// Absent keys, nulls, a null alliance, null seats, numbers for ids.
	ev := parse(t, `{"eventKey":"2026test","dataAsOfTime":1773500000123,"nowQueuing":null,
		"matches":[
		 {"label":"Qualification 1","status":"On field","redTeams":["1209",null,"254"],"blueTeams":null,
		  "times":{"estimatedStartTime":1773500060000,"actualStartTime":null},"breakAfter":"Lunch"},
		 {"label":"Practice 1","redTeams":[],"blueTeams":["1"]}],
		"announcements":[{"id":7,"announcement":"Hello","postedTime":1773499000000}],
		"partsRequests":[{"id":"p","parts":"bolt","requestedByTeam":118,"postedTime":1773499500000}]}`)
	if want := time.UnixMilli(1773500000123).UTC(); !DataAsOf(ev).Equal(want) {
		t.Errorf("DataAsOf = %v, want %v (milliseconds)", DataAsOf(ev), want)
	}
	q1 := ev.Matches[0]
	if red, blue := teamList(q1.RedTeams), teamList(q1.BlueTeams); !reflect.DeepEqual(red, []string{"1209", "", "254"}) || blue != nil {
		t.Errorf("teams = %#v / %#v, want a null seat as \"\" and a null alliance as nil", red, blue)
	}
	if tm := matchTimes(q1.Times); tm.Start == nil || tm.Start.Unix() != 1773500060 || tm.ActualStart != nil || tm.Queue != nil {
		t.Errorf("times = %+v", tm)
	}
	if a := announcements(ev.Announcements)[0]; a.ID != "7" || a.Text != "Hello" || a.Posted.UnixMilli() != 1773499000000 {
		t.Errorf("announcement = %+v", a)
	}
	if p := partsRequests(ev.PartsRequests)[0]; p.Team != "118" || p.Parts != "bolt" {
		t.Errorf("parts request = %+v", p)
	}
}

func TestTBAMatchAsTheMergeReadsIt(t *testing.T) {
	var ms []frcapi.TBAMatch
	if err := json.Unmarshal([]byte(`[{"key":"2026test_qm3","comp_level":"qm","set_number":1,"match_number":3,
	  "alliances":{"red":{"team_keys":["frc1209","frc2","frc3"],"score":-1},"blue":{"team_keys":["frc4","frc5","frc6"],"score":null}},
	  "winning_alliance":"","time":1773500000,"predicted_time":null,"actual_time":null},
	 {"key":"2026test_qm1","comp_level":"qm","set_number":1,"match_number":1,"alliances":null}]`), &ms); err != nil {
		t.Fatal(err)
	}
	// Seconds converted, -1 unplayed, numbers without frc.
	if m := ms[0]; fromSeconds(m.Time) == nil || fromSeconds(m.Time).UnixMilli() != 1773500000000 || m.PredictedTime != nil ||
		tbaScore(m.Alliances.Red) != nil || tbaScore(m.Alliances.Blue) != nil || !reflect.DeepEqual(tbaTeams(m.Alliances.Red), []string{"1209", "2", "3"}) {
		t.Errorf("match = %+v, want seconds, scores -1, numbers without frc", m)
	}
	if m := ms[1]; tbaScore(m.Alliances.Red) != nil || tbaTeams(m.Alliances.Red) != nil {
		t.Errorf("match without alliances = %+v", m)
	}
}

func TestUpstreamTimesOutsideTheWindowAreDropped(t *testing.T) {
	ms := func(t time.Time) *int64 { v := t.UnixMilli(); return &v }
	sec := func(t time.Time) *int64 { v := t.Unix(); return &v }
	huge, tiny := int64(1)<<62, -int64(1)<<62
	tests := []struct {
		name string
		in   time.Time
		ok   bool
	}{
		{"event day", t0, true},
		{"year 2000", time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"1999", time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC), false},
		{"epoch", time.Unix(0, 0), false},
		{"2100", time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromMillis(ms(tt.in)); (got != nil) != tt.ok || got != nil && !got.Equal(tt.in) {
				t.Errorf("fromMillis = %v, want ok %v", got, tt.ok)
			}
			if got := fromSeconds(sec(tt.in)); (got != nil) != tt.ok || got != nil && !got.Equal(tt.in) {
				t.Errorf("fromSeconds = %v, want ok %v", got, tt.ok)
			}
		})
	}
	for _, v := range []int64{huge, tiny} {
		if got := fromMillis(&v); got != nil {
			t.Errorf("fromMillis(%d) = %v, want nil", v, got)
		}
		if got := fromSeconds(&v); got != nil {
			t.Errorf("fromSeconds(%d) = %v, want nil", v, got)
		}
	}
	// Such a time in an answer is dropped, and the rest kept: the Status
	// encodes, whatever the year upstream says.
	ev := parse(t, `{"eventKey":"e","dataAsOfTime":4611686018427387904,"matches":[
		{"label":"Qualification 1","times":{"estimatedStartTime":-4611686018427387904,"scheduledStartTime":1773500000000}}]}`)
	if tm := matchTimes(ev.Matches[0].Times); !DataAsOf(ev).IsZero() || tm.Start != nil || tm.Scheduled == nil {
		t.Fatalf("parsed = %+v, %+v", ev, tm)
	}
	up := Upstream{Team: 1209, Configured: true, EventKey: "e", NexusEventKey: "e", Nexus: NexusData{Health: Health{StateOK, ""}, Event: ev}}
	if _, err := json.Marshal(Merge(up, t0)); err != nil {
		t.Fatalf("the merge does not encode: %v", err)
	}
}
