package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	ical "github.com/emersion/go-ical"

	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/news"
)

// The calendar is parsed back with github.com/emersion/go-ical, an
// iCalendar decoder independent of the writer under test; the raw lines
// are checked here for what a decoder forgives (length, CRLF, UTF-8).

var calendarNow = time.Date(2026, 3, 14, 14, 0, 0, 0, time.UTC)

func at(hour, minute int) *time.Time {
	t := time.Date(2026, 3, 14, hour, minute, 0, 0, time.UTC)
	return &t
}

// calendarStatus is an event with four matches of ours: one played, one
// estimated, a Nexus-only one without a key, a playoff match with a
// partner undecided, and one with no time yet.
func calendarStatus() board.Status {
	return board.Status{
		Configured: true, Team: 1209, EventKey: "2026okok", EventName: "Green Country Regional",
		Timezone: "America/Chicago",
		Schedule: []board.Match{
			{
				Key: "2026okok_qm12", Label: "Qualification 12", Alliance: "blue",
				Red: []string{"118", "254", "1678"}, Blue: []string{"1209", "4513", "2848"}, Partners: []string{"4513", "2848"},
				Times: board.MatchTimes{Scheduled: at(13, 0), Start: at(13, 4), ActualStart: at(13, 6)},
				When:  &board.When{Kind: board.TimeActual, At: *at(13, 6)},
			},
			{
				Key: "2026okok_qm39", Label: "Qualification 39", Alliance: "red",
				Red: []string{"6401", "1209", "333"}, Blue: []string{"148", "2468", "3005"}, Partners: []string{"6401", "333"},
				Times: board.MatchTimes{Scheduled: at(15, 0), Start: at(15, 12)},
				When:  &board.When{Kind: board.TimeEstimated, At: *at(15, 12)},
			},
			{
				Label: "Qualification 40", Alliance: "blue",
				Red: []string{"16", "20", "30"}, Blue: []string{"40", "1209", "50"}, Partners: []string{"40", "50"},
				Times: board.MatchTimes{Scheduled: at(15, 30)},
				When:  &board.When{Kind: board.TimeScheduled, At: *at(15, 30)},
			},
			{
				Key: "2026okok_sf7m1", Label: "Playoff 7", Alliance: "blue",
				Red: []string{"", "", ""}, Blue: []string{"1209", "", "7"}, Partners: []string{"7"},
				Times: board.MatchTimes{Scheduled: at(17, 45)},
				When:  &board.When{Kind: board.TimeScheduled, At: *at(17, 45)},
			},
			{Key: "2026okok_f1m1", Label: "Final 1", Alliance: "blue", Blue: []string{"1209"}, Partners: []string{}},
		},
	}
}

// parseCalendar checks the raw lines of body and decodes it.
func parseCalendar(t *testing.T, body []byte) *ical.Calendar {
	t.Helper()
	if !bytes.HasSuffix(body, []byte("\r\n")) {
		t.Fatalf("the calendar does not end with CRLF: %q", body)
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(body), "\r\n"), "\r\n") {
		if len(line) > maxLineOctets {
			t.Errorf("line %d has %d octets, more than 75: %q", i+1, len(line), line)
		}
		if !utf8.ValidString(line) {
			t.Errorf("line %d splits a UTF-8 sequence: %q", i+1, line)
		}
		if strings.ContainsAny(line, "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, line)
		}
	}
	cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("the calendar does not decode: %v\n%s", err, body)
	}
	if v := cal.Props.Get(ical.PropVersion); v == nil || v.Value != "2.0" {
		t.Errorf("VERSION = %+v, want 2.0", v)
	}
	return cal
}

// calEvent is what the tests read of a VEVENT.
type calEvent struct {
	UID, Summary, Description, URL, Sequence string
	Start, End, Modified, Stamp              time.Time
}

func calendarEvents(t *testing.T, cal *ical.Calendar) []calEvent {
	t.Helper()
	var out []calEvent
	for _, e := range cal.Events() {
		var ev calEvent
		text := func(name string) string {
			v, terr := e.Props.Text(name)
			if terr != nil {
				t.Fatalf("%s: %v", name, terr)
			}
			return v
		}
		moment := func(name string) time.Time {
			v, terr := e.Props.DateTime(name, nil)
			if terr != nil || v.IsZero() || v.Location() != time.UTC {
				t.Fatalf("%s = %v (%v), want a UTC time", name, v, terr)
			}
			return v
		}
		ev.UID, ev.Summary, ev.Description = text(ical.PropUID), text(ical.PropSummary), text(ical.PropDescription)
		if p := e.Props.Get(ical.PropURL); p != nil {
			ev.URL = p.Value
		}
		if p := e.Props.Get(ical.PropSequence); p != nil {
			ev.Sequence = p.Value
		}
		ev.Start, ev.End = moment(ical.PropDateTimeStart), moment(ical.PropDateTimeEnd)
		ev.Modified, ev.Stamp = moment(ical.PropLastModified), moment(ical.PropDateTimeStamp)
		out = append(out, ev)
	}
	return out
}

func TestCalendarEvents(t *testing.T) {
	var seen calendarSeen
	body := calendar(calendarStatus(), &seen, calendarNow, testSiteURLInternal)
	cal := parseCalendar(t, body)
	if tz, _ := cal.Props.Text("X-WR-TIMEZONE"); tz != "America/Chicago" {
		t.Errorf("X-WR-TIMEZONE = %q, want the event's zone", tz)
	}
	got := calendarEvents(t, cal)
	want := []struct {
		uid, summary string
		start        *time.Time
		description  []string
	}{
		{"frc1209-2026okok_qm12@robohornets", "Qualification 12 — blue with 4513, 2848", at(13, 6),
			[]string{"Against 118, 254, 1678 (red)", "Started", "Match key: 2026okok_qm12", "Green Country Regional (2026okok)"}},
		{"frc1209-2026okok_qm39@robohornets", "Qualification 39 — red with 6401, 333", at(15, 12),
			[]string{"Against 148, 2468, 3005 (blue)", "Estimated", "Match key: 2026okok_qm39"}},
		{"frc1209-2026okok-qualification-40@robohornets", "Qualification 40 — blue with 40, 50", at(15, 30),
			[]string{"Against 16, 20, 30 (red)", "Scheduled", "Match key: not known yet"}},
		{"frc1209-2026okok_sf7m1@robohornets", "Playoff 7 — blue with 7", at(17, 45),
			[]string{"Opponents not known yet", "Match key: 2026okok_sf7m1"}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d (Final 1 has no time yet):\n%s", len(got), len(want), body)
	}
	for i, w := range want {
		ev := got[i]
		if ev.UID != w.uid || ev.Summary != w.summary || !ev.Start.Equal(*w.start) || ev.Sequence != "0" {
			t.Errorf("event %d = UID %q, SUMMARY %q, DTSTART %v, SEQUENCE %s; want %q, %q, %v, 0",
				i, ev.UID, ev.Summary, ev.Start, ev.Sequence, w.uid, w.summary, *w.start)
		}
		if d := ev.End.Sub(ev.Start); d != calendarMatchLength {
			t.Errorf("event %d lasts %v, want %v", i, d, calendarMatchLength)
		}
		if !ev.Modified.Equal(calendarNow) || !ev.Stamp.Equal(calendarNow) {
			t.Errorf("event %d: LAST-MODIFIED %v, DTSTAMP %v; want both %v, its first sight", i, ev.Modified, ev.Stamp, calendarNow)
		}
		if ev.URL != testSiteURLInternal+"/pit" {
			t.Errorf("event %d: URL %q, want the site's /pit", i, ev.URL)
		}
		for _, part := range w.description {
			if !strings.Contains(ev.Description, part) {
				t.Errorf("event %d: DESCRIPTION %q lacks %q", i, ev.Description, part)
			}
		}
	}
	if again := calendar(calendarStatus(), &seen, calendarNow.Add(time.Hour), testSiteURLInternal); !bytes.Equal(again, body) {
		t.Errorf("the same data an hour later made another body (its ETag would change):\n%s", again)
	}
}

// testSiteURLInternal is the site's address in the calendar's tests.
const testSiteURLInternal = "https://robohornets.example"

func TestCalendarMovedTimeIsARevision(t *testing.T) {
	var seen calendarSeen
	st := calendarStatus()
	byUID := func(body []byte) map[string]calEvent {
		m := make(map[string]calEvent)
		for _, ev := range calendarEvents(t, parseCalendar(t, body)) {
			m[ev.UID] = ev
		}
		return m
	}
	const moved, other = "frc1209-2026okok_qm39@robohornets", "frc1209-2026okok_qm12@robohornets"
	byUID(calendar(st, &seen, calendarNow, ""))

	// Seconds of drift within the minute are no revision.
	drift := *st.Schedule[1].Times.Start
	drift = drift.Add(25 * time.Second)
	st.Schedule[1].Times.Start = &drift
	if ev := byUID(calendar(st, &seen, calendarNow.Add(time.Minute), ""))[moved]; ev.Sequence != "0" || !ev.Modified.Equal(calendarNow) {
		t.Errorf("after 25 s of drift: SEQUENCE %s, LAST-MODIFIED %v; want 0, %v", ev.Sequence, ev.Modified, calendarNow)
	}

	// The field runs 9 minutes later: SEQUENCE 1, modified now.
	second := calendarNow.Add(10 * time.Minute)
	st.Schedule[1].Times.Start = at(15, 21)
	events := byUID(calendar(st, &seen, second, ""))
	if ev := events[moved]; ev.Sequence != "1" || !ev.Modified.Equal(second) || !ev.Stamp.Equal(second) || !ev.Start.Equal(*at(15, 21)) {
		t.Errorf("moved: SEQUENCE %s, LAST-MODIFIED %v, DTSTAMP %v, DTSTART %v; want 1, %v, %v, 15:21", ev.Sequence, ev.Modified, ev.Stamp, ev.Start, second, second)
	}
	if ev := events[other]; ev.Sequence != "0" || !ev.Modified.Equal(calendarNow) {
		t.Errorf("unmoved match: SEQUENCE %s, LAST-MODIFIED %v; want 0, %v", ev.Sequence, ev.Modified, calendarNow)
	}

	// Back to the earlier time is another revision, never the first again;
	// a clock that stepped back still gives a later LAST-MODIFIED.
	st.Schedule[1].Times.Start = at(15, 12)
	ev := byUID(calendar(st, &seen, calendarNow, ""))[moved]
	if ev.Sequence != "2" || !ev.Modified.After(second) {
		t.Errorf("moved back: SEQUENCE %s, LAST-MODIFIED %v; want 2, after %v", ev.Sequence, ev.Modified, second)
	}

	// Another event starts the count again (and forgets the old one).
	st.EventKey = "2026txdal"
	st.Schedule[1].Key = "2026txdal_qm39"
	if ev := byUID(calendar(st, &seen, second, ""))["frc1209-2026txdal_qm39@robohornets"]; ev.Sequence != "0" || len(seen.matches) != 4 {
		t.Errorf("another event: SEQUENCE %s with %d matches remembered; want 0 and 4", ev.Sequence, len(seen.matches))
	}
}

func TestCalendarFoldsAndEscapes(t *testing.T) {
	st := calendarStatus()
	st.EventName = `FIRST in Texas, District Championship; "Apollo" \ Mercury` + "\nDivision"
	long := "Qualification 39 — a label from upstream that is long enough to fold twice, with ünïcödé ✓✓✓✓✓✓✓ all along its way"
	st.Schedule = st.Schedule[1:2]
	st.Schedule[0].Label = long
	body := calendar(st, &calendarSeen{}, calendarNow, testSiteURLInternal)
	cal := parseCalendar(t, body)
	ev := calendarEvents(t, cal)[0]
	if want := long + " — red with 6401, 333"; ev.Summary != want {
		t.Errorf("SUMMARY = %q, want %q", ev.Summary, want)
	}
	if !strings.Contains(ev.Description, "Event: "+st.EventName+" (2026okok)") {
		t.Errorf("DESCRIPTION = %q, want the event's name back as it was", ev.Description)
	}
	if name, _ := cal.Props.Text("X-WR-CALNAME"); name != "Team 1209 matches at "+st.EventName {
		t.Errorf("X-WR-CALNAME = %q", name)
	}
	raw := string(body)
	if want := `Texas\, District Championship\; "Apollo" \\ Mercury\nDivision`; !strings.Contains(strings.ReplaceAll(raw, "\r\n ", ""), want) {
		t.Errorf("the raw calendar lacks the escaped name %q:\n%s", want, raw)
	}
	// The summary alone is past 75 octets: folded, and each piece full.
	var summary []string
	lines := strings.Split(raw, "\r\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "SUMMARY:") {
			summary = append(summary, line)
			for _, next := range lines[i+1:] {
				if !strings.HasPrefix(next, " ") {
					break
				}
				summary = append(summary, next)
			}
		}
	}
	if len(summary) < 3 {
		t.Fatalf("SUMMARY in %d lines, want at least 3: %q", len(summary), summary)
	}
	for _, line := range summary[:len(summary)-1] {
		if len(line) < maxLineOctets-3 { // a UTF-8 sequence of up to 4 octets moves on whole
			t.Errorf("a folded line of %d octets, want it filled to 75: %q", len(line), line)
		}
	}
}

func TestFoldLine(t *testing.T) {
	// Runes of 1 to 4 octets after every offset, so that each width meets
	// the 75th octet somewhere.
	for offset := range 8 {
		value := strings.Repeat("x", offset) + strings.Repeat("aé✓𝄞", 60)
		var c icsWriter
		c.line("SUMMARY:" + value)
		raw := c.b.String()
		lines := strings.Split(strings.TrimSuffix(raw, "\r\n"), "\r\n")
		for i, line := range lines {
			if len(line) > maxLineOctets || !utf8.ValidString(line) || i > 0 && !strings.HasPrefix(line, " ") {
				t.Fatalf("offset %d, line %d: %d octets %q", offset, i, len(line), line)
			}
			if i < len(lines)-1 && len(line) < maxLineOctets-3 {
				t.Errorf("offset %d, line %d: only %d octets before the fold", offset, i, len(line))
			}
		}
		if got := strings.ReplaceAll(raw, "\r\n ", ""); got != "SUMMARY:"+value+"\r\n" {
			t.Errorf("offset %d: unfolded %q, want the line back", offset, got)
		}
	}
}

func TestCalendarFeedFollowsTheVersion(t *testing.T) {
	var f calendarFeed
	builds := 0
	get := func(version uint64) string {
		return string(f.get(version, func(*calendarSeen) []byte {
			builds++
			return []byte("body " + strconv.Itoa(builds))
		}).plain.body)
	}
	for _, step := range []struct {
		version uint64
		want    string
	}{
		{1, "body 1"},
		{1, "body 1"}, // unchanged data: the same body, the same ETag
		{3, "body 2"}, // newer data
		{2, "body 2"}, // a request that read older data gets the newest body
		{3, "body 2"},
	} {
		if got := get(step.version); got != step.want {
			t.Errorf("version %d: %q, want %q", step.version, got, step.want)
		}
	}
}

func TestEscapeText(t *testing.T) {
	for in, want := range map[string]string{
		`a,b;c\d`:           `a\,b\;c\\d`,
		"one\r\ntwo\nthree": `one\ntwo\nthree`,
		"bell\x07tab\t":     "bell tab\t",
		"bad\xffutf8":       "bad\uFFFDutf8",
	} {
		if got := escapeText(in); got != want {
			t.Errorf("escapeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCalendarWithoutEvent(t *testing.T) {
	st := calendarStatus()
	st.Configured, st.Message = false, "Event data is off (--event off)"
	cal := parseCalendar(t, calendar(st, &calendarSeen{}, calendarNow, testSiteURLInternal))
	if n := len(cal.Events()); n != 0 {
		t.Fatalf("%d events without an event, want none", n)
	}
	if name, _ := cal.Props.Text("X-WR-CALNAME"); name != "Team 1209 matches" {
		t.Errorf("X-WR-CALNAME = %q", name)
	}
}

// calendarServer is a website whose event data comes from the replay
// server playing the demo (nil event: off), with a news hub not started.
func calendarServer(t *testing.T, event *frcevent.Hub) *Server {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := news.OpenLocal(filepath.Join(t.TempDir(), "news"), logger)
	if err != nil {
		t.Fatal(err)
	}
	return New(Options{
		Assets:  fstest.MapFS{"index.html": {Data: []byte("<!doctype html><html><head><!--app-head--></head><body></body></html>")}},
		Hub:     news.NewHub(news.HubOptions{Store: store, Logger: logger}),
		Event:   event,
		Logger:  logger,
		SiteURL: testSiteURLInternal,
	})
}

func serveCalendar(s *Server, method, target string, header http.Header) (*http.Response, []byte) {
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.Bytes()
}

// TestCalendarRoute serves the calendar of the demo through the whole
// handler. Its events are whatever Status.Schedule holds (the hub may not
// fill it yet): each match with a time is one event, checked against it.
func TestCalendarRoute(t *testing.T) {
	hub := DemoEventHub(t)
	s := calendarServer(t, hub)
	res, body := serveCalendar(s, http.MethodGet, "/pit/1209.ics", nil)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != calendarType {
		t.Fatalf("GET /pit/1209.ics = %d %q, want 200 %q: %s", res.StatusCode, res.Header.Get("Content-Type"), calendarType, body)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=300" {
		t.Errorf("Cache-Control = %q, want 5 minutes", cc)
	}
	st := hub.Current()
	var want []board.Match
	for _, m := range st.Schedule {
		if _, ok := bestStart(m); ok {
			want = append(want, m)
		}
	}
	got := calendarEvents(t, parseCalendar(t, body))
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: one per match of ours with a time (schedule of %d)", len(got), len(want), len(st.Schedule))
	}
	for i, m := range want {
		start, _ := bestStart(m)
		if got[i].UID != matchUID(st, m) || got[i].Summary != matchTitle(m) || !got[i].Start.Equal(start) || got[i].Sequence != "0" {
			t.Errorf("event %d = %+v, want %s", i, got[i], m.Label)
		}
	}
	t.Logf("the demo's calendar has %d events", len(got))

	etag := res.Header.Get("Etag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	if res, _ := serveCalendar(s, http.MethodGet, "/pit/1209.ics", http.Header{"If-None-Match": {etag}}); res.StatusCode != http.StatusNotModified {
		t.Errorf("GET with its ETag = %d, want 304", res.StatusCode)
	}
	if res, b := serveCalendar(s, http.MethodHead, "/pit/1209.ics", nil); res.StatusCode != http.StatusOK || len(b) != 0 {
		t.Errorf("HEAD = %d with %d bytes, want 200 and no body", res.StatusCode, len(b))
	}

	for _, path := range []string{"/pit/254.ics", "/pit/01209.ics", "/pit/.ics"} {
		res, body := serveCalendar(s, http.MethodGet, path, nil)
		var answer map[string]string
		if res.StatusCode != http.StatusNotFound || res.Header.Get("Content-Type") != jsonType || json.Unmarshal(body, &answer) != nil || answer["error"] == "" {
			t.Errorf("GET %s = %d %q %s, want a JSON 404", path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	if res, body := serveCalendar(s, http.MethodGet, "/pit/anything", nil); res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /pit/anything = %d %q, want the page: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
}

func TestCalendarRouteWithoutEvent(t *testing.T) {
	res, body := serveCalendar(calendarServer(t, nil), http.MethodGet, "/pit/1209.ics", nil)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != calendarType {
		t.Fatalf("GET /pit/1209.ics without an event = %d %q: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	if n := len(parseCalendar(t, body).Events()); n != 0 {
		t.Errorf("%d events without an event, want an empty calendar", n)
	}
}
