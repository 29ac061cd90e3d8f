package replay_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

func TestTimesAreShiftedAndRevealed(t *testing.T) {
	f := newFixture(t)
	type nexusMatch struct {
		Status    string            `json:"status"`
		RedTeams  []*string         `json:"redTeams"`
		BlueTeams []*string         `json:"blueTeams"`
		Times     map[string]*int64 `json:"times"`
	}
	var ev struct {
		DataAsOfTime  int64             `json:"dataAsOfTime"`
		NowQueuing    *string           `json:"nowQueuing"`
		Matches       []nexusMatch      `json:"matches"`
		Announcements []json.RawMessage `json:"announcements"`
	}
	read := func() {
		_, body := f.Get(t, replaytest.NexusPath, "Nexus-Api-Key", "nk")
		ev.NowQueuing = nil
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Fatal(err)
		}
	}
	read()
	q1 := ev.Matches[0]
	if q1.Status != "Queuing soon" || q1.Times["actualQueueTime"] != nil || *q1.Times["estimatedStartTime"] != replaytest.Start.Add(2*time.Minute).UnixMilli() {
		t.Fatalf("at 0: %+v", q1)
	}
	if q1.RedTeams[1] != nil || q1.BlueTeams != nil || ev.NowQueuing != nil || len(ev.Announcements) != 0 || ev.DataAsOfTime != replaytest.Start.UnixMilli() {
		t.Fatalf("at 0: %+v", ev)
	}
	f.Clock.Advance(100 * time.Second)
	read()
	if ev.Matches[0].Status != "On deck" || ev.NowQueuing == nil || *ev.NowQueuing != "Qualification 1" || len(ev.Announcements) != 1 ||
		ev.DataAsOfTime != replaytest.Start.Add(90*time.Second).UnixMilli() || ev.Matches[1].Status != "Queuing soon" {
		t.Fatalf("at 100 s: %+v", ev)
	}

	var matches []frcapi.TBAMatch
	readTBA := func() {
		_, body := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk")
		if err := json.Unmarshal(body, &matches); err != nil {
			t.Fatal(err)
		}
	}
	readTBA()
	if len(matches) != 1 || matches[0].ActualTime != nil || *matches[0].Alliances.Red.Score != -1 || *matches[0].Time != replaytest.Start.Add(2*time.Minute).Unix() {
		t.Fatalf("TBA at 100 s: %+v (want only our match, unplayed, seconds)", matches)
	}
	f.Clock.Advance(2 * time.Minute)
	readTBA()
	if *matches[0].ActualTime != replaytest.Start.Add(2*time.Minute).Unix() || *matches[0].Alliances.Red.Score != 10 {
		t.Fatalf("TBA at 220 s: %+v", matches[0])
	}
	// The next round: everything is 10 min later.
	f.Clock.Advance(10 * time.Minute)
	read()
	if ev.Matches[0].Status != "On field" || *ev.Matches[0].Times["estimatedStartTime"] != replaytest.Start.Add(12*time.Minute).UnixMilli() {
		t.Fatalf("second round: %+v", ev.Matches[0])
	}
}

func TestTimelineStepsApplyAtTheirOffsets(t *testing.T) {
	f := newFixture(t)
	f.Clock.Advance(5*time.Minute - time.Second)
	if _, body := f.Get(t, replaytest.NexusPath+"/pits", "Nexus-Api-Key", "nk"); string(body) != "{}" {
		t.Fatalf("pits before the step at 5 min: %s", body)
	}
	f.Clock.Advance(time.Second)
	if _, body := f.Get(t, replaytest.NexusPath+"/pits", "Nexus-Api-Key", "nk"); string(body) != `{"1209":"A1"}` {
		t.Fatalf("pits at 5 min: %s", body)
	}
	if _, body := f.Get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); !strings.Contains(string(body), `"down_events":[]`) {
		t.Fatalf("status at 5 min: %s", body)
	}
	f.Clock.Advance(time.Minute)
	resp, body := f.Get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"down_events":["2026test"]`) {
		t.Fatalf("at 6 min: %d %s", resp.StatusCode, body)
	}
}

func TestParse(t *testing.T) {
	data, err := json.Marshal(replaytest.Timeline())
	if err != nil {
		t.Fatal(err)
	}
	tl, err := replay.Parse(data)
	if err != nil || len(tl.Steps) != 3 || tl.Steps[1].At != replay.Offset(5*time.Minute) || tl.Steps[1].Pits["1209"] != "A1" {
		t.Fatalf("round trip: %+v, %v", tl, err)
	}
	for _, bad := range []string{
		`{"team":1209,"event":"e","steps":[],"typo":1}`,
		`{"team":1209,"event":"e","steps":[{"at":"soon"}]}`,
		// Faults are no part of a timeline: the product never fails on
		// purpose, and tests inject faults in front of the server.
		`{"team":1209,"event":"e","steps":[{"at":"1s","fault":"500"}]}`,
		`{"event":"e"}`,
	} {
		if _, err := replay.Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) = nil error", bad)
		}
	}
}

func TestDemoTimeline(t *testing.T) {
	tl := replay.Demo()
	if tl.Team != 1209 || tl.Event != "2026demo" || time.Duration(tl.Length) != 640*time.Second {
		t.Fatalf("demo = team %d event %q length %v", tl.Team, tl.Event, time.Duration(tl.Length))
	}
	first := tl.Steps[0]
	if first.Event.Name != "RoboHornets Demo Regional" || first.Event.Timezone != "America/Chicago" || first.Pits["1209"] != "B12" {
		t.Fatalf("demo event = %+v pit %q", first.Event, first.Pits["1209"])
	}
	teams := map[string]bool{}
	for _, m := range first.Nexus.Matches {
		for _, t := range append(m.RedTeams, m.BlueTeams...) {
			teams[*t] = true
		}
	}
	if len(teams) != 30 {
		t.Fatalf("demo has %d teams, want 30", len(teams))
	}
}
