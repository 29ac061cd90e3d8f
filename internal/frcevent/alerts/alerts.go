// Package alerts decides which change of the event board makes which push
// notification to the people who follow team 1209 (issue 37). It holds the
// rules only: [Changes] compares the board before and after a change and
// returns the [Alert]s to send; the transport (package push) sends each ID
// once to the subscribers of its Kind. Like package board it is pure: no
// I/O, no clock read (the time comes in as a value), no goroutine, so every
// serve instance that sees the same change returns the same alerts with the
// same IDs.
//
// The caller keeps the last Status it passed as next and hands it back as
// prev with the following change. A first Status after a start (prev is the
// zero Status), a prev that was not configured, or a prev of another event
// or team gives no alert: a restart or a switch of event never fires a
// burst of old news.
//
// # Rules
//
// "Ours" are the matches of Status.NextMatch and Status.Upcoming (queue
// calls) or Status.Recent (results); a match is the same in prev and next
// when its Label is. Each rule fires when next holds and prev did not.
//
//	rule         next holds                                  ID (tag)
//	-----------  ------------------------------------------  -----------------------------------------
//	queue, n=0   an unplayed match of ours is queuing: its    queue/<event>/<match>/0
//	             Step is queuing or on deck, or NowQueuing    (match/<event>/<match>)
//	             is its label
//	queue, lead  n = 1..3: OnField is n or fewer of the       queue/<event>/<match>/<n>
//	             field's matches before ours, or ours is      (match/<event>/<match>)
//	             queuing; every n passed at once when the
//	             count jumps, so each lead gets its call
//	result       a match of ours in Recent has a Result       result/<event>/<match>
//	             (prev shows none for its label)              (match/<event>/<match>)
//	selection    Playoffs.Ours, final: a pick, a captain who  selection/<event>
//	             picked, or once SelectionDone or playoffs    (selection/<event>)
//	backup       Playoffs.Ours with Role "backup"             selection/<event>/backup
//	not picked   Playoffs.SelectionDone, Playoffs.Ours nil    selection/<event>/none
//	outcome      Playoffs.Outcome eliminated, finalists or    playoffs/<event>/<outcome>
//	             winners                                      (playoffs/<event>)
//	news         NewsPosted, called for a new post            news/<id> (news/<id>)
//
// No queue call goes out for a match that next or prev shows on the field
// or played.
//
// <event> is the TBA event key and <match> the match's label in lower case
// with hyphens ("qualification-44", "playoff-7-replay", "final-2"): the
// label, not TBA's key, because the key is missing while only Nexus knows a
// match, and a replayed qualification shares its key with the match it
// replays while Nexus labels the replay apart. A queue call and the result
// of the same match share a tag, so the result replaces the call on the
// phone.
//
// Queue calls are Urgent and expire at the match's start (estimated, else
// scheduled); one whose start has passed while the match has not begun
// expires 5 minutes after now (lateGrace). Their body says how soon the
// match starts relative to now ("Starts in about 12 min"): the reader's
// zone is unknown, and the event's is a name that only a time zone
// database, a file, could turn into a clock time. Their MatchesAhead is the lead n: a
// subscriber who chose lead n gets the alerts of that n only.
//
// # Limits
//
//   - Queue calls need Nexus: with TBA alone nothing is queuing or on the
//     field, so no queue call goes out at all (results still do).
//   - The lead count needs the match on the field and ours to be numbered
//     labels of the same word ("Qualification 41" and "Qualification 44").
//     Across the step from the playoffs to the finals, or while nothing is
//     on the field (before the first match, after a break), it is unknown and
//     the leads go out with the queue call instead. A replay scheduled
//     between the match on the field and ours is not in Status, so the count
//     is one short then (the call comes a match early).
//   - After a spell where the count was unknown (a break), a lead already
//     sent may be returned again. It carries the same ID, which the
//     transport sends once.
//   - A qualification replayed shows, until TBA posts the replay's score,
//     the score of the match it replays, on the board and so in the result;
//     with TBA alone a replayed qualification has no label of its own and
//     gets no second result. Two replays of one playoff match with TBA alone
//     share the label "Playoff N Replay", so only the first gets a result.
//   - A score corrected after its result went out gives no new alert.
package alerts

import (
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/spec"
)

// Kind is what an alert is about; its values are those of push's topics,
// so that a subscriber's choice of topics selects the alerts.
type Kind string

// The kinds of alerts.
const (
	// KindQueuing is a call to the queue before one of our matches.
	KindQueuing Kind = "queuing"
	// KindResults is the result of one of our matches.
	KindResults Kind = "results"
	// KindSelection is our place, or none, after alliance selection.
	KindSelection Kind = "selection"
	// KindPlayoffs is how the playoffs ended for us.
	KindPlayoffs Kind = "playoffs"
	// KindNews is a new news post.
	KindNews Kind = "news"
)

// MaxTitle and MaxBody are the longest Title and Body in characters
// (runes): a phone's lock screen shows about this much.
const (
	MaxTitle = 60
	MaxBody  = 180
)

// MaxMatchesAhead is the largest lead of a queue call (Alert.MatchesAhead).
const MaxMatchesAhead = 3

// FollowPath is the page an alert about the event opens.
const FollowPath = spec.FollowPath

// lateGrace is how long a queue call stays worth showing past now when the
// match's start has passed but it has not begun: the estimate lags.
const lateGrace = 5 * time.Minute

// Alert is one notification to send.
type Alert struct {
	// ID is the notification's dedupe key: the same change gives the same
	// ID on any instance at any time, e.g. "queue/2026okok/qualification-44/0".
	ID string `json:"id"`
	// Kind says which subscribers want it.
	Kind Kind `json:"kind"`
	// Title is short, team number first, at most MaxTitle characters:
	// "1209 is queuing for Qualification 44".
	Title string `json:"title"`
	// Body says more in at most MaxBody characters; "" when there is
	// nothing more to say.
	Body string `json:"body"`
	// Path is the page a tap opens: FollowPath, or a news article's.
	Path string `json:"path"`
	// Tag is shared by notices that supersede each other: the queue calls
	// and the result of one match, the selection notices of an event.
	Tag string `json:"tag"`
	// Urgent is true for the queue calls: the phone should wake now.
	Urgent bool `json:"urgent"`
	// Expires is when a queue call is no longer worth showing (the
	// match's start); zero for the other kinds.
	Expires time.Time `json:"expires"`
	// MatchesAhead is a queue call's lead: 0 when our match is queuing,
	// 1 to MaxMatchesAhead when the match on the field is that many of the
	// field's matches before ours (or fewer). 0 for the other kinds.
	MatchesAhead int `json:"matchesAhead"`
}

// Changes returns the alerts that the change from prev to next makes, in a
// fixed order: results (oldest first), selection, the playoffs' outcome,
// queue calls (by match, then lead). It returns nil when prev is the zero
// Status, not configured, or of another event or team (see the package
// doc), and for prev == next. now is the time of next; it only words how
// soon a match starts and bounds a queue call's expiry.
func Changes(prev, next board.Status, now time.Time) []Alert {
	if !prev.Configured || !next.Configured || prev.EventKey == "" || prev.EventKey != next.EventKey || prev.Team != next.Team {
		return nil
	}
	var out []Alert
	out = append(out, results(prev, next)...)
	out = append(out, selection(prev, next)...)
	out = append(out, outcome(prev, next)...)
	out = append(out, queue(prev, next, now)...)
	return out
}

// NewsPosted is the alert of a new news post: its id, title and summary
// (a line of plain text, "" for none), under the team's number (spec.Team). The news hub's caller detects new
// posts; the alert opens the article.
func NewsPosted(id, title, summary string) Alert {
	return Alert{
		ID: "news/" + id, Kind: KindNews, Tag: "news/" + id,
		Title: clip(strconv.Itoa(spec.Team)+" news: "+title, MaxTitle), Body: clip(summary, MaxBody),
		Path: "/news/" + id,
	}
}

// queue returns the queue calls: for each of our unplayed matches in next,
// each lead n it reached in next and not in prev.
func queue(prev, next board.Status, now time.Time) []Alert {
	var ours []board.Match
	if next.NextMatch != nil {
		ours = append(ours, *next.NextMatch)
	}
	ours = append(ours, next.Upcoming...)
	var out []Alert
	for _, m := range ours {
		if played(m) {
			continue
		}
		if shows(prev, m.Label, played) {
			continue // a match prev saw played is not called again
		}
		was := find(prev, m.Label)
		for n := 0; n <= MaxMatchesAhead; n++ {
			if !reached(next, m, n) || was != nil && reached(prev, *was, n) {
				continue
			}
			out = append(out, queueCall(next, m, n, now))
		}
	}
	return out
}

// reached reports whether the call of lead n is due for m in s: m is
// queuing, or (n > 0) the field is n or fewer matches before it.
func reached(s board.Status, m board.Match, n int) bool {
	if queuing(s, m) {
		return true
	}
	d, ok := ahead(s, m)
	return n > 0 && ok && d <= n
}

// queuing reports whether m is queuing or on deck in s.
func queuing(s board.Status, m board.Match) bool {
	return m.Step == board.StepQueuing || m.Step == board.StepOnDeck || s.NowQueuing != "" && s.NowQueuing == m.Label
}

// ahead is how many of the field's matches lie before m, counting the one
// on the field: 3 for ours "Qualification 44" while "Qualification 41" is
// on it. False when it cannot be told: nothing on the field, labels of
// different words or without a number (a replay, practice against
// qualification), or the field at or past m.
func ahead(s board.Status, m board.Match) (int, bool) {
	if s.OnField == nil {
		return 0, false
	}
	word, ours, ok := numbered(m.Label)
	onWord, on, onOK := numbered(s.OnField.Label)
	if !ok || !onOK || word != onWord || ours <= on {
		return 0, false
	}
	return ours - on, true
}

// numbered splits a label like "Qualification 44" into its word and number.
func numbered(label string) (string, int, bool) {
	word, num, ok := strings.Cut(label, " ")
	n, err := strconv.Atoi(num)
	return word, n, ok && err == nil && n > 0
}

// played reports whether m is on the field or done: it has a result, a
// score or an actual start.
func played(m board.Match) bool {
	return m.Step == board.StepOnField || m.Result != board.ResultNone || m.RedScore != nil || m.Times.ActualStart != nil
}

// find returns our unplayed match labelled label in s, or nil: the next
// match first (the bracket's, whose colour the schedule may not have yet),
// then the upcoming ones.
func find(s board.Status, label string) *board.Match {
	if s.NextMatch != nil && s.NextMatch.Label == label {
		return s.NextMatch
	}
	for i := range s.Upcoming {
		if s.Upcoming[i].Label == label {
			return &s.Upcoming[i]
		}
	}
	return nil
}

// shows reports whether s shows our match labelled label anywhere (next,
// upcoming, recent, schedule) such that is(match) holds.
func shows(s board.Status, label string, is func(board.Match) bool) bool {
	if s.NextMatch != nil && s.NextMatch.Label == label && is(*s.NextMatch) {
		return true
	}
	for _, list := range [][]board.Match{s.Upcoming, s.Recent, s.Schedule} {
		for _, m := range list {
			if m.Label == label && is(m) {
				return true
			}
		}
	}
	return false
}

// hasResult reports whether m has a result.
func hasResult(m board.Match) bool { return m.Result != board.ResultNone }

// results returns the result of each of our matches in next's Recent
// that prev had no result for, oldest first.
func results(prev, next board.Status) []Alert {
	var out []Alert
	for i := len(next.Recent) - 1; i >= 0; i-- {
		m := next.Recent[i]
		if m.Result == board.ResultNone || m.RedScore == nil || m.BlueScore == nil {
			continue
		}
		if shows(prev, m.Label, hasResult) {
			continue
		}
		out = append(out, resultAlert(next, m))
	}
	return out
}

// selection returns the notice of our alliance once it is final, or of
// none once selection is done.
func selection(prev, next board.Status) []Alert {
	o, p := ourPlace(next), ourPlace(prev)
	switch {
	case o != "" && o != p:
		return []Alert{selectedAlert(next, o == placeBackup)}
	case notPicked(next) && !notPicked(prev):
		return []Alert{notPickedAlert(next)}
	}
	return nil
}

// The places ourPlace tells apart.
const (
	placeNone   = ""
	placePicked = "picked" // captain or pick
	placeBackup = "backup"
)

// The roles of OurAlliance.Role that the rules tell apart.
const (
	roleCaptain = "captain"
	roleBackup  = "backup"
)

// selectionTag begins the IDs and the tag of the selection notices.
const selectionTag = "selection/"

// ourPlace is our place on an alliance once it can no longer change:
// placePicked for a pick, for a captain who picked a partner, or for a
// captain once selection is done or the playoffs are on (until then a
// higher alliance may pick the captain); placeBackup for a backup;
// placeNone otherwise.
func ourPlace(s board.Status) string {
	p := s.Playoffs
	if p == nil || p.Ours == nil {
		return placeNone
	}
	switch r := p.Ours.Role; {
	case r == roleBackup:
		return placeBackup
	case r != roleCaptain, len(board.Decided(p.Ours.Partners)) > 0, p.SelectionDone,
		s.Phase == board.PhasePlayoffs, s.Phase == board.PhaseFinished:
		return placePicked
	}
	return placeNone
}

// notPicked reports whether selection is done without us.
func notPicked(s board.Status) bool {
	return s.Playoffs != nil && s.Playoffs.SelectionDone && s.Playoffs.Ours == nil
}

// outcome returns the notice of how our playoffs ended, when they just did.
func outcome(prev, next board.Status) []Alert {
	o := outcomeOf(next)
	if o == board.OutcomeNone || o == outcomeOf(prev) {
		return nil
	}
	return []Alert{outcomeAlert(next, o)}
}

// outcomeOf is our playoff outcome in s.
func outcomeOf(s board.Status) board.Outcome {
	if s.Playoffs == nil {
		return board.OutcomeNone
	}
	return s.Playoffs.Outcome
}

// matchID names m within its event: "<event>/<label in lower case with hyphens>".
func matchID(s board.Status, m board.Match) string { return s.EventKey + "/" + board.Slug(m.Label) }
