package board

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

const (
	// nexusStaleAfter is how long the schedule of a failing Nexus still
	// wins over TBA's: a blip keeps the richer Nexus view, an outage lets
	// TBA's scores and next match take over.
	nexusStaleAfter = 2 * time.Minute
	// fieldIdleAfter is how long after its start a match stops counting as
	// on the field when nothing has followed it (end of day, long stall).
	fieldIdleAfter = 15 * time.Minute
)

// Merge builds the Status the page shows from the last good upstream data.
// It is a pure function: the same data and time always give the same Status.
//
// Nexus comes first: while it has a schedule and is answering (or failed
// less than nexusStaleAfter ago) its matches, statuses and times are used,
// and TBA adds keys, scores, results and missing times or teams. Otherwise
// TBA's match list stands in. Rank, event name, timezone, webcasts and the
// feed-down flag only come from TBA; queue state, announcements and parts
// requests only from Nexus; the pit from Nexus, else TBA.
func Merge(up Upstream, now time.Time) Status {
	s := Status{
		Configured: up.Configured, Message: up.Message, Team: up.Team,
		EventKey: up.EventKey, NexusEventKey: up.NexusEventKey,
		Upcoming: []Match{}, Recent: []Match{}, Announcements: []Announcement{},
		PartsRequests: []PartsRequest{}, Webcasts: []Webcast{}, Season: season(up.Season),
		Nexus: Source{State: up.Nexus.Health.State, Message: up.Nexus.Health.Message},
		TBA:   Source{State: up.TBA.Health.State, Message: up.TBA.Health.Message, AsOf: up.TBA.LastGood},
	}
	if ev := up.Nexus.Event; ev != nil {
		s.Nexus.AsOf = DataAsOf(ev)
	}
	s.AsOf = s.Nexus.AsOf
	if s.TBA.AsOf.After(s.AsOf) {
		s.AsOf = s.TBA.AsOf
	}
	s.Stale = stale(s.AsOf, now)
	if !up.Configured {
		return s
	}
	team := strconv.Itoa(up.Team)

	if ev := up.TBA.Event; ev != nil {
		s.EventName, s.Timezone = ev.Name, ev.Timezone
		s.EventPlace = place(ev.City, ev.StateProv, ev.Country)
		s.EventStart, s.EventEnd = ev.StartDate, ev.EndDate
		s.Webcasts = webcasts(ev.Webcasts)
	}
	s.FeedDown = slices.Contains(up.TBA.DownEvents, up.EventKey)
	if s.FeedDown && s.TBA.State == StateOK {
		s.TBA.State, s.TBA.Message = StateDown, "TBA's data feed for this event is down"
	}
	s.Rank = rank(up.TBA, team)
	s.Pit = up.Nexus.Pits[team]
	if s.Pit == "" && up.TBA.TeamStatus != nil {
		s.Pit = up.TBA.TeamStatus.PitLocation
	}

	var matches []Match
	var done []bool
	nexus := up.Nexus.Event
	// A Nexus that is off (no key, no push yet) is never live, however
	// recent the data it left in the cache: nothing would ever merge again
	// to let it go stale.
	useNexus := nexus != nil && len(nexus.Matches) > 0 && (up.Nexus.Health.State == StateOK ||
		up.Nexus.Health.State != StateOff && now.Sub(up.Nexus.LastGood) < nexusStaleAfter)
	if useNexus {
		matches, done = nexusMatches(nexus.Matches, up.TBA.Matches, up.EventKey, team)
		s.NowQueuing = frcapi.Deref(nexus.NowQueuing)
		s.OnField = onField(matches, done, now)
	} else {
		matches, done = tbaMatches(up.TBA.Matches, team)
	}
	for i := range matches {
		matches[i].When = whenOf(matches[i])
	}
	s.Schedule = []Match{}
	for _, m := range matches {
		if m.Alliance != "" {
			s.Schedule = append(s.Schedule, m)
		}
	}
	s.FieldLateMinutes = fieldLate(matches, done)
	s.RankCriteria, s.RankTrend = criteria(up.TBA, team), trend(up.TBA.RankTrend)
	s.Playoffs = playoffs(up.TBA, team)
	s.Phase = phaseOf(matches, done, s.Playoffs)
	if nexus != nil {
		s.Announcements = newestFirst(announcements(nexus.Announcements), func(a Announcement) time.Time { return a.Posted })
		s.PartsRequests = newestFirst(partsRequests(nexus.PartsRequests), func(p PartsRequest) time.Time { return p.Posted })
	}

	next := -1
	if !useNexus && up.TBA.TeamStatus != nil {
		// TBA's own idea of our next match wins when it names one it lists.
		next = slices.IndexFunc(matches, func(m Match) bool { return m.Key != "" && m.Key == up.TBA.TeamStatus.NextMatchKey })
		if next >= 0 && done[next] {
			next = -1
		}
	}
	if next < 0 {
		next = firstOurs(matches, done, 0)
	}
	if j := ourPlayoffMatch(matches, done, s.Playoffs); j >= 0 && (next < 0 || matches[next].Label != matches[j].Label) {
		// The bracket knows our next match before its teams are listed.
		next = j
		matches[j].Alliance, matches[j].Partners = s.Playoffs.Next.Alliance, s.Playoffs.Ours.Partners
	}
	if next >= 0 {
		if prev := lastOurs(matches, done, next); prev >= 0 {
			matches[next].Turnaround = turnaround(matches, prev, next)
		}
		m := matches[next]
		s.NextMatch = &m
		for i := next + 1; i < len(matches) && len(s.Upcoming) < 2; i++ {
			if matches[i].Alliance != "" && !done[i] {
				s.Upcoming = append(s.Upcoming, matches[i])
			}
		}
	}
	s.TeamCards, s.Prediction = teamCards(s.NextMatch, s.Playoffs, up.TBA)
	s.Forecast = rankForecast(up.TBA.Forecast, s.Phase, team)
	for i := range s.TeamCards {
		s.TeamCards[i].Forecast = rankForecast(up.TBA.Forecast, s.Phase, s.TeamCards[i].Team)
	}
	for i := len(matches) - 1; i >= 0 && len(s.Recent) < 2; i-- {
		if matches[i].Alliance != "" && done[i] {
			s.Recent = append(s.Recent, matches[i])
		}
	}
	return s
}

// firstOurs returns the index of our first match not done from i on, or -1.
func firstOurs(matches []Match, done []bool, i int) int {
	for ; i < len(matches); i++ {
		if matches[i].Alliance != "" && !done[i] {
			return i
		}
	}
	return -1
}

// nexusMatches turns Nexus's schedule into Matches, adding what TBA knows of
// each. done reports the matches on the field or played.
func nexusMatches(in []frcapi.NexusMatch, tba []frcapi.TBAMatch, eventKey, team string) ([]Match, []bool) {
	byKey := make(map[string]frcapi.TBAMatch, len(tba))
	for _, t := range tba {
		if t.Key != "" {
			byKey[t.Key] = t
		}
	}
	// A replayed qualification has the key of the match it replays, and TBA
	// shows the replay's score under it: only the last match with a key
	// gets it. A playoff replay has a key of its own.
	owner := make(map[string]int)
	keys := make([]string, len(in))
	replays := make(map[string]int)
	for i, m := range in {
		if replayOf := frcapi.Deref(m.ReplayOf); replayOf == "" {
			keys[i] = keyForLabel(eventKey, m.Label, 0)
		} else {
			replays[replayOf]++
			keys[i] = keyForLabel(eventKey, replayOf, replays[replayOf])
		}
		if keys[i] != "" {
			owner[keys[i]] = i
		}
	}
	out := make([]Match, len(in))
	done := make([]bool, len(in))
	for i, nm := range in {
		winner := ColourNone
		red, blue := teamList(nm.RedTeams), teamList(nm.BlueTeams)
		m := Match{
			Label: nm.Label, Red: orEmpty(red), Blue: orEmpty(blue),
			BreakAfter: frcapi.Deref(nm.BreakAfter), ReplayOf: frcapi.Deref(nm.ReplayOf),
			Times: matchTimes(nm.Times),
		}
		m.setStatus(nm.Status)
		done[i] = m.Step == StepOnField || fromMillis(nm.Times.ActualOnFieldTime) != nil || m.Times.ActualStart != nil
		if t, ok := byKey[keys[i]]; ok && keys[i] != "" && owner[keys[i]] == i {
			m.Key = t.Key
			if red == nil {
				m.Red = orEmpty(tbaTeams(t.Alliances.Red))
			}
			if blue == nil {
				m.Blue = orEmpty(tbaTeams(t.Alliances.Blue))
			}
			m.Times.Scheduled = cmp.Or(m.Times.Scheduled, fromSeconds(t.Time))
			m.Times.Start = cmp.Or(m.Times.Start, fromSeconds(t.PredictedTime))
			m.Times.ActualStart = cmp.Or(m.Times.ActualStart, fromSeconds(t.ActualTime))
			winner = setScore(&m, t)
		}
		setAlliance(&m, team, winner)
		out[i] = m
	}
	return out, done
}

// tbaMatches turns TBA's match list into Matches in playing order.
func tbaMatches(in []frcapi.TBAMatch, team string) ([]Match, []bool) {
	sorted := slices.Clone(in)
	slices.SortStableFunc(sorted, func(a, b frcapi.TBAMatch) int {
		return cmp.Or(cmp.Compare(levelOrder(a.CompLevel), levelOrder(b.CompLevel)),
			cmp.Compare(a.SetNumber, b.SetNumber), cmp.Compare(a.MatchNumber, b.MatchNumber))
	})
	out := make([]Match, len(sorted))
	done := make([]bool, len(sorted))
	for i, t := range sorted {
		m := Match{
			Key: t.Key, Red: orEmpty(tbaTeams(t.Alliances.Red)), Blue: orEmpty(tbaTeams(t.Alliances.Blue)),
			Times: MatchTimes{Scheduled: fromSeconds(t.Time), Start: fromSeconds(t.PredictedTime), ActualStart: fromSeconds(t.ActualTime)},
		}
		m.Label, m.ReplayOf = labelForTBA(t)
		setAlliance(&m, team, setScore(&m, t))
		done[i] = m.Times.ActualStart != nil || tbaScore(t.Alliances.Red) != nil
		out[i] = m
	}
	return out, done
}

// onField picks the match on the field now: the last one Nexus shows on
// field (its status also stays "On field" once played), or that has an
// actual on-field or start time even if its status lags. It is nil when
// that match is over and a break follows it, or when it started
// fieldIdleAfter ago and nothing came on since (the day is over).
func onField(matches []Match, done []bool, now time.Time) *Match {
	i := len(done) - 1
	for i >= 0 && !done[i] {
		i--
	}
	if i < 0 {
		return nil
	}
	m := matches[i]
	if m.BreakAfter != "" && m.RedScore != nil {
		return nil
	}
	if t := m.Times.ActualStart; t != nil && now.Sub(*t) > fieldIdleAfter {
		return nil
	}
	return &m
}

// setScore copies a played match's scores and returns the winning
// alliance, "" for a tie or an unplayed match.
func setScore(m *Match, t frcapi.TBAMatch) Colour {
	red, blue := tbaScore(t.Alliances.Red), tbaScore(t.Alliances.Blue)
	if red == nil || blue == nil {
		return ""
	}
	m.RedScore, m.BlueScore = red, blue
	switch {
	case t.WinningAlliance != "":
		return Colour(t.WinningAlliance)
	case *red > *blue: // TBA leaves the winner out of some edited matches
		return ColourRed
	case *blue > *red:
		return ColourBlue
	}
	return ColourNone
}

// tbaTeams are the team numbers of one alliance of a TBA match, without
// "frc"; nil when TBA lists no alliance.
func tbaTeams(a *frcapi.TBAMatchAlliance) []string {
	if a == nil {
		return nil
	}
	teams := make([]string, len(a.TeamKeys))
	for i, k := range a.TeamKeys {
		teams[i] = frcapi.TeamNumber(k)
	}
	return teams
}

// tbaScore is the score of one alliance of a TBA match, a copy: nil while
// unplayed (TBA says -1) or when TBA lists no alliance.
func tbaScore(a *frcapi.TBAMatchAlliance) *int {
	if a == nil || a.Score == nil || *a.Score < 0 {
		return nil
	}
	return new(*a.Score)
}

// setAlliance sets our colour, partners and, for a played match, our result.
func setAlliance(m *Match, team string, winner Colour) {
	var ours []string
	switch {
	case slices.Contains(m.Red, team):
		m.Alliance, ours = ColourRed, m.Red
	case slices.Contains(m.Blue, team):
		m.Alliance, ours = ColourBlue, m.Blue
	}
	m.Partners = []string{}
	for _, t := range ours {
		if t != team && t != "" {
			m.Partners = append(m.Partners, t)
		}
	}
	if m.RedScore != nil && m.Alliance != ColourNone {
		switch winner {
		case ColourNone:
			m.Result = ResultTie
		case m.Alliance:
			m.Result = ResultWin
		default:
			m.Result = ResultLoss
		}
	}
}

// keyForLabel maps a Nexus label to TBA's match key: "Qualification N" is
// qmN, "Playoff N" and "Match N" are set N of the double-elimination
// bracket (sfNm1), "Final N" is f1mN. Other labels (practice) have none.
// replay is 0 for the match itself, k for its k-th replay: TBA files the
// k-th replay of playoff set N as sfNm(k+1) (labelForTBA reads it so), and
// a replayed qualification under the key it had. A replayed final keeps
// its key too, for want of a known rule.
func keyForLabel(eventKey, label string, replay int) string {
	word, num, ok := strings.Cut(label, " ")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n <= 0 {
		return ""
	}
	switch word {
	case "Qualification":
		return eventKey + "_qm" + num
	case "Playoff", "Match":
		return eventKey + "_sf" + num + "m" + strconv.Itoa(replay+1)
	case "Final":
		return eventKey + "_f1m" + num
	}
	return ""
}

// labelForTBA names a TBA-only match the way Nexus would, and says which
// match it replays: a second match of a playoff set is a replay.
func labelForTBA(t frcapi.TBAMatch) (label, replayOf string) {
	switch t.CompLevel {
	case "qm":
		return "Qualification " + strconv.Itoa(t.MatchNumber), ""
	case "sf":
		label = "Playoff " + strconv.Itoa(t.SetNumber)
		if t.MatchNumber > 1 {
			return label + " Replay", label
		}
		return label, ""
	case "f":
		return "Final " + strconv.Itoa(t.MatchNumber), ""
	case "ef", "qf":
		// Brackets before 2023 had these levels and best-of-three sets.
		name := map[string]string{"ef": "Eighthfinal ", "qf": "Quarterfinal "}[t.CompLevel]
		return name + strconv.Itoa(t.SetNumber) + "-" + strconv.Itoa(t.MatchNumber), ""
	}
	return t.Key, ""
}

func levelOrder(level string) int {
	if i := slices.Index([]string{"qm", "ef", "qf", "sf", "f"}, level); i >= 0 {
		return i
	}
	return -1 // unknown levels first: practice, if TBA ever lists it
}

// rank is our rank from TBA's team status, else from the rankings.
func rank(tba TBAData, team string) *Rank {
	if st := tba.TeamStatus; st != nil && st.Rank != nil {
		r := *st.Rank
		return &r
	}
	for _, r := range tba.Rankings {
		if r.Team == team {
			return &Rank{Rank: r.Rank, Of: len(tba.Rankings), Record: r.Record}
		}
	}
	return nil
}

// webcasts builds watch URLs for the stream types it knows; other types
// could point anywhere and are left out.
func webcasts(in []frcapi.TBAWebcast) []Webcast {
	out := []Webcast{}
	for _, w := range in {
		if w.Channel == "" {
			continue
		}
		var u string
		switch w.Type {
		case "twitch":
			u = "https://www.twitch.tv/" + url.PathEscape(w.Channel)
		case "youtube":
			u = "https://www.youtube.com/watch?v=" + url.QueryEscape(w.Channel)
		default:
			continue
		}
		out = append(out, Webcast{Type: w.Type, URL: u})
	}
	return out
}

// newestFirst returns a sorted copy, never nil.
func newestFirst[T any](in []T, posted func(T) time.Time) []T {
	out := append([]T{}, in...)
	slices.SortStableFunc(out, func(a, b T) int { return posted(b).Compare(posted(a)) })
	return out
}

// orEmpty makes a nil team list encode as [] (the page reads an empty
// alliance as undecided).
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ourPlayoffMatch returns the index of our next bracket match in matches
// (by its label) when it is not played yet, or -1.
func ourPlayoffMatch(matches []Match, done []bool, p *Playoffs) int {
	if p == nil || p.Next == nil || p.Ours == nil {
		return -1
	}
	for i, m := range matches {
		if m.Label == p.Next.label() && !done[i] {
			return i
		}
	}
	return -1
}

// lastOurs returns the index of our last match done before i, or -1.
func lastOurs(matches []Match, done []bool, i int) int {
	for j := i - 1; j >= 0; j-- {
		if matches[j].Alliance != "" && done[j] {
			return j
		}
	}
	return -1
}

// place joins the known parts of where an event is: "Tulsa, OK, USA".
func place(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), ", ")
}
