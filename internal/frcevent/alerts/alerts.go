// Package alerts decides which change of the event makes which push
// notification for the people who follow the team (issue 37). It is pure:
// Changes compares two boards the hub published one after the other and
// returns the alerts, each with an ID that every serve instance computes
// alike for the same change, so the sender (package push) sends each
// once however many instances see it.
//
// The rules (Changes):
//
//	change between prev and next                      alert (Kind, ID)
//	our next match reaches "Now queuing" or "On deck"  queuing, queue/EVENT/MATCH/0
//	our next match comes n field matches away (1–3)    queuing, queue/EVENT/MATCH/n
//	a match of ours gets its result                    result, result/EVENT/MATCH
//	we are on an alliance                              selection, selection/EVENT/alliance-N
//	selection is done and we are on none               selection, selection/EVENT/none
//	our playoffs end (eliminated, finalists, winners)  playoffs, playoffs/EVENT/OUTCOME
//	a news post is published (NewsPosted)              news, news/ID
//
// Nothing is sent when prev is not the same configured event as next (the
// first board after a start, or a change of event): the caller keeps prev
// from one change to the next, and a start must not send a burst. A queue
// call whose match already has a result is never sent, nor one for a match
// already on the field.
package alerts

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// Kind says which choice of a follower an alert answers.
type Kind string

// The kinds of alerts, one per choice a follower makes.
const (
	// KindQueuing: our match is queuing, or n matches away.
	KindQueuing Kind = "queuing"
	// KindResult: the result of a match of ours.
	KindResult Kind = "result"
	// KindSelection: our alliance and role, or that we were not selected.
	KindSelection Kind = "selection"
	// KindPlayoffs: how our playoffs ended.
	KindPlayoffs Kind = "playoffs"
	// KindNews: a new news post.
	KindNews Kind = "news"
)

// MaxLead is the most matches ahead a queue call is made.
const MaxLead = 3

// Lengths of what a notification shows: a phone shows about a line of
// title and three of body.
const (
	MaxTitle = 60
	MaxBody  = 180
)

// FollowPath is the page a notification opens.
const FollowPath = "/follow"

// Alert is one notification to send.
type Alert struct {
	// ID names the change: the same for every instance that sees it, and
	// never the same for two changes.
	ID   string
	Kind Kind
	// Title and Body are the notification's words, at most MaxTitle and
	// MaxBody characters.
	Title, Body string
	// Path is the page it opens.
	Path string
	// Tag is shared by the alerts that supersede each other on the phone:
	// a match's queue calls and its result.
	Tag string
	// Urgent is true for a queue call.
	Urgent bool
	// Expires is when a queue call stops being news: the match's start;
	// zero for the others.
	Expires time.Time
	// MatchesAhead is, for a queue call, how many field matches ahead of
	// ours it is made: 0 when queuing.
	MatchesAhead int
}

// Changes returns the alerts of the change from prev to next, seen at now.
func Changes(prev, next board.Status, now time.Time) []Alert {
	if !prev.Configured || !next.Configured || next.EventKey == "" || prev.EventKey != next.EventKey {
		return nil
	}
	var out []Alert
	out = append(out, queueCalls(prev, next, now)...)
	out = append(out, results(prev, next)...)
	out = append(out, selection(prev, next)...)
	out = append(out, outcome(prev, next)...)
	for i := range out {
		out[i].Title, out[i].Body = clip(out[i].Title, MaxTitle), clip(out[i].Body, MaxBody)
		if out[i].Path == "" {
			out[i].Path = FollowPath
		}
	}
	return out
}

// NewsPosted is the alert of a news post just published.
func NewsPosted(id, title string) Alert {
	return Alert{ID: "news/" + id, Kind: KindNews, Title: clip("News: "+title, MaxTitle),
		Body: "The RoboHornets posted news. Tap to read it.", Path: "/news/" + id, Tag: "news/" + id}
}

// matchID names a match within its event: TBA's key without the event,
// or its label as a slug when only Nexus knows it.
func matchID(m board.Match) string {
	if _, after, ok := strings.Cut(m.Key, "_"); ok {
		return after
	}
	return strings.ToLower(strings.ReplaceAll(m.Label, " ", "-"))
}

// tag is the tag of a match's notifications.
func tag(event string, m board.Match) string { return "match/" + event + "/" + matchID(m) }

// queueCalls are the calls for our next match: when it is queuing (or on
// deck, if the queuing step was not seen), and when it comes n field
// matches away, for each n from 1 to MaxLead it has just crossed.
func queueCalls(prev, next board.Status, now time.Time) []Alert {
	m := next.NextMatch
	if m == nil || m.Result != board.ResultNone || m.Alliance == board.ColourNone || m.Step == board.StepOnField {
		return nil
	}
	var was *board.Match
	if p := prev.NextMatch; p != nil && p.Label == m.Label {
		was = p
	}
	var out []Alert
	base := Alert{Kind: KindQueuing, Tag: tag(next.EventKey, *m), Urgent: true}
	if m.When != nil && m.When.Kind != board.TimeActual {
		base.Expires = m.When.At
	}
	id := "queue/" + next.EventKey + "/" + matchID(*m) + "/"
	if m.Step >= board.StepQueuing && (was == nil || was.Step < board.StepQueuing) {
		a := base
		a.ID, a.Title = id+"0", fmt.Sprintf("%d is queuing for %s", next.Team, m.Label)
		a.Body = strings.TrimSpace(lineup(*m, next.Team) + " " + startLine(m, next.Timezone, now))
		out = append(out, a)
	}
	if m.Step >= board.StepQueuing {
		return out
	}
	away, ok := distance(next.OnField, m)
	if !ok {
		return out
	}
	before := MaxLead + 1
	if was != nil {
		if d, ok := distance(prev.OnField, was); ok {
			before = d
		}
	}
	for n := MaxLead; n >= 1; n-- {
		if away <= n && before > n {
			a := base
			a.ID, a.MatchesAhead = id+strconv.Itoa(n), n
			a.Title = fmt.Sprintf("%d plays %s in %d %s", next.Team, m.Label, away, plural(away, "match", "matches"))
			a.Body = strings.TrimSpace(lineup(*m, next.Team) + " " + startLine(m, next.Timezone, now))
			out = append(out, a)
		}
	}
	return out
}

// labelNumber reads a Nexus label: "Qualification 44" is ("Qualification", 44).
var labelNumber = regexp.MustCompile(`^(\D+?) (\d+)$`)

// distance is how many field matches ours is after the one on the field,
// when both are of the same numbered kind (qualifications, playoffs or
// finals, which the field plays in number order).
func distance(onField, ours *board.Match) (int, bool) {
	if onField == nil || ours == nil {
		return 0, false
	}
	a, b := labelNumber.FindStringSubmatch(onField.Label), labelNumber.FindStringSubmatch(ours.Label)
	if a == nil || b == nil || a[1] != b[1] {
		return 0, false
	}
	x, _ := strconv.Atoi(a[2])
	y, _ := strconv.Atoi(b[2])
	if y <= x {
		return 0, false
	}
	return y - x, true
}

// results are the alerts of our matches whose result next shows and prev
// did not.
func results(prev, next board.Status) []Alert {
	had := map[string]bool{}
	for _, m := range slices.Concat(prev.Schedule, prev.Recent) {
		if m.Result != board.ResultNone {
			had[matchID(m)] = true
		}
	}
	seen := map[string]bool{}
	var out []Alert
	for _, m := range slices.Concat(next.Recent, next.Schedule) {
		id := matchID(m)
		if m.Result == board.ResultNone || m.RedScore == nil || m.BlueScore == nil || had[id] || seen[id] {
			continue
		}
		seen[id] = true
		ours, theirs := *m.RedScore, *m.BlueScore
		if m.Alliance == board.ColourBlue {
			ours, theirs = theirs, ours
		}
		verb := map[board.Result]string{board.ResultWin: "won", board.ResultLoss: "lost", board.ResultTie: "tied"}[m.Result]
		a := Alert{ID: "result/" + next.EventKey + "/" + id, Kind: KindResult, Tag: tag(next.EventKey, m),
			Title: fmt.Sprintf("%d %s %s, %d–%d", next.Team, verb, m.Label, ours, theirs)}
		if r := next.Rank; r != nil && m.Result != board.ResultNone && strings.HasPrefix(m.Label, "Qualification") {
			a.Body = fmt.Sprintf("Rank so far: %d of %d, record %d-%d-%d.", r.Rank, r.Of, r.Record.Wins, r.Record.Losses, r.Record.Ties)
		}
		if p := next.Playoffs; p != nil && !strings.HasPrefix(m.Label, "Qualification") {
			a.Body = fmt.Sprintf("Playoff record %d-%d-%d.", p.Record.Wins, p.Record.Losses, p.Record.Ties)
		}
		out = append(out, a)
	}
	return out
}

// selection is the alert of our alliance once we are on one, or of not
// being selected once selection is done.
func selection(prev, next board.Status) []Alert {
	p := next.Playoffs
	if p == nil {
		return nil
	}
	pp := prev.Playoffs
	switch {
	case p.Ours != nil && (pp == nil || pp.Ours == nil || pp.Ours.Number != p.Ours.Number):
		body := "Partners " + joinTeams(p.Ours.Partners) + "."
		if len(p.Ours.Partners) == 0 {
			body = ""
		}
		return []Alert{{ID: fmt.Sprintf("selection/%s/alliance-%d", next.EventKey, p.Ours.Number), Kind: KindSelection,
			Title: fmt.Sprintf("%d is %s of Alliance %d", next.Team, article(p.Ours.Role), p.Ours.Number), Body: body}}
	case p.Ours == nil && p.SelectionDone && (pp == nil || !pp.SelectionDone || pp.Ours != nil):
		return []Alert{{ID: "selection/" + next.EventKey + "/none", Kind: KindSelection,
			Title: fmt.Sprintf("%d was not selected for an alliance", next.Team),
			Body:  "Alliance selection is done. Thank you for following the RoboHornets!"}}
	}
	return nil
}

// outcome is the alert of the end of our playoffs.
func outcome(prev, next board.Status) []Alert {
	p := next.Playoffs
	if p == nil || p.Outcome == board.OutcomeNone || prev.Playoffs != nil && prev.Playoffs.Outcome == p.Outcome {
		return nil
	}
	record := fmt.Sprintf("Playoff record %d-%d-%d.", p.Record.Wins, p.Record.Losses, p.Record.Ties)
	a := Alert{ID: "playoffs/" + next.EventKey + "/" + string(p.Outcome), Kind: KindPlayoffs, Body: record}
	switch p.Outcome {
	case board.OutcomeWinners:
		a.Title = fmt.Sprintf("%d's alliance won the event!", next.Team)
	case board.OutcomeFinalists:
		a.Title = fmt.Sprintf("%d's alliance are the finalists", next.Team)
	case board.OutcomeEliminated:
		a.Title = fmt.Sprintf("%d is out of the playoffs", next.Team)
		if p.Round != "" {
			a.Title += " (" + p.Round + ")"
		}
	default:
		return nil
	}
	return []Alert{a}
}

// lineup is our colour, partners and opponents: "Red alliance with 2357
// and 4500 vs 1234, 5678 and 9012."
func lineup(m board.Match, team int) string {
	ours, theirs := m.Red, m.Blue
	colour := "Red"
	if m.Alliance == board.ColourBlue {
		ours, theirs, colour = m.Blue, m.Red, "Blue"
	}
	partners := slices.DeleteFunc(slices.Clone(ours), func(t string) bool { return t == "" || t == strconv.Itoa(team) })
	opponents := slices.DeleteFunc(slices.Clone(theirs), func(t string) bool { return t == "" })
	s := colour + " alliance"
	if len(partners) > 0 {
		s += " with " + joinTeams(partners)
	}
	if len(opponents) > 0 {
		s += " vs " + joinTeams(opponents)
	}
	return s + "."
}

// startLine says when the match starts, in the event's time and zone:
// "Starts about 2:05 PM CDT."; "" when no start is known or it is past.
func startLine(m *board.Match, zone string, now time.Time) string {
	if m.When == nil || m.When.Kind == board.TimeActual || !m.When.At.After(now) {
		return ""
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "" {
		loc = time.UTC
	}
	word := "about "
	if m.When.Kind == board.TimeScheduled {
		word = "at "
	}
	return "Starts " + word + m.When.At.In(loc).Format("3:04 PM MST") + "."
}

// joinTeams writes "1", "1 and 2", "1, 2 and 3".
func joinTeams(teams []string) string {
	switch len(teams) {
	case 0:
		return ""
	case 1:
		return teams[0]
	}
	return strings.Join(teams[:len(teams)-1], ", ") + " and " + teams[len(teams)-1]
}

// article puts "the" or "a" before a role: "the captain", "the first
// pick", "a backup".
func article(role string) string {
	if role == "backup" {
		return "a backup"
	}
	return "the " + role
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// clip cuts s to at most n characters, ending in "…" when cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
