package replay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

var start = time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)

func s(v string) *string { return &v }

func timeline() Timeline {
	return Timeline{
		Team: 1209, Event: "2026test", NexusEvent: "2026test_div", Length: Offset(10 * time.Minute),
		Steps: []Step{
			{State: State{
				Nexus: &NexusEvent{Matches: []NexusMatch{
					{Label: "Qualification 1", RedTeams: []*string{s("1209"), nil, s("3")}, Times: NexusTimes{
						EstimatedStart: At(2 * time.Minute), ActualQueue: At(time.Minute), ActualOnDeck: At(90 * time.Second), ActualOnField: At(2 * time.Minute)}},
					{Label: "Qualification 2", Status: "Queuing soon"},
				}},
				Announcements: []Announcement{{ID: "a", Text: "later", Posted: Offset(30 * time.Second)}},
				Matches: []Match{
					{Key: "2026test_qm1", CompLevel: "qm", SetNumber: 1, MatchNumber: 1, Red: []string{"frc1209"}, Blue: []string{"frc2"},
						RedScore: 10, BlueScore: 5, WinningAlliance: "red", Time: At(2 * time.Minute), ActualTime: At(2 * time.Minute), ResultAt: At(3 * time.Minute)},
					{Key: "2026test_qm2", CompLevel: "qm", Red: []string{"frc7"}, Blue: []string{"frc8"}},
				},
				Event: &Event{Key: "2026test", Name: "Test", Timezone: "America/Chicago", StartDay: -1, EndDay: 1},
			}},
			{At: Offset(5 * time.Minute), Fault: func() *Fault { f := Fault500; return &f }()},
			{At: Offset(6 * time.Minute), Fault: func() *Fault { f := FaultNone; return &f }(), State: State{DownEvents: []string{"2026test"}}},
		},
	}
}

type fixture struct {
	clk *clock.Fake
	srv *Server
	web *httptest.Server
}

func newFixture(t *testing.T) fixture {
	clk := clock.NewFake(start)
	srv := New(Options{Timeline: timeline(), Clock: clk, Loop: true, NexusKey: "nk", TBAKey: "tk"})
	web := httptest.NewServer(srv)
	t.Cleanup(web.Close)
	return fixture{clk, srv, web}
}

func (f fixture) get(t *testing.T, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.web.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := f.web.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

const (
	nexusPath = "/nexus/api/v1/event/2026test_div"
	tbaPath   = "/tba/api/v3/team/frc1209/event/2026test/matches/simple"
)

func TestKeysAndEvents(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, path string
		header     []string
		want       int
	}{
		{"nexus without key", nexusPath, nil, 401},
		{"nexus wrong key", nexusPath, []string{"Nexus-Api-Key", "tk"}, 403},
		{"nexus", nexusPath, []string{"Nexus-Api-Key", "nk"}, 200},
		{"nexus TBA's key for a division", "/nexus/api/v1/event/2026test", []string{"Nexus-Api-Key", "nk"}, 404},
		{"nexus pits", nexusPath + "/pits", []string{"Nexus-Api-Key", "nk"}, 200},
		{"tba without key", tbaPath, nil, 401},
		{"tba wrong key", tbaPath, []string{"X-TBA-Auth-Key", "nk"}, 403},
		{"tba", tbaPath, []string{"X-TBA-Auth-Key", "tk"}, 200},
		{"tba unknown event", "/tba/api/v3/event/2026nope", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba other team", "/tba/api/v3/team/frc254/event/2026test/status", []string{"X-TBA-Auth-Key", "tk"}, 404},
		{"tba team events", "/tba/api/v3/team/frc1209/events/2026/simple", []string{"X-TBA-Auth-Key", "tk"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if resp, body := f.get(t, tt.path, tt.header...); resp.StatusCode != tt.want {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, tt.want)
			}
		})
	}
}

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
		_, body := f.get(t, nexusPath, "Nexus-Api-Key", "nk")
		ev.NowQueuing = nil
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Fatal(err)
		}
	}
	read()
	q1 := ev.Matches[0]
	if q1.Status != "Queuing soon" || q1.Times["actualQueueTime"] != nil || *q1.Times["estimatedStartTime"] != start.Add(2*time.Minute).UnixMilli() {
		t.Fatalf("at 0: %+v", q1)
	}
	if q1.RedTeams[1] != nil || q1.BlueTeams != nil || ev.NowQueuing != nil || len(ev.Announcements) != 0 || ev.DataAsOfTime != start.UnixMilli() {
		t.Fatalf("at 0: %+v", ev)
	}
	f.clk.Advance(100 * time.Second)
	read()
	if ev.Matches[0].Status != "On deck" || ev.NowQueuing == nil || *ev.NowQueuing != "Qualification 1" || len(ev.Announcements) != 1 ||
		ev.DataAsOfTime != start.Add(90*time.Second).UnixMilli() || ev.Matches[1].Status != "Queuing soon" {
		t.Fatalf("at 100 s: %+v", ev)
	}

	var matches []struct {
		Alliances map[string]struct {
			Score int `json:"score"`
		} `json:"alliances"`
		ActualTime *int64 `json:"actual_time"`
		Time       *int64 `json:"time"`
	}
	readTBA := func() {
		_, body := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk")
		if err := json.Unmarshal(body, &matches); err != nil {
			t.Fatal(err)
		}
	}
	readTBA()
	if len(matches) != 1 || matches[0].ActualTime != nil || matches[0].Alliances["red"].Score != -1 || *matches[0].Time != start.Add(2*time.Minute).Unix() {
		t.Fatalf("TBA at 100 s: %+v (want only our match, unplayed, seconds)", matches)
	}
	f.clk.Advance(2 * time.Minute)
	readTBA()
	if *matches[0].ActualTime != start.Add(2*time.Minute).Unix() || matches[0].Alliances["red"].Score != 10 {
		t.Fatalf("TBA at 220 s: %+v", matches[0])
	}
	// The next round: everything is 10 min later.
	f.clk.Advance(10 * time.Minute)
	read()
	if ev.Matches[0].Status != "On field" || *ev.Matches[0].Times["estimatedStartTime"] != start.Add(12*time.Minute).UnixMilli() {
		t.Fatalf("second round: %+v", ev.Matches[0])
	}
}

func TestETagAndCaching(t *testing.T) {
	f := newFixture(t)
	resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk")
	etag := resp.Header.Get("ETag")
	if etag == "" || resp.Header.Get("Cache-Control") != "public, max-age=61" {
		t.Fatalf("headers = %v", resp.Header)
	}
	if resp, body := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk", "If-None-Match", etag); resp.StatusCode != 304 || len(body) != 0 {
		t.Fatalf("matching If-None-Match: %d %q", resp.StatusCode, body)
	}
	f.clk.Advance(4 * time.Minute) // the score comes out
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk", "If-None-Match", etag); resp.StatusCode != 200 || resp.Header.Get("ETag") == etag {
		t.Fatalf("changed data: %d, ETag %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	if n := f.srv.Count(EndpointTBAMatches); n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}
	if resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); resp.Header.Get("ETag") != "" {
		t.Fatal("Nexus answers with an ETag")
	}
}

func TestFaults(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault("tba", Fault500)
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("500: %d", resp.StatusCode)
	}
	if resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 200 {
		t.Fatalf("a TBA fault reached Nexus: %d", resp.StatusCode)
	}
	f.srv.SetFault("nexus", Fault403)
	if resp, _ := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); resp.StatusCode != 403 {
		t.Fatalf("403 with the right key: %d", resp.StatusCode)
	}
	f.srv.SetFault("", FaultMalformed)
	if _, body := f.get(t, nexusPath, "Nexus-Api-Key", "nk"); json.Valid(body) || len(body) == 0 {
		t.Fatalf("malformed: %q is valid JSON", body)
	}
	f.srv.SetFault("", FaultDown)
	if _, err := f.web.Client().Get(f.web.URL + nexusPath); err == nil {
		t.Fatal("down: got an answer")
	}
	f.srv.SetFault("", FaultSlow)
	type result struct {
		code int
		err  error
	}
	got := make(chan result, 1)
	go func() {
		// Not f.get: t.Fatal must not be called from another goroutine.
		req, _ := http.NewRequest(http.MethodGet, f.web.URL+tbaPath, nil)
		req.Header.Set("X-TBA-Auth-Key", "tk")
		resp, err := f.web.Client().Do(req)
		if err != nil {
			got <- result{err: err}
			return
		}
		resp.Body.Close()
		got <- result{code: resp.StatusCode}
	}()
	f.clk.BlockUntilWaiters(1)
	f.clk.Advance(30 * time.Second)
	if r := <-got; r.err != nil || r.code != 200 {
		t.Fatalf("slow: %d, %v after the delay", r.code, r.err)
	}
	f.srv.SetFault("", FaultNone)
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("after the faults: %d", resp.StatusCode)
	}
}

func TestTruncatedAnswers(t *testing.T) {
	f := newFixture(t)
	_, whole := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk")
	tests := []struct {
		fault      Fault
		wantLength int64 // the Content-Length announced; -1 for none
	}{
		{FaultTruncated, int64(len(whole))},
		{FaultTruncatedChunked, -1},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			f.srv.SetFault("tba", tt.fault)
			req, _ := http.NewRequest(http.MethodGet, f.web.URL+tbaPath, nil)
			req.Header.Set("X-TBA-Auth-Key", "tk")
			resp, err := f.web.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 || resp.ContentLength != tt.wantLength {
				t.Fatalf("status %d, Content-Length %d; want 200 and %d", resp.StatusCode, resp.ContentLength, tt.wantLength)
			}
			body, err := io.ReadAll(resp.Body)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("reading the body: %v, want an unexpected EOF", err)
			}
			if string(body) != string(whole[:len(whole)/2]) {
				t.Fatalf("got %d bytes %.40q…, want the first half of the %d-byte answer", len(body), body, len(whole))
			}
		})
	}
}

func TestHugeAnswerIsStreamed(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault("", FaultHuge)
	req, _ := http.NewRequest(http.MethodGet, f.web.URL+tbaPath, nil)
	req.Header.Set("X-TBA-Auth-Key", "tk")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := f.web.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// Read through a small buffer, keeping only both ends: neither side of
	// the test may hold 50 MiB.
	var head, tail []byte
	n, err := io.CopyBuffer(writerFunc(func(p []byte) (int, error) {
		if len(head) < 16 {
			head = append(head, p[:min(len(p), 16-len(head))]...)
		}
		tail = append(tail[:0], p[max(0, len(p)-2):]...)
		return len(p), nil
	}), resp.Body, make([]byte, 32<<10))
	runtime.ReadMemStats(&after)
	if err != nil || n != 50<<20 || resp.ContentLength != n {
		t.Fatalf("read %d bytes (Content-Length %d), %v; want 50 MiB", n, resp.ContentLength, err)
	}
	if !strings.HasPrefix(string(head), `{"pad":"xxxxxxx`) || string(tail) != `"}` {
		t.Fatalf("body %q … %q, want one JSON object", head, tail)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("serving and reading 50 MiB allocated %d MiB: the answer is not streamed", grew>>20)
	}
}

// writerFunc is an io.Writer made of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestHangLastsUntilTheClientGivesUp(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault("nexus", FaultHang)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.web.URL+nexusPath, nil)
	req.Header.Set("Nexus-Api-Key", "nk")
	began := time.Now()
	if resp, err := f.web.Client().Do(req); !errors.Is(err, context.DeadlineExceeded) {
		if err == nil {
			resp.Body.Close()
		}
		t.Fatalf("hang: %v, want the client's own deadline", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("the client waited %v for a 100 ms deadline", took)
	}
	// The handler ends once the server sees the client gone: nothing of
	// the request stays behind in the server. Its clock is fake, so this
	// wait is on real time.
	for deadline := time.Now().Add(5 * time.Second); f.srv.Active() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests still held 5 s after their client gave up", f.srv.Active())
		}
	}
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 200 {
		t.Fatalf("a Nexus hang reached TBA: %d", resp.StatusCode)
	}
}

func TestFlapAlternates(t *testing.T) {
	clk := clock.NewFake(start)
	srv := New(Options{Timeline: timeline(), Clock: clk, NexusKey: "nk", TBAKey: "tk", FlapEvery: 10 * time.Second, FlapFault: Fault500})
	web := httptest.NewServer(srv)
	defer web.Close()
	code := func() int {
		req, _ := http.NewRequest(http.MethodGet, web.URL+nexusPath, nil)
		req.Header.Set("Nexus-Api-Key", "nk")
		resp, err := web.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	clk.Advance(3 * time.Second) // a flap starts when it is set, not on the clock's tens
	srv.SetFault("", FaultFlap)
	var got []int
	for range 6 {
		got = append(got, code())
		clk.Advance(5 * time.Second)
	}
	if want := []int{500, 500, 200, 200, 500, 500}; !slices.Equal(got, want) {
		t.Fatalf("every 5 s of a 10 s flap: %v, want %v", got, want)
	}
	srv.SetFault("", FaultNone)
	if c := code(); c != 200 {
		t.Fatalf("after the flap: %d", c)
	}
	defer func() {
		if recover() == nil {
			t.Error("New took FlapFault flap")
		}
	}()
	New(Options{Timeline: timeline(), FlapFault: FaultFlap})
}

func TestTimelineFaultsAndParts(t *testing.T) {
	f := newFixture(t)
	f.clk.Advance(5 * time.Minute)
	if resp, _ := f.get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("timeline fault at 5 min: %d", resp.StatusCode)
	}
	f.clk.Advance(time.Minute)
	resp, body := f.get(t, "/tba/api/v3/status", "X-TBA-Auth-Key", "tk")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"down_events":["2026test"]`) {
		t.Fatalf("at 6 min: %d %s", resp.StatusCode, body)
	}
}

func TestControlHandler(t *testing.T) {
	f := newFixture(t)
	h := f.srv.ControlHandler()
	tests := []struct {
		body string
		code int
	}{
		{`{"fault":"down"}`, 200},
		{`{"fault":""}`, 200},
		{`{"fault":"hang"}`, 200},
		{`{"fault":"403","api":"nexus"}`, 200},
		{`{"fault":"truncated"}`, 200},
		{`{"fault":"truncated-chunked"}`, 200},
		{`{"fault":"flap"}`, 200},
		{`{"fault":"500","api":"tba"}`, 200},
		{`{"fault":"explode"}`, 400},
		{`{"fault":"500","api":"frc"}`, 400},
		{`not json`, 400},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/control", strings.NewReader(tt.body)))
		if rec.Code != tt.code {
			t.Errorf("POST %s = %d, want %d", tt.body, rec.Code, tt.code)
		}
		if tt.code == 400 && !strings.Contains(rec.Body.String(), "truncated-chunked|huge|down|flap|") {
			t.Errorf("POST %s: %q does not list the faults", tt.body, rec.Body)
		}
	}
	if resp, _ := f.get(t, tbaPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("after control: %d, want 500", resp.StatusCode)
	}
}

func TestParse(t *testing.T) {
	data, err := json.Marshal(timeline())
	if err != nil {
		t.Fatal(err)
	}
	tl, err := Parse(data)
	if err != nil || len(tl.Steps) != 3 || tl.Steps[1].At != Offset(5*time.Minute) || *tl.Steps[1].Fault != Fault500 {
		t.Fatalf("round trip: %+v, %v", tl, err)
	}
	for _, bad := range []string{
		`{"team":1209,"event":"e","steps":[],"typo":1}`,
		`{"team":1209,"event":"e","steps":[{"at":"soon"}]}`,
		`{"team":1209,"event":"e","steps":[{"at":"1s","fault":"boom"}]}`,
		`{"event":"e"}`,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) = nil error", bad)
		}
	}
}

func TestDemoTimeline(t *testing.T) {
	tl := Demo()
	if tl.Team != 1209 || tl.Event != "2026demo" || time.Duration(tl.Length) != 5*time.Minute {
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
