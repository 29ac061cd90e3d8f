package server

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/spec"
)

// The calendar of our matches: GET /pit/{team}.ics is an iCalendar feed
// (RFC 5545) with one event per match of ours in the event hub's schedule,
// for the crew and the families to subscribe to in their calendar apps.
//
// Keeping subscribers current: each match has a stable UID, and its
// SEQUENCE and LAST-MODIFIED go up whenever its start moves. The server
// remembers, per UID, the start it last served, its sequence and when it
// first served that start; a match first seen has SEQUENCE 0. That memory is
// the process's: after a restart (and on each of several servers behind a
// load balancer) every match is seen anew, with SEQUENCE 0 and
// LAST-MODIFIED the time of the first request. Subscribed calendars
// (webcal) replace their copy with each download and show the times it
// carries, so that costs nothing there; a sequence derived from the clock
// could survive restarts but only as well as the clock never steps back.

// calendarType is the Content-Type of the calendar.
const calendarType = "text/calendar; charset=utf-8"

// calendarMatchLength is how long a match's event lasts: a match is 2 min
// 30 s of play, and the field turns a match around in about 7 or 8 minutes
// (reset, teams on and off). Eight minutes blocks the match's slot without
// overlapping the next one's or pretending the crew is busy for longer.
const calendarMatchLength = 8 * time.Minute

// calendarRefresh is how often calendar apps and caches should fetch the
// calendar again: match times move by minutes as the field runs late or
// early. Unchanged, a fetch costs a 304.
const calendarRefresh = 5 * time.Minute

// cacheCalendar is the calendar's Cache-Control, calendarRefresh long.
var cacheCalendar = []string{"public, max-age=" + strconv.Itoa(int(calendarRefresh/time.Second))}

// uidDomain ends every UID, making it unique beyond this feed (RFC 5545
// §3.8.4.7); a constant, so a new site address never changes them.
const uidDomain = "@robohornets"

// calendarFeed is the calendar body of the newest event data seen, and
// what every match's event said last.
type calendarFeed struct {
	mu      sync.Mutex
	version uint64 // of the event data body was made from
	body    *asset // nil before the first request
	seen    calendarSeen
}

// calendarSeen remembers, per UID, what the calendar said of each match of
// one event, to number its revisions.
type calendarSeen struct {
	event   string
	matches map[string]seenMatch
}

// seenMatch is the start last served of one match, its SEQUENCE and when
// that start was first served (its LAST-MODIFIED and DTSTAMP).
type seenMatch struct {
	start    time.Time
	sequence int
	modified time.Time
}

// revision returns the SEQUENCE and LAST-MODIFIED of the match uid starting
// at start, seen at now: unchanged while the start is, the next sequence
// and now (at least a second after the last) when it moved.
func (c *calendarSeen) revision(uid string, start, now time.Time) (sequence int, modified time.Time) {
	now = now.UTC().Truncate(time.Second)
	m, ok := c.matches[uid]
	switch {
	case !ok:
		m = seenMatch{start: start, modified: now}
	case !m.start.Equal(start):
		modified := now
		if next := m.modified.Add(time.Second); modified.Before(next) {
			modified = next // the clock stepped back, or two moves in a second
		}
		m = seenMatch{start: start, sequence: m.sequence + 1, modified: modified}
	}
	c.matches[uid] = m
	return m.sequence, m.modified
}

// calendarHandler returns the handler of GET /pit/{file}: the calendar for
// {team}.ics, the page for any other name. The feed it keeps is this
// server's.
func (s *Server) calendarHandler() http.HandlerFunc {
	feed := &calendarFeed{}
	return func(w http.ResponseWriter, r *http.Request) {
		team, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
		if !ok {
			s.servePage(w, r)
			return
		}
		// The version first: a Status read after it is at least as new, so
		// the body is never older than the version it is kept under.
		_, version := s.opts.Event.JSON()
		st := s.opts.Event.Current()
		if team != strconv.Itoa(st.Team) {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "no calendar for team " + team + ": this site has team " + strconv.Itoa(st.Team) + "'s"})
			return
		}
		feed.get(version, func(seen *calendarSeen) []byte {
			return calendar(st, seen, s.opts.Clock.Now(), s.siteURL())
		}).serve(w, r, cacheCalendar)
	}
}

// get returns the body made from the event data of version, making it with
// build when that is newer than the body held. A request that read older
// data than the body held gets that body: building from older data would
// count its times as moves.
func (f *calendarFeed) get(version uint64, build func(*calendarSeen) []byte) *asset {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.body == nil || version > f.version {
		f.body, f.version = newBody(build(&f.seen), calendarType), version
	}
	return f.body
}

// calendar is the iCalendar body of st's schedule: one VEVENT per match of
// ours with a known time, none when no event is configured or its schedule
// is not out (a calendar subscribed early fills in later). seen numbers the
// revisions and is updated; now is when this body is made; siteURL is the
// site's absolute base ("" leaves the events without a URL). The body only
// changes with the data, so its ETag does too.
func calendar(st board.Status, seen *calendarSeen, now time.Time, siteURL string) []byte {
	if seen.matches == nil || seen.event != st.EventKey {
		*seen = calendarSeen{event: st.EventKey, matches: make(map[string]seenMatch)}
	}
	team := strconv.Itoa(st.Team)
	name := "Team " + team + " matches"
	if st.Configured && st.EventName != "" {
		name += " at " + st.EventName
	}
	var c icsWriter
	c.line("BEGIN:VCALENDAR")
	c.line("VERSION:2.0")
	c.text("PRODID", "-//"+spec.SiteName+"//Pit display//EN")
	c.line("CALSCALE:GREGORIAN")
	c.text("NAME", name)
	c.text("X-WR-CALNAME", name)
	if st.Configured && st.Timezone != "" {
		c.text("X-WR-TIMEZONE", st.Timezone)
	}
	refresh := "PT" + strconv.Itoa(int(calendarRefresh/time.Minute)) + "M"
	c.line("REFRESH-INTERVAL;VALUE=DURATION:" + refresh)
	c.line("X-PUBLISHED-TTL:" + refresh)
	if st.Configured {
		uids := make(map[string]bool, len(st.Schedule))
		for _, m := range st.Schedule {
			start, ok := bestStart(m)
			if !ok {
				continue // no DTSTART, no event: it comes once a time is known
			}
			uid := matchUID(st, m)
			for n := 2; uids[uid]; n++ { // two matches of one label and no key
				uid = strings.TrimSuffix(matchUID(st, m), uidDomain) + "-" + strconv.Itoa(n) + uidDomain
			}
			uids[uid] = true
			sequence, modified := seen.revision(uid, start, now)
			c.line("BEGIN:VEVENT")
			c.text("UID", uid)
			c.line("DTSTAMP:" + icsTime(modified))
			c.line("LAST-MODIFIED:" + icsTime(modified))
			c.line("SEQUENCE:" + strconv.Itoa(sequence))
			c.line("DTSTART:" + icsTime(start))
			c.line("DTEND:" + icsTime(start.Add(calendarMatchLength)))
			c.text("SUMMARY", matchTitle(m))
			c.text("DESCRIPTION", matchDescription(st, m))
			if st.EventName != "" {
				c.text("LOCATION", st.EventName)
			}
			if siteURL != "" {
				c.line("URL:" + siteURL + "/pit")
			}
			c.line("END:VEVENT")
		}
	}
	c.line("END:VCALENDAR")
	return c.b.Bytes()
}

// bestStart is the best known start of m, to the minute: the actual one,
// else the estimate, else the schedule's. A calendar shows minutes, and an
// estimate's drift of seconds is no revision; cut, not rounded, so the
// crew is never late. False when m has no time yet.
func bestStart(m board.Match) (time.Time, bool) {
	for _, t := range []*time.Time{m.Times.ActualStart, m.Times.Start, m.Times.Scheduled} {
		if t != nil && !t.IsZero() {
			return t.UTC().Truncate(time.Minute), true
		}
	}
	return time.Time{}, false
}

// matchUID names m for good: TBA's match key (which holds the event's), or
// the event key and m's label while only Nexus knows the match. The team is
// in it too, so that another team's calendar of the same event never
// collides with ours.
func matchUID(st board.Status, m board.Match) string {
	id := m.Key
	if id == "" {
		id = st.EventKey + "-" + board.Slug(m.Label)
	}
	return "frc" + strconv.Itoa(st.Team) + "-" + id + uidDomain
}

// matchTitle is like "Qualification 39 — red with 6401, 333": the match,
// our colour and our partners as far as they are known.
func matchTitle(m board.Match) string {
	if m.Alliance == "" {
		return m.Label
	}
	title := m.Label + " — " + string(m.Alliance)
	if partners := board.Decided(m.Partners); len(partners) > 0 {
		title += " with " + strings.Join(partners, ", ")
	}
	return title
}

// matchDescription says who we play, how sure the time is, the match key
// and the event, one per line.
func matchDescription(st board.Status, m board.Match) string {
	opponents := m.Red
	colour := "red"
	if m.Alliance == "red" {
		opponents, colour = m.Blue, "blue"
	}
	var lines []string
	if o := board.Decided(opponents); len(o) > 0 && m.Alliance != "" {
		lines = append(lines, "Against "+strings.Join(o, ", ")+" ("+colour+")")
	} else {
		lines = append(lines, "Opponents not known yet")
	}
	if m.When != nil {
		switch m.When.Kind {
		case board.TimeActual:
			lines = append(lines, "Started at the time shown")
		case board.TimeEstimated:
			lines = append(lines, "Estimated time: it moves as the field runs late or early")
		case board.TimeScheduled:
			lines = append(lines, "Scheduled time")
		}
	}
	if m.Key != "" {
		lines = append(lines, "Match key: "+m.Key)
	} else {
		lines = append(lines, "Match key: not known yet")
	}
	if st.EventName != "" {
		lines = append(lines, "Event: "+st.EventName+" ("+st.EventKey+")")
	}
	return strings.Join(lines, "\n")
}

// icsTime formats t as a UTC DATE-TIME (RFC 5545 §3.3.5, form 2).
func icsTime(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// icsWriter writes content lines, folded at 75 octets (RFC 5545 §3.1).
type icsWriter struct{ b bytes.Buffer }

// maxLineOctets is the longest a content line may be, without its CRLF.
const maxLineOctets = 75

// line writes one content line, folding it with CRLF and a space before
// any character that would take it past maxLineOctets; a UTF-8 sequence is
// never split.
func (c *icsWriter) line(s string) {
	n := 0
	for len(s) > 0 {
		_, size := utf8.DecodeRuneInString(s)
		if n+size > maxLineOctets {
			c.b.WriteString("\r\n ")
			n = 1
		}
		c.b.WriteString(s[:size])
		n += size
		s = s[size:]
	}
	c.b.WriteString("\r\n")
}

// text writes a property of type TEXT with value escaped.
func (c *icsWriter) text(name, value string) { c.line(name + ":" + escapeText(value)) }

// escapeText escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon
// and comma get a backslash, a line break becomes \n. Other control
// characters, which TEXT may not hold, and invalid UTF-8 become spaces and
// U+FFFD: upstream names reach here.
func escapeText(s string) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\r\n", "\n"), "\uFFFD")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == ';' || r == ',':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n' || r == '\r':
			b.WriteString(`\n`)
		case r < 0x20 && r != '\t' || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
