// Package realevent loads a real past event, The Blue Alliance's answers
// saved after it, as a replay timeline: for cmd/replayd's -real mode and
// the tests that play a real event to the hub or the page.
package realevent

import (
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcstats/forecast"
)

// A real past event as a stand-in: Load turns The Blue Alliance's
// answers about an event, saved after it (event.json, matches.json,
// rankings.json, alliances.json, teams.json as in testdata/2024nytr),
// into a timeline that plays the event again as it happened, from
// offset 0 at the first qualification match's scheduled time. Serve it
// with replay.Options.Start set to now minus a moment's offset to see the event
// as it was then, and as it went on from there.
//
// What the files do not say is estimated, and each estimate is named
// here:
//   - alliance selection starts with the last qualification result and
//     ends realSelection later (at most 10 min before the first playoff
//     match); the alliances are null until it ends;
//   - rankings before the last qualification result are ranked by the
//     ranking score (the ranking points of the score breakdowns per match
//     played), then by the average score; from it, the final rankings;
//   - a playoff match is listed, on TBA and Nexus, once the previous
//     playoff matches of both its alliances have their results (the first
//     ones when selection ends);
//   - predicted times are not served (the files hold TBA's last
//     prediction, made after the event);
//   - Nexus is derived from the matches: "Qualification N", "Playoff N",
//     "Final N"; a match's start is estimated as scheduled plus the delay
//     of the latest match started, and queued realQueue, on deck
//     realOnDeck and on the field realOnField before its start.
//
// Anyone who plays the timeline sees results only once their
// post_result_time has passed, alliances from the end of selection, and
// so on: the files' later data stays hidden until its moment.

// The estimates of real-event mode.
const (
	realSelection = 20 * time.Minute
	realQueue     = 15 * time.Minute
	realOnDeck    = 7 * time.Minute
	realOnField   = 2 * time.Minute
	// realResult is how long after its start a match's result is out when
	// the file has no post_result_time.
	realResult = 3 * time.Minute
)

// Event is a past event ready to replay.
type Event struct {
	// Timeline plays the event; offset 0 is the first qualification
	// match's scheduled time.
	Timeline replay.Timeline
	// Zero is the real time of offset 0.
	Zero time.Time
	// Moments are offsets worth seeing, by name: "quals" (the middle of
	// qualifications), "selection" (during alliance selection),
	// "alliances" (selection over, no playoff match played), "playoffs"
	// (after the second round of the bracket), "eliminated" (just after
	// the team's alliance was eliminated; absent when it was not) and
	// "end" (after the last match).
	Moments map[string]replay.Offset
}

// At returns the offset a moment names: a name of Moments, a duration
// from offset 0 ("26h30m"), or a time of the real event in RFC 3339.
func (ev Event) At(moment string) (replay.Offset, error) {
	if o, ok := ev.Moments[moment]; ok {
		return o, nil
	}
	if d, err := time.ParseDuration(moment); err == nil {
		return replay.Offset(d), nil
	}
	if t, err := time.Parse(time.RFC3339, moment); err == nil {
		return replay.Offset(t.Sub(ev.Zero)), nil
	}
	names := make([]string, 0, len(ev.Moments))
	for name := range ev.Moments {
		names = append(names, name)
	}
	slices.Sort(names)
	return 0, fmt.Errorf("realevent: moment %q: want one of %s, a duration or an RFC 3339 time", moment, strings.Join(names, ", "))
}

// Load reads a saved event from fsys (TBA's answers, named as in
// testdata/2024nytr) and returns it as a timeline for team, the team the
// /team/ endpoints answer for.
func Load(fsys fs.FS, team int) (Event, error) {
	var (
		event     frcapi.TBAEventInfo
		matches   []frcapi.TBAMatch
		rankings  frcapi.TBAEventRanking
		alliances []frcapi.TBAAlliance
		teams     []frcapi.TBATeam
	)
	for name, v := range map[string]any{"event.json": &event, "matches.json": &matches, "rankings.json": &rankings,
		"alliances.json": &alliances, "teams.json": &teams} {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return Event{}, fmt.Errorf("realevent: %w", err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			return Event{}, fmt.Errorf("realevent: %s: %w", name, err)
		}
	}
	if event.Key == "" || team <= 0 {
		return Event{}, fmt.Errorf("realevent: needs an event key and a team")
	}
	b := &realBuilder{team: frcapi.TeamKey(team)}
	if err := b.matches(matches); err != nil {
		return Event{}, err
	}
	b.alliances(alliances)
	b.schedule()

	ev := Event{Zero: b.zero, Moments: map[string]replay.Offset{}}
	tl := replay.Timeline{Team: team, Event: event.Key, Length: replay.Offset(b.end + time.Hour)}
	loc, err := time.LoadLocation(event.Timezone)
	if err != nil {
		loc = time.UTC
	}
	day := func(date string) int {
		d, err := time.ParseInLocation(time.DateOnly, date, loc)
		if err != nil {
			return 0
		}
		y, m, dd := b.zero.In(loc).Date()
		return int(d.Sub(time.Date(y, m, dd, 0, 0, 0, 0, loc)).Hours() / 24)
	}
	first := replay.State{
		Event: &replay.Event{Key: event.Key, Name: event.Name, Timezone: event.Timezone, StartDay: day(event.StartDate),
			EndDay: day(event.EndDate), Webcasts: event.Webcasts, PlayoffType: frcapi.Deref(event.PlayoffType),
			City: frcapi.Deref(event.City), StateProv: frcapi.Deref(event.StateProv), Country: frcapi.Deref(event.Country)},
		Matches: b.out,
	}
	for _, t := range teams {
		first.Teams = append(first.Teams, replay.Team{Number: t.TeamNumber, Nickname: t.Nickname, Name: t.Name,
			City: frcapi.Deref(t.City), StateProv: frcapi.Deref(t.StateProv), Country: frcapi.Deref(t.Country)})
	}
	first.Nexus, first.TeamStatus = b.nexus(-48*time.Hour), b.teamStatus(-48*time.Hour, nil, len(teams))
	tl.Steps = append(tl.Steps, replay.Step{At: replay.Offset(-48 * time.Hour), State: first})

	// A step wherever something changes: a start, a result, a listing,
	// the alliances.
	var points []time.Duration
	for _, mt := range b.out {
		for _, o := range []*replay.Offset{mt.ActualTime, mt.ResultAt, mt.Listed} {
			if o != nil {
				points = append(points, time.Duration(*o))
			}
		}
	}
	points = append(points, b.selStart, b.selEnd)
	slices.Sort(points)
	points = slices.Compact(points)
	for _, at := range points {
		st := replay.State{Nexus: b.nexus(at), Rankings: []replay.Ranking{}, SortOrderInfo: []replay.StatInfo{}, ExtraStatsInfo: []replay.StatInfo{}}
		if at >= b.lastQualResult {
			st.SortOrderInfo, st.ExtraStatsInfo = rankings.SortOrderInfo, rankings.ExtraStatsInfo
			if rankings.Rankings != nil { // TBA sends a list, never null, inside an object
				st.Rankings = rankings.Rankings
			}
		} else if b.anyQualResult(at) {
			st.Rankings, st.SortOrderInfo = b.provisional(at, event.Key, rankings.SortOrderInfo)
		}
		if at == b.selEnd {
			st.Alliances = b.alliancesOut
		}
		st.TeamStatus = b.teamStatus(at, st.Rankings, len(teams))
		tl.Steps = append(tl.Steps, replay.Step{At: replay.Offset(at), State: st})
	}
	ev.Timeline = tl

	ev.Moments["quals"] = replay.Offset(b.qualMiddle + time.Minute)
	ev.Moments["selection"] = replay.Offset(b.selStart + 5*time.Minute)
	ev.Moments["alliances"] = replay.Offset(b.selEnd + time.Minute)
	if at, ok := b.playoffsMiddle(); ok {
		ev.Moments["playoffs"] = replay.Offset(at + time.Minute)
	}
	if at, ok := b.eliminated(); ok {
		ev.Moments["eliminated"] = replay.Offset(at + time.Minute)
	}
	ev.Moments["end"] = replay.Offset(b.end + 10*time.Minute)
	return ev, nil
}

// realBuilder holds what Load works out from the files.
type realBuilder struct {
	team                       string
	zero                       time.Time
	out                        []replay.Match // offsets from zero, in playoff order after the qualifications
	rp                         map[string][2]int
	selStart, selEnd           time.Duration
	lastQualResult, qualMiddle time.Duration
	end                        time.Duration
	alliancesOut               []replay.Alliance
	breakAfter                 map[string]string
}

func (b *realBuilder) matches(in []frcapi.TBAMatch) error {
	var quals []frcapi.TBAMatch
	for _, mt := range in {
		if mt.CompLevel == "qm" && mt.Time != nil {
			quals = append(quals, mt)
		}
	}
	if len(quals) == 0 {
		return fmt.Errorf("realevent: no scheduled qualification match")
	}
	zero := slices.MinFunc(quals, func(a, b frcapi.TBAMatch) int { return cmp.Compare(*a.Time, *b.Time) })
	b.zero = time.Unix(*zero.Time, 0)
	off := func(sec *int64) *replay.Offset {
		if sec == nil {
			return nil
		}
		return replay.At(time.Unix(*sec, 0).Sub(b.zero))
	}
	b.rp = map[string][2]int{}
	for _, mt := range in {
		red, blue := frcapi.Deref(mt.Alliances.Red), frcapi.Deref(mt.Alliances.Blue)
		m := replay.Match{Key: mt.Key, CompLevel: mt.CompLevel, SetNumber: mt.SetNumber, MatchNumber: mt.MatchNumber,
			Red: red.TeamKeys, Blue: blue.TeamKeys, RedScore: frcapi.Deref(red.Score), BlueScore: frcapi.Deref(blue.Score),
			WinningAlliance: mt.WinningAlliance, Time: off(mt.Time), ActualTime: off(mt.ActualTime), ResultAt: off(mt.PostResultTime),
			Surrogates: append(slices.Clone(red.Surrogates), blue.Surrogates...), DQ: append(slices.Clone(red.DQ), blue.DQ...)}
		if m.ResultAt == nil && m.ActualTime != nil {
			m.ResultAt = replay.At(time.Duration(*m.ActualTime) + realResult)
		}
		if rp, ok := rpOf(mt.ScoreBreakdown); ok {
			b.rp[mt.Key] = rp
		}
		m.Breakdown = mt.ScoreBreakdown
		b.out = append(b.out, m)
	}
	slices.SortStableFunc(b.out, func(x, y replay.Match) int {
		if x.CompLevel == "qm" && y.CompLevel == "qm" {
			return cmp.Compare(x.MatchNumber, y.MatchNumber)
		}
		return replay.PlayoffOrder(x, y)
	})
	var qualResults []time.Duration
	for _, m := range b.out {
		if m.ResultAt != nil {
			b.end = max(b.end, time.Duration(*m.ResultAt))
			if m.CompLevel == "qm" {
				qualResults = append(qualResults, time.Duration(*m.ResultAt))
			}
		}
	}
	if len(qualResults) == 0 {
		return fmt.Errorf("realevent: no qualification result")
	}
	slices.Sort(qualResults)
	b.lastQualResult, b.qualMiddle = qualResults[len(qualResults)-1], qualResults[len(qualResults)/2]
	b.selStart = b.lastQualResult
	b.selEnd = b.selStart + realSelection
	for _, m := range b.out {
		if m.CompLevel != "qm" && m.ActualTime != nil {
			b.selEnd = max(b.selStart, min(b.selEnd, time.Duration(*m.ActualTime)-10*time.Minute))
			break
		}
	}
	return nil
}

// alliances keeps the alliances as listed, backup key and all, and lists
// each playoff match once the alliances in it are known.
func (b *realBuilder) alliances(in []frcapi.TBAAlliance) {
	for _, a := range in {
		b.alliancesOut = append(b.alliancesOut, replay.Alliance{Name: a.Name, Picks: a.Picks, Declines: a.Declines,
			Backup: a.Backup.Backup, NoBackupKey: !a.Backup.Present})
	}
	lastResult := map[int]time.Duration{} // by alliance number
	for i := range b.out {
		m := &b.out[i]
		if m.CompLevel == "qm" {
			continue
		}
		decided := b.selEnd
		sides := []int{replay.AllianceIn(b.alliancesOut, m.Red), replay.AllianceIn(b.alliancesOut, m.Blue)}
		for _, n := range sides {
			if at, ok := lastResult[n]; ok && n > 0 {
				decided = max(decided, at)
			}
		}
		if m.CompLevel == "f" && m.MatchNumber > 1 {
			// The finals are listed together, once the finalists are known.
			decided = time.Duration(*b.out[i-m.MatchNumber+1].Listed)
		}
		m.Listed, m.Decided = replay.At(decided), replay.At(decided)
		for _, n := range sides {
			if m.ResultAt != nil && n > 0 {
				lastResult[n] = max(lastResult[n], time.Duration(*m.ResultAt))
			}
		}
	}
}

// schedule names the breaks: lunch and the end of a day between
// qualification matches, alliance selection, the awards.
func (b *realBuilder) schedule() {
	b.breakAfter = map[string]string{}
	var prev *replay.Match
	for i := range b.out {
		m := &b.out[i]
		if m.CompLevel != "qm" || m.Time == nil {
			continue
		}
		if prev != nil && time.Duration(*m.Time-*prev.Time) > 30*time.Minute {
			b.breakAfter[prev.Key] = "Lunch"
			if b.zero.Add(time.Duration(*m.Time)).YearDay() != b.zero.Add(time.Duration(*prev.Time)).YearDay() {
				b.breakAfter[prev.Key] = "End of day"
			}
		}
		prev = m
	}
	if prev != nil {
		b.breakAfter[prev.Key] = "Alliance selection"
	}
	if last := b.out[len(b.out)-1]; last.CompLevel == "f" {
		b.breakAfter[last.Key] = "Awards break"
	}
}

// label is Nexus's name of a match.
func label(m replay.Match) string {
	switch m.CompLevel {
	case "qm":
		return "Qualification " + strconv.Itoa(m.MatchNumber)
	case "f":
		return "Final " + strconv.Itoa(m.MatchNumber)
	}
	return "Playoff " + strconv.Itoa(m.SetNumber)
}

// nexus is Nexus's schedule as estimated at offset at: a match that has
// started has its actual times; the others are late by as much as the
// latest match started of the same phase.
func (b *realBuilder) nexus(at time.Duration) *replay.NexusEvent {
	delay := map[bool]time.Duration{}
	for _, m := range b.out {
		if m.ActualTime != nil && m.Time != nil && time.Duration(*m.ActualTime) <= at {
			delay[m.CompLevel == "qm"] = max(0, time.Duration(*m.ActualTime-*m.Time))
		}
	}
	numbers := func(keys []string) []*string {
		out := make([]*string, 0, len(keys))
		for _, k := range keys {
			n := frcapi.TeamNumber(k)
			out = append(out, &n)
		}
		return out
	}
	ev := &replay.NexusEvent{Matches: []replay.NexusMatch{}}
	for _, m := range b.out {
		if m.Time == nil {
			continue
		}
		start := time.Duration(*m.Time)
		if m.ActualTime != nil && time.Duration(*m.ActualTime) <= at {
			start = time.Duration(*m.ActualTime)
		} else {
			start = max(start+delay[m.CompLevel == "qm"], at+realOnField)
		}
		nm := replay.NexusMatch{Label: label(m), RedTeams: numbers(m.Red), BlueTeams: numbers(m.Blue), BreakAfter: b.breakAfter[m.Key],
			Listed: m.Listed, Decided: m.Decided, Times: replay.NexusTimes{
				EstimatedQueue: replay.At(start - realQueue), EstimatedOnDeck: replay.At(start - realOnDeck),
				EstimatedOnField: replay.At(start - realOnField), EstimatedStart: replay.At(start), ScheduledStart: m.Time,
			}}
		if m.ActualTime != nil {
			actual := time.Duration(*m.ActualTime)
			nm.Times.ActualQueue, nm.Times.ActualOnDeck = replay.At(actual-realQueue), replay.At(actual-realOnDeck)
			nm.Times.ActualOnField, nm.Times.ActualStart = replay.At(actual-realOnField), replay.At(actual)
		}
		ev.Matches = append(ev.Matches, nm)
	}
	return ev
}

func (b *realBuilder) anyQualResult(at time.Duration) bool {
	for _, m := range b.out {
		if m.CompLevel == "qm" && m.ResultAt != nil && time.Duration(*m.ResultAt) <= at {
			return true
		}
	}
	return false
}

// provisional ranks the teams by the qualification results out at offset
// at, as TBA would have then: by the season's sort orders (forecast.Rank),
// served under the names of the final rankings (final), when the files'
// score breakdowns hold what those are computed from; else by ranking
// score (ranking points per match), then average score.
func (b *realBuilder) provisional(at time.Duration, eventKey string, final []replay.StatInfo) ([]replay.Ranking, []replay.StatInfo) {
	type line struct {
		replay.Ranking
		rp, points, played int
	}
	lines := map[string]*line{}
	var results []frcapi.TBAMatch // the results out, as TBA lists them
	for _, m := range b.out {
		if m.CompLevel != "qm" || m.ResultAt == nil || time.Duration(*m.ResultAt) > at {
			continue
		}
		results = append(results, tbaResult(m))
		rp := b.rp[m.Key]
		for i, side := range [][]string{m.Red, m.Blue} {
			color, score := "red", m.RedScore
			if i == 1 {
				color, score = "blue", m.BlueScore
			}
			for _, t := range side {
				l := lines[t]
				if l == nil {
					l = &line{Ranking: replay.Ranking{TeamKey: t}}
					lines[t] = l
				}
				if slices.Contains(m.Surrogates, t) {
					continue
				}
				l.played++
				l.rp += rp[i]
				l.points += score
				switch m.WinningAlliance {
				case color:
					l.Record.Wins++
				case "":
					l.Record.Ties++
				default:
					l.Record.Losses++
				}
			}
		}
	}
	if rules, played, remaining, ok := board.ForecastInputs(eventKey, final, results); ok && len(remaining) == 0 {
		standings := forecast.Rank(rules, played)
		rankings := make([]replay.Ranking, 0, len(standings))
		for _, st := range standings {
			l := lines["frc"+st.Team]
			l.Rank, l.MatchesPlayed = st.Rank, st.Matches
			l.SortOrders = []float64{round2(st.RankingScore)}
			for _, v := range st.Tiebreaks {
				l.SortOrders = append(l.SortOrders, round2(v))
			}
			rankings = append(rankings, l.Ranking)
		}
		return rankings, final
	}
	out := make([]*line, 0, len(lines))
	for _, l := range lines {
		rs, avg := 0.0, 0.0
		if l.played > 0 {
			rs, avg = float64(l.rp)/float64(l.played), float64(l.points)/float64(l.played)
		}
		l.SortOrders = []float64{round2(rs), round2(avg)}
		l.MatchesPlayed = l.played
		out = append(out, l)
	}
	slices.SortFunc(out, func(x, y *line) int {
		return cmp.Or(cmp.Compare(y.SortOrders[0], x.SortOrders[0]), cmp.Compare(y.SortOrders[1], x.SortOrders[1]), cmp.Compare(x.TeamKey, y.TeamKey))
	})
	rankings := make([]replay.Ranking, 0, len(out))
	for i, l := range out {
		l.Rank = i + 1
		rankings = append(rankings, l.Ranking)
	}
	return rankings, []replay.StatInfo{{Name: "Ranking Score", Precision: 2}, {Name: "Avg Match", Precision: 2}}
}

// tbaResult is a played qualification match as TBA lists it, breakdowns
// and all.
func tbaResult(m replay.Match) frcapi.TBAMatch {
	side := func(teams, surrogates, dq []string, score int) *frcapi.TBAMatchAlliance {
		a := &frcapi.TBAMatchAlliance{TeamKeys: teams, Score: &score}
		for _, t := range teams {
			if slices.Contains(surrogates, t) {
				a.Surrogates = append(a.Surrogates, t)
			}
			if slices.Contains(dq, t) {
				a.DQ = append(a.DQ, t)
			}
		}
		return a
	}
	return frcapi.TBAMatch{Key: m.Key, CompLevel: m.CompLevel, WinningAlliance: m.WinningAlliance, ScoreBreakdown: m.Breakdown,
		Alliances: frcapi.TBAMatchAlliances{Red: side(m.Red, m.Surrogates, m.DQ, m.RedScore), Blue: side(m.Blue, m.Surrogates, m.DQ, m.BlueScore)}}
}

// rpOf reads the ranking points of both alliances from TBA's score
// breakdowns, red first.
func rpOf(breakdown map[string]json.RawMessage) (rp [2]int, ok bool) {
	for i, colour := range []string{"red", "blue"} {
		var v struct {
			RP *int `json:"rp"`
		}
		if json.Unmarshal(breakdown[colour], &v) != nil || v.RP == nil {
			return rp, false
		}
		rp[i] = *v.RP
	}
	return rp, true
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }

// teamStatus is the team's TBA status at offset at: its line of the
// rankings, its last match with a result and its next match listed.
func (b *realBuilder) teamStatus(at time.Duration, rankings []replay.Ranking, numTeams int) *replay.TeamStatus {
	st := &replay.TeamStatus{NumTeams: numTeams}
	for _, r := range rankings {
		if r.TeamKey == b.team {
			st.Rank, st.Record = r.Rank, r.Record
		}
	}
	for _, m := range b.out {
		if !slices.Contains(m.Red, b.team) && !slices.Contains(m.Blue, b.team) || m.Listed != nil && time.Duration(*m.Listed) > at {
			continue
		}
		if m.ResultAt != nil && time.Duration(*m.ResultAt) <= at {
			st.LastMatchKey = m.Key
		} else if st.NextMatchKey == "" {
			st.NextMatchKey = m.Key
		}
	}
	return st
}

// playoffsMiddle is the result of the bracket's eighth match (the end of
// its second round), or of its middle one.
func (b *realBuilder) playoffsMiddle() (time.Duration, bool) {
	var results []time.Duration
	for _, m := range b.out {
		if m.CompLevel == "sf" && m.ResultAt != nil {
			if m.SetNumber == 8 {
				return time.Duration(*m.ResultAt), true
			}
			results = append(results, time.Duration(*m.ResultAt))
		}
	}
	if len(results) == 0 {
		return 0, false
	}
	return results[len(results)/2], true
}

// eliminated is when the result came out that eliminated the team's
// alliance.
func (b *realBuilder) eliminated() (time.Duration, bool) {
	n, st := replay.TeamAllianceStatus(replay.State{Matches: b.out, Alliances: b.alliancesOut}, replay.Offset(b.end), b.team)
	if n == 0 || st == nil || st.Status != "eliminated" {
		return 0, false
	}
	var last time.Duration
	for _, m := range b.out {
		if m.CompLevel != "qm" && m.ResultAt != nil && (replay.AllianceIn(b.alliancesOut, m.Red) == n || replay.AllianceIn(b.alliancesOut, m.Blue) == n) {
			last = max(last, time.Duration(*m.ResultAt))
		}
	}
	return last, true
}
