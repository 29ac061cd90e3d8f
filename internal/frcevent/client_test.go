package frcevent

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/faultreplay"
)

func TestNexusClientDecodesAndConverts(t *testing.T) {
	var gotKey string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotKey = r.Header.Get("Nexus-Api-Key")
		if r.URL.Path != "/api/v1/event/2026test" {
			http.NotFound(w, r)
			return
		}
		// Absent keys, nulls, a null alliance, null seats, numbers for ids.
		// A test server: a failed write shows as a bad answer to the client.
		_, _ = w.Write([]byte(`{"eventKey":"2026test","dataAsOfTime":1773500000123,"nowQueuing":null,
			"matches":[
			 {"label":"Qualification 1","status":"On field","redTeams":["1209",null,"254"],"blueTeams":null,
			  "times":{"estimatedStartTime":1773500060000,"actualStartTime":null},"breakAfter":"Lunch"},
			 {"label":"Practice 1","redTeams":[],"blueTeams":["1"]}],
			"announcements":[{"id":7,"announcement":"Hello","postedTime":1773499000000}],
			"partsRequests":[{"id":"p","parts":"bolt","requestedByTeam":118,"postedTime":1773499500000}]}`))
	}))
	defer srv.Close()
	c := &nexusClient{base: srv.URL + "/api/v1", key: "secret-nexus", http: srv.Client(), timeout: time.Second}
	ev, err := c.event(context.Background(), "2026test")
	if err != nil {
		t.Fatal(err)
	}
	if gotKey != "secret-nexus" {
		t.Errorf("Nexus-Api-Key = %q", gotKey)
	}
	if want := time.UnixMilli(1773500000123).UTC(); !board.DataAsOf(ev).Equal(want) {
		t.Errorf("DataAsOf = %v, want %v (milliseconds)", board.DataAsOf(ev), want)
	}
	// As Nexus sent it: board.convert_test.go checks what the board makes of it.
	q1, p1 := ev.Matches[0], ev.Matches[1]
	if len(q1.RedTeams) != 3 || q1.RedTeams[1] != nil || q1.BlueTeams != nil || frcapi.Deref(q1.RedTeams[2]) != "254" {
		t.Errorf("teams = %#v / %#v, want a null seat and a null alliance as nil", q1.RedTeams, q1.BlueTeams)
	}
	if tm := q1.Times; frcapi.Deref(tm.EstimatedStartTime) != 1773500060000 || tm.ActualStartTime != nil || tm.EstimatedQueueTime != nil {
		t.Errorf("times = %+v", tm)
	}
	if frcapi.Deref(q1.BreakAfter) != "Lunch" || p1.Status != "" || p1.RedTeams == nil || len(p1.RedTeams) != 0 {
		t.Errorf("matches = %+v", ev.Matches)
	}
	if a := ev.Announcements[0]; a.ID != "7" || a.Announcement != "Hello" || frcapi.Deref(a.PostedTime) != 1773499000000 {
		t.Errorf("announcement = %+v", a)
	}
	if p := ev.PartsRequests[0]; p.RequestedByTeam != "118" || p.Parts != "bolt" {
		t.Errorf("parts request = %+v", p)
	}
}

func TestTBAClientDecodesAndConverts(t *testing.T) {
	var gotKey string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotKey = r.Header.Get("X-TBA-Auth-Key")
		switch r.URL.Path {
		case "/team/frc1209/event/2026test/status":
			// A test server: a failed write shows as a bad answer to the client.
			_, _ = w.Write([]byte(`null`))
		case "/team/frc1209/event/2026test/matches/simple":
			// A test server: a failed write shows as a bad answer to the client.
			_, _ = w.Write([]byte(`[{"key":"2026test_qm3","comp_level":"qm","set_number":1,"match_number":3,
			  "alliances":{"red":{"team_keys":["frc1209","frc2","frc3"],"score":-1},"blue":{"team_keys":["frc4","frc5","frc6"],"score":null}},
			  "winning_alliance":"","time":1773500000,"predicted_time":null,"actual_time":null},
			 {"key":"2026test_qm1","comp_level":"qm","set_number":1,"match_number":1,"alliances":null}]`))
		case "/event/2026test":
			// A test server: a failed write shows as a bad answer to the client.
			_, _ = w.Write([]byte(`{"key":"2026test","name":"Test","timezone":null,"webcasts":[{"type":"twitch","channel":"x","file":null}]}`))
		case "/event/2026test/rankings":
			// A test server: a failed write shows as a bad answer to the client.
			_, _ = w.Write([]byte(`null`))
		case "/status":
			// A test server: a failed write shows as a bad answer to the client.
			_, _ = w.Write([]byte(`{"down_events":["2026test"],"is_datafeed_down":false}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := &tbaClient{base: srv.URL, key: "secret-tba", http: srv.Client(), timeout: time.Second}
	ctx := context.Background()
	st, err := c.teamStatus(ctx, 1209, "2026test")
	if err != nil || st != nil {
		t.Fatalf("teamStatus = %+v, %v; want nil for null", st, err)
	}
	if gotKey != "secret-tba" {
		t.Errorf("X-TBA-Auth-Key = %q", gotKey)
	}
	ms, err := c.matches(ctx, 1209, "2026test")
	if err != nil {
		t.Fatal(err)
	}
	// The merge reads the match as TBA sent it (board.convert_test.go):
	// seconds, -1 unplayed, null alliances.
	if m := ms[0]; frcapi.Deref(m.Time) != 1773500000 || m.PredictedTime != nil || m.Alliances.Red == nil || m.Alliances.Blue == nil ||
		frcapi.Deref(m.Alliances.Red.Score) != -1 || m.Alliances.Blue.Score != nil || !reflect.DeepEqual(m.Alliances.Red.TeamKeys, []string{"frc1209", "frc2", "frc3"}) {
		t.Errorf("match = %+v, want seconds, scores as sent, team keys", m)
	}
	if m := ms[1]; m.Alliances.Red != nil || m.Alliances.Blue != nil {
		t.Errorf("match without alliances = %+v", m)
	}
	ev, err := c.event(ctx, "2026test")
	if err != nil || ev.Name != "Test" || ev.Timezone != "" || len(ev.Webcasts) != 1 {
		t.Errorf("event = %+v, %v", ev, err)
	}
	if rs, err := c.rankings(ctx, "2026test"); err != nil || rs != nil {
		t.Errorf("rankings = %v, %v; want nil for null", rs, err)
	}
	if down, err := c.downEvents(ctx); err != nil || !reflect.DeepEqual(down, []string{"2026test"}) {
		t.Errorf("down events = %v, %v", down, err)
	}
}

func TestTBAClientReusesBodyOn304(t *testing.T) {
	e := newEnv(t, testTimeline())
	var inm []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inm = append(inm, r.Header.Get("If-None-Match"))
		r.URL.Path = "/tba/api/v3" + r.URL.Path
		e.up.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := &tbaClient{base: srv.URL, key: replay.DefaultTBAKey, http: srv.Client(), timeout: time.Second}
	first, err := c.teamStatus(context.Background(), 1209, "2026test")
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.teamStatus(context.Background(), 1209, "2026test")
	if err != nil {
		t.Fatal(err)
	}
	if inm[0] != "" || inm[1] == "" {
		t.Fatalf("If-None-Match = %q, want none then the ETag", inm)
	}
	if !reflect.DeepEqual(first, second) || first.Rank == nil || first.Rank.Rank != 3 || first.PitLocation != "P9" {
		t.Fatalf("after a 304: %+v, want the first answer %+v again", second, first)
	}
	if n := e.up.Count(frcapi.TBATeamStatus); n != 2 {
		t.Fatalf("requests = %d, want 2", n)
	}
}

func TestClientErrorStates(t *testing.T) {
	tests := []struct {
		name      string
		nexusKey  string
		tbaKey    string
		event     string
		fault     faultreplay.Fault
		want      board.SourceState
		wantInErr string // "" when the words are the transport's
		wantErr   error
	}{
		{name: "wrong key", nexusKey: "wrong-secret", tbaKey: "wrong-secret", want: board.StateKeyRejected, wantInErr: "403"},
		{name: "no key", nexusKey: "", tbaKey: "", want: board.StateKeyRejected, wantInErr: "401"},
		{name: "unknown event", event: "2026nope", want: board.StateNotFound, wantInErr: "404"},
		{name: "500", fault: faultreplay.Status500, want: board.StateUnreachable, wantInErr: "500"},
		{name: "revoked key", fault: faultreplay.Status403, want: board.StateKeyRejected, wantInErr: "403"},
		{name: "malformed", fault: faultreplay.Malformed, want: board.StateUnreachable, wantInErr: "decode"},
		{name: "truncated", fault: faultreplay.Truncated, want: board.StateUnreachable, wantErr: io.ErrUnexpectedEOF},
		{name: "truncated chunked", fault: faultreplay.TruncatedChunked, want: board.StateUnreachable, wantErr: io.ErrUnexpectedEOF},
		{name: "huge", fault: faultreplay.Huge, want: board.StateUnreachable, wantInErr: "body over"},
		{name: "down", fault: faultreplay.Down, want: board.StateUnreachable},
		{name: "slow", fault: faultreplay.Slow, want: board.StateUnreachable, wantErr: context.DeadlineExceeded},
		{name: "hang", fault: faultreplay.Hang, want: board.StateUnreachable, wantErr: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		for _, api := range []string{"nexus", "tba"} {
			t.Run(tt.name+"/"+api, func(t *testing.T) {
				e := newEnv(t, testTimeline())
				e.up.SetFault("", tt.fault)
				timeout := 5 * time.Second
				if tt.fault == faultreplay.Slow || tt.fault == faultreplay.Hang {
					// The fake clock never releases the answer: only the
					// request's own timeout ends it, short to keep the test so.
					timeout = 50 * time.Millisecond
				}
				c := e.clients(timeout)
				if tt.nexusKey != "" || tt.tbaKey != "" || tt.name == "no key" {
					c.nexus.key, c.tba.key = tt.nexusKey, tt.tbaKey
				}
				event := "2026test"
				if tt.event != "" {
					event = tt.event
				}
				var err error
				if api == "nexus" {
					_, err = c.nexus.event(context.Background(), event)
				} else {
					_, err = c.tba.matches(context.Background(), 1209, event)
				}
				if got := stateOf(err); got != tt.want {
					t.Fatalf("state = %q (err %v), want %q", got, err, tt.want)
				}
				if !strings.Contains(err.Error(), tt.wantInErr) {
					t.Errorf("error %q does not say %q", err, tt.wantInErr)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("error %q is not %v", err, tt.wantErr)
				}
				for _, key := range []string{replay.DefaultNexusKey, replay.DefaultTBAKey, "wrong-secret"} {
					if strings.Contains(err.Error(), key) {
						t.Errorf("error %q holds a key", err)
					}
				}
				var se *sourceError
				if !errors.As(err, &se) {
					t.Errorf("error %T is not a sourceError", err)
				}
			})
		}
	}
}

// clients are both clients of e's upstream with a short request timeout,
// so the slow fault times out at once in real time.
type clients struct {
	nexus *nexusClient
	tba   *tbaClient
}

func (e *env) clients(timeout time.Duration) clients {
	return clients{
		nexus: &nexusClient{base: e.srv.URL + "/nexus/api/v1", key: replay.DefaultNexusKey, http: e.srv.Client(), timeout: timeout},
		tba:   &tbaClient{base: e.srv.URL + "/tba/api/v3", key: replay.DefaultTBAKey, http: e.srv.Client(), timeout: timeout},
	}
}

func TestTBAClientDropsABrokenAnswer(t *testing.T) {
	e := newEnv(t, testTimeline())
	c := e.clients(time.Second).tba
	ctx := context.Background()
	good, err := c.matches(ctx, 1209, "2026test")
	if err != nil {
		t.Fatal(err)
	}
	e.up.SetFault("tba", faultreplay.Malformed)
	if _, err := c.matches(ctx, 1209, "2026test"); stateOf(err) != board.StateUnreachable {
		t.Fatalf("malformed: %v", err)
	}
	e.up.SetFault("tba", faultreplay.None)
	again, err := c.matches(ctx, 1209, "2026test")
	if err != nil || !reflect.DeepEqual(good, again) {
		t.Fatalf("after the fault: %v, %v; want the good list again", again, err)
	}
}
