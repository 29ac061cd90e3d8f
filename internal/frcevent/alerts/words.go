package alerts

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// queueCall is the call of lead n for our match m in s.
func queueCall(s board.Status, m board.Match, n int, now time.Time) Alert {
	team := strconv.Itoa(s.Team)
	var title string
	d, known := ahead(s, m)
	switch {
	case m.Step == board.StepOnDeck:
		title = team + " is on deck for " + m.Label
	case queuing(s, m) || !known:
		title = team + " is queuing for " + m.Label
	case d == 1:
		title = team + " plays next: " + m.Label
	default:
		title = fmt.Sprintf("%s plays in %d matches: %s", team, d, m.Label)
	}
	return Alert{
		ID: "queue/" + matchID(s, m) + "/" + strconv.Itoa(n), Kind: KindQueuing, Tag: "match/" + matchID(s, m),
		Title: clip(title, MaxTitle), Body: clip(sentences(sides(m), startsIn(m, now)), MaxBody), Path: FollowPath,
		Urgent: true, Expires: expires(m, now), MatchesAhead: n,
	}
}

// expires is when a call for m is no longer worth showing: its start, or
// lateGrace after now when that start has passed though m has not begun;
// zero when no start is known.
func expires(m board.Match, now time.Time) time.Time {
	if m.When == nil || m.When.Kind == board.TimeActual {
		return time.Time{}
	}
	if at := m.When.At; at.After(now) {
		return at
	}
	return now.Add(lateGrace)
}

// sides says our colour, our partners and our opponents as far as they
// are known: "Red alliance with 2357 and 4500 vs 1234, 5678, 9012"; "" while
// our colour is not.
func sides(m board.Match) string {
	opponents := m.Blue
	switch m.Alliance {
	case board.ColourRed:
	case board.ColourBlue:
		opponents = m.Red
	default:
		return ""
	}
	out := strings.ToUpper(string(m.Alliance[:1])) + string(m.Alliance[1:]) + " alliance"
	if p := board.Decided(m.Partners); len(p) > 0 {
		out += " with " + and(p)
	}
	if o := board.Decided(opponents); len(o) > 0 {
		out += " vs " + strings.Join(o, ", ")
	}
	return out
}

// startsIn says how soon m starts, from now: "Starts in about 12 min";
// "Scheduled in about 12 min" when only the schedule says. The event's zone
// is a name in Status that only a time zone database could read, and the
// reader's is unknown, so the time is relative. "" when nothing is known,
// or a scheduled start has passed (the field runs late).
func startsIn(m board.Match, now time.Time) string {
	if m.When == nil || m.When.Kind == board.TimeActual || now.IsZero() {
		return ""
	}
	mins := int(math.Round(m.When.At.Sub(now).Minutes()))
	verb := "Starts"
	if m.When.Kind == board.TimeScheduled {
		if mins < 1 {
			return ""
		}
		verb = "Scheduled"
	}
	switch {
	case mins < 1:
		return "Starts any minute"
	case mins < 60:
		return fmt.Sprintf("%s in about %d min", verb, mins)
	}
	return fmt.Sprintf("%s in about %d h %d min", verb, mins/60, mins%60)
}

// resultAlert is the result of our played match m in s.
func resultAlert(s board.Status, m board.Match) Alert {
	ours, theirs := *m.RedScore, *m.BlueScore
	if m.Alliance == board.ColourBlue {
		ours, theirs = theirs, ours
	}
	verb := map[board.Result]string{board.ResultWin: "wins", board.ResultLoss: "loses", board.ResultTie: "ties"}[m.Result]
	title := fmt.Sprintf("%d %s %d–%d in %s", s.Team, verb, ours, theirs, m.Label)
	var more []string
	if strings.HasPrefix(m.Label, "Qualification ") {
		if r := s.Rank; r != nil && rankCounts(s) {
			more = append(more, fmt.Sprintf("Rank %d of %d, record %s", r.Rank, r.Of, record(r.Record)))
		}
	} else if p := s.Playoffs; p != nil && p.Ours != nil {
		if p.Next != nil && p.Next.Series != nil {
			more = append(more, fmt.Sprintf("Finals %d–%d", p.Next.Series.Ours, p.Next.Series.Theirs))
		}
		more = append(more, "Playoff record "+record(p.Record))
	}
	if n := s.NextMatch; n != nil && n.Label != m.Label {
		more = append(more, "Next: "+n.Label)
	}
	return Alert{
		ID: "result/" + matchID(s, m), Kind: KindResults, Tag: "match/" + matchID(s, m),
		Title: clip(title, MaxTitle), Body: clip(sentences(more...), MaxBody), Path: FollowPath,
	}
}

// rankCounts reports whether s's rank counts every qualification match of
// ours with a result: TBA's rankings lag its scores a little.
func rankCounts(s board.Status) bool {
	played := 0
	for _, m := range s.Schedule {
		if strings.HasPrefix(m.Label, "Qualification ") && m.Result != board.ResultNone {
			played++
		}
	}
	r := s.Rank.Record
	return r.Wins+r.Losses+r.Ties == played
}

// selectedAlert is the notice of our alliance in s: as a captain or pick,
// or called in as its backup.
func selectedAlert(s board.Status, backup bool) Alert {
	p := s.Playoffs
	o := p.Ours
	team := strconv.Itoa(s.Team)
	id := selectionTag + s.EventKey
	var title, with string
	switch {
	case backup:
		id += "/" + roleBackup
		title = fmt.Sprintf("%s joins Alliance %d as backup", team, o.Number)
		if o.Number >= 1 && o.Number <= len(p.Alliances) && p.Alliances[o.Number-1].Out != "" {
			with = "In for " + p.Alliances[o.Number-1].Out
		}
	case o.Role == roleCaptain:
		title = fmt.Sprintf("%s is captain of Alliance %d", team, o.Number)
	default:
		title = fmt.Sprintf("%s is the %s of Alliance %d", team, o.Role, o.Number)
	}
	more := []string{with}
	if partners := board.Decided(o.Partners); len(partners) > 0 {
		more = append(more, "With "+and(partners))
	}
	if n := s.NextMatch; n != nil && !strings.HasPrefix(n.Label, "Qualification ") {
		more = append(more, "Next: "+n.Label)
	}
	return Alert{
		ID: id, Kind: KindSelection, Tag: selectionTag + s.EventKey,
		Title: clip(title, MaxTitle), Body: clip(sentences(more...), MaxBody), Path: FollowPath,
	}
}

// notPickedAlert is the notice that selection is done without us.
func notPickedAlert(s board.Status) Alert {
	body := "Alliance selection is over"
	if r := s.Rank; r != nil {
		body = sentences(body, fmt.Sprintf("We finished the qualifications ranked %d of %d", r.Rank, r.Of))
	}
	return Alert{
		ID: selectionTag + s.EventKey + "/none", Kind: KindSelection, Tag: selectionTag + s.EventKey,
		Title: clip(strconv.Itoa(s.Team)+" was not picked for the playoffs", MaxTitle),
		Body:  clip(sentences(body), MaxBody), Path: FollowPath,
	}
}

// outcomeAlert is the notice of how our playoffs ended in s.
func outcomeAlert(s board.Status, o board.Outcome) Alert {
	p := s.Playoffs
	team := strconv.Itoa(s.Team)
	alliance := "Our alliance"
	if p.Ours != nil {
		alliance = "Alliance " + strconv.Itoa(p.Ours.Number)
	}
	rec := "playoff record " + record(p.Record)
	var title, body string
	switch o {
	case board.OutcomeWinners:
		event := s.EventName
		if event == "" {
			event = "the event"
		}
		title = team + ": Event winners!"
		body = sentences(alliance+" won "+event, strings.ToUpper(rec[:1])+rec[1:])
	case board.OutcomeFinalists:
		title = team + " finishes as event finalist"
		body = sentences(alliance + " lost the finals, " + rec)
	default:
		title = team + " is out of the playoffs"
		in := ""
		if p.Round != "" {
			in = " in " + p.Round
		}
		body = sentences(alliance + " was eliminated" + in + ", " + rec)
	}
	return Alert{
		ID: "playoffs/" + s.EventKey + "/" + string(o), Kind: KindPlayoffs, Tag: "playoffs/" + s.EventKey,
		Title: clip(title, MaxTitle), Body: clip(body, MaxBody), Path: FollowPath,
	}
}

// record writes a W-L-T record: "6-2-0".
func record(r board.Record) string { return fmt.Sprintf("%d-%d-%d", r.Wins, r.Losses, r.Ties) }

// and joins team numbers: "2357", "2357 and 4500", "1, 2 and 3".
func and(teams []string) string {
	if len(teams) < 2 {
		return strings.Join(teams, "")
	}
	return strings.Join(teams[:len(teams)-1], ", ") + " and " + teams[len(teams)-1]
}

// sentences joins the non-empty parts, each ended with a full stop.
func sentences(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, strings.TrimSuffix(p, ".")+".")
		}
	}
	return strings.Join(out, " ")
}

// clip cuts s to at most n characters, with an ellipsis where it cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
