package board

import (
	"slices"
	"strconv"
	"time"
)

// Status is everything the pit display shows, merged from Nexus and TBA.
// Its JSON is what /api/event, the live stream and the window's "event" event
// carry; the page's TypeScript types are generated from it (cmd/gen).
type Status struct {
	// Configured is false when no event is set (--event off, or none was
	// found for the team this year); the page then explains how to set one.
	Configured bool `json:"configured"`
	// Message says in words why Configured is false, like "No event found
	// for team 1209 today"; "" when it is true.
	Message string `json:"message"`
	// Team is our team number.
	Team int `json:"team"`
	// EventKey is the TBA event key, like "2026okok"; NexusEventKey the key
	// used with Nexus (differs for championship divisions).
	EventKey      string `json:"eventKey"`
	NexusEventKey string `json:"nexusEventKey"`
	// EventName is the event's name from TBA ("" until known).
	EventName string `json:"eventName"`
	// Timezone is the event's IANA zone, like "America/Chicago" ("" until known).
	Timezone string `json:"timezone"`
	// EventPlace is where the event is, like "Tulsa, OK, USA" ("" until known).
	EventPlace string `json:"eventPlace"`
	// EventStart and EventEnd are its first and last days, "YYYY-MM-DD"
	// in its timezone ("" until known): the follow page says "day 2 of 3".
	EventStart string `json:"eventStart"`
	EventEnd   string `json:"eventEnd"`
	// Phase is where the event is; PhaseNone before any schedule is known.
	Phase Phase `json:"phase"`
	// Season is our events of the year on TBA with our result at each, by
	// start date: the follow page shows it between events. It is there
	// without an event too; empty until TBA answered.
	Season []SeasonEvent `json:"season"`

	// NextMatch is our first match not yet on field; nil when none is left
	// or the schedule is not out.
	NextMatch *Match `json:"nextMatch"`
	// Upcoming are up to 2 of our matches after NextMatch, in order.
	Upcoming []Match `json:"upcoming"`
	// Recent are up to 2 of our matches already on field or played, the
	// latest first.
	Recent []Match `json:"recent"`
	// OnField is the match on the field now (any teams); nil when unknown.
	OnField *Match `json:"onField"`
	// NowQueuing is the label of the match Nexus says is queuing now ("" when none).
	NowQueuing string `json:"nowQueuing"`
	// Schedule is every match of ours known so far, in playing order: the
	// calendar's events.
	Schedule []Match `json:"schedule"`
	// FieldLateMinutes is how far the field runs behind its published
	// schedule (negative: ahead): the next match's estimated start against
	// its schedule when there is an estimate, else the median of the last
	// three actual starts (fieldLate); nil when neither is known.
	FieldLateMinutes *int `json:"fieldLateMinutes"`
	// Playoffs is the alliance selection and the bracket; nil before the
	// alliances are known.
	Playoffs *Playoffs `json:"playoffs"`
	// TeamCards are the teams of our next match, ours first, with figures
	// this program computes from the event's played qualification matches.
	TeamCards []TeamCard `json:"teamCards"`
	// Prediction is our chance to win the next match; nil without enough
	// played matches to rate the teams, or while a team of the match is
	// not known (an opponent still to be decided).
	Prediction *Prediction `json:"prediction"`

	// Rank is our ranking; nil before rankings exist.
	Rank *Rank `json:"rank"`
	// Forecast is our forecast final qualification rank: from the
	// forecast's MinPlayed qualification matches played until the last is;
	// nil otherwise.
	Forecast *RankForecast `json:"forecast"`
	// RankCriteria are our values of the event's sort criteria, in TBA's
	// order and with TBA's names (the first is the ranking score).
	RankCriteria []Criterion `json:"rankCriteria"`
	// RankTrend is our rank after each of our played qualification
	// matches that this program saw, oldest first.
	RankTrend []int `json:"rankTrend"`
	// Pit is our pit address, like "B12" ("" when unknown).
	Pit string `json:"pit"`
	// Announcements are the field's announcements, newest first.
	Announcements []Announcement `json:"announcements"`
	// PartsRequests are the open parts requests, newest first.
	PartsRequests []PartsRequest `json:"partsRequests"`
	// Webcasts are the event's streams.
	Webcasts []Webcast `json:"webcasts"`

	// Nexus and TBA say how each source is doing and how old its data is.
	Nexus Source `json:"nexus"`
	TBA   Source `json:"tba"`
	// AsOf is the time of the newest data of either source; zero when there is none.
	AsOf time.Time `json:"asOf"`
	// Stale is true when AsOf is more than StaleAfter old: the page says
	// so over the last known data. The hub publishes again when the data
	// turns stale, so every screen learns it without new data.
	Stale bool `json:"stale"`
	// FeedDown is true when TBA's /status lists this event's data feed as
	// down: what the page shows may be old even though the sources answer.
	FeedDown bool `json:"feedDown"`
}

// Match is one match as the pit display shows it.
type Match struct {
	// Key is TBA's match key, like "2026okok_qm14" ("" when only Nexus knows it).
	Key string `json:"key"`
	// Label is the match's name exactly as Nexus gives it, like "Qualification 14";
	// built from TBA's comp level and numbers when Nexus does not know it.
	Label string `json:"label"`
	// Status is Nexus's word for the match: "Queuing soon", "Now queuing",
	// "On deck" or "On field"; "" when Nexus does not say.
	Status string `json:"status"`
	// Step is how far the match is in the queue: StepNone, StepQueuing,
	// StepOnDeck or StepOnField; a step reached gets no countdown.
	Step int `json:"step"`
	// Urgent is true when the crew must go now: queuing or on deck.
	Urgent bool `json:"urgent"`
	// Alliance is our colour in this match; ColourNone when we do not play it.
	Alliance Colour `json:"alliance"`
	// Red and Blue are the team numbers of each alliance; an entry is "" while
	// undecided (playoffs). Both are empty while the whole alliance is undecided.
	Red  []string `json:"red"`
	Blue []string `json:"blue"`
	// Partners are our alliance partners (our alliance less us).
	Partners []string `json:"partners"`
	// Times are Nexus's estimates, or TBA's predicted/scheduled times.
	Times MatchTimes `json:"times"`
	// BreakAfter is the break that follows this match: "Break", "Lunch",
	// "End of day", "Alliance selection", "Awards break" or "".
	BreakAfter string `json:"breakAfter"`
	// RedScore and BlueScore are the final scores; nil while unplayed.
	RedScore  *int `json:"redScore"`
	BlueScore *int `json:"blueScore"`
	// Result is ours once played; ResultNone before, or when we do not play it.
	Result Result `json:"result"`
	// ReplayOf is the label of the match this one replays ("" when none).
	ReplayOf string `json:"replayOf"`
	// When is the match's start as the pit shows it: the instant and where
	// it comes from; nil when no start is known.
	When *When `json:"when"`
	// Turnaround warns of little time since our previous match; nil when
	// there is enough.
	Turnaround *Turnaround `json:"turnaround"`
}

// When is a match's start, or its start so far: the instant At and its
// Kind, which says which of the match's times it is.
type When struct {
	// Kind is TimeActual (At is the actual start), TimeEstimated (Nexus's
	// or TBA's estimate) or TimeScheduled (the published schedule).
	Kind TimeKind `json:"kind"`
	// At is the instant.
	At time.Time `json:"at"`
}

// TimeKind says which time of a match When names.
type TimeKind string

// The kinds of a match's time (When.Kind).
const (
	// TimeActual: the match started at At.
	TimeActual TimeKind = "actual"
	// TimeEstimated: Nexus's or TBA's estimate of the start.
	TimeEstimated TimeKind = "estimated"
	// TimeScheduled: the published schedule's start.
	TimeScheduled TimeKind = "scheduled"
)

// Turnaround is little time between our previous match and this one: it
// is the match just before, the one before that, or a few minutes before.
type Turnaround struct {
	// Kind says which.
	Kind TurnaroundKind `json:"kind" wire:"tag"`
	// Minutes lie between the two starts (TurnaroundMinutes only).
	Minutes int `json:"minutes,omitempty" wire:"minutes"`
}

// TurnaroundKind says how little time lies between two of our matches.
type TurnaroundKind string

// The kinds of a Turnaround.
const (
	// TurnaroundBackToBack: our previous match is the one just before.
	TurnaroundBackToBack TurnaroundKind = "backToBack"
	// TurnaroundOneBetween: one match lies between ours.
	TurnaroundOneBetween TurnaroundKind = "oneBetween"
	// TurnaroundMinutes: turnaroundWithin or less lies between the starts.
	TurnaroundMinutes TurnaroundKind = "minutes"
)

// Colour is an alliance's colour in a match.
type Colour string

// The colours of a match's alliances.
const (
	// ColourNone: no colour (we do not play the match, nothing decided).
	ColourNone Colour = ""
	// ColourRed is the red alliance.
	ColourRed Colour = "red"
	// ColourBlue is the blue alliance.
	ColourBlue Colour = "blue"
)

// Result is how a played match ended for us.
type Result string

// The results of a match (Match.Result).
const (
	// ResultNone: not played yet, or not ours.
	ResultNone Result = ""
	// ResultWin: we won it.
	ResultWin Result = "win"
	// ResultLoss: we lost it.
	ResultLoss Result = "loss"
	// ResultTie: it was a tie.
	ResultTie Result = "tie"
)

// Decided is teams less the seats still undecided (""), as a Match's Red,
// Blue and Partners hold them.
func Decided(teams []string) []string {
	return slices.DeleteFunc(slices.Clone(teams), func(t string) bool { return t == "" })
}

// MatchTimes are a match's times; nil where unknown.
type MatchTimes struct {
	// Queue is Nexus's estimate of when the match is called to queue.
	Queue *time.Time `json:"queue"`
	// OnDeck is Nexus's estimate of when the match goes on deck.
	OnDeck *time.Time `json:"onDeck"`
	// OnField is Nexus's estimate of when its teams go on the field.
	OnField *time.Time `json:"onField"`
	// Start is an estimate of when the match starts: Nexus's, else TBA's
	// predicted time.
	Start *time.Time `json:"start"`
	// Scheduled is when the published schedule has the match start.
	Scheduled *time.Time `json:"scheduled"`
	// ActualStart is when the match really started; nil until it has.
	ActualStart *time.Time `json:"actualStart"`
}

// Rank is our place in the qualification rankings.
type Rank struct {
	// Rank is our place, 1 for the first.
	Rank int `json:"rank"`
	// Of is the number of teams ranked.
	Of int `json:"of"`
	// Record is our qualification record.
	Record Record `json:"record"`
}

// Criterion is one sort criterion of the rankings and our value of it.
type Criterion struct {
	// Name is TBA's name of it, like "Ranking Score" or "Avg Auto".
	Name string `json:"name"`
	// Value is ours, rounded as TBA says.
	Value float64 `json:"value"`
	// Precision is how many decimals TBA shows.
	Precision int `json:"precision"`
}

// Playoffs is alliance selection and the playoff bracket.
type Playoffs struct {
	// Type is TBA's playoff type: PlayoffDoubleElim8 (10) double elimination
	// of 8 alliances, PlayoffDoubleElim4 (11) of 4; other types show the
	// matches as TBA lists them.
	Type int `json:"type"`
	// Alliances are every alliance in number order.
	Alliances []Alliance `json:"alliances"`
	// Ours is our alliance; nil when we are on none.
	Ours *OurAlliance `json:"ours"`
	// SelectionDone is true once every alliance has its captain and two
	// picks: from then on, a team on none was not selected.
	SelectionDone bool `json:"selectionDone"`
	// Bracket is every playoff match of the bracket, in number order, with
	// the finals last; empty for playoff types without known routes.
	Bracket []BracketMatch `json:"bracket"`
	// Record is our playoff record; Round the round of our last played
	// playoff match ("Round 1" … "Round 5", "Finals"), "" before it.
	Record Record `json:"record"`
	Round  string `json:"round"`
	// State is ours; AllianceNone when we are on no alliance.
	State AllianceState `json:"state"`
	// Outcome is the end of the playoffs for us (OutcomeEliminated: in
	// Round); OutcomeNone while we play on.
	Outcome Outcome `json:"outcome"`
	// Next is our next playoff match; nil when none is left or known.
	Next *PlayoffNext `json:"next"`
}

// Alliance is one playoff alliance.
type Alliance struct {
	// Number is its seed, 1 for the first.
	Number int `json:"number"`
	// Name is TBA's name, like "Alliance 6".
	Name string `json:"name"`
	// Teams are the team numbers, captain first, then the picks in order.
	Teams []string `json:"teams"`
	// Backup is the team that came in for another ("" when none), and Out
	// the team it replaced.
	Backup string `json:"backup"`
	Out    string `json:"out"`
	// State is AllianceNone before the playoffs.
	State AllianceState `json:"state"`
	// Round is the double-elimination round of its last played match,
	// "Round 1" … "Finals"; "" before it played.
	Round string `json:"round"`
	// Ours is true for our alliance.
	Ours bool `json:"ours"`
}

// OurAlliance is our place on an alliance.
type OurAlliance struct {
	// Number is the alliance's number.
	Number int `json:"number"`
	// Role is ours: "captain", "first pick", "second pick", "third pick" or
	// "backup".
	Role string `json:"role"`
	// Partners are the other teams of the alliance, in pick order.
	Partners []string `json:"partners"`
}

// BracketMatch is one match of the playoff bracket.
type BracketMatch struct {
	// Number is the bracket match's number, which Nexus labels "Playoff 7";
	// 0 for the finals.
	Number int `json:"number"`
	// Round is TBA's name of its round: "Round 1" … "Round 5" or "Finals".
	Round string `json:"round"`
	// Red and Blue are the alliances playing it.
	Red  BracketSide `json:"red"`
	Blue BracketSide `json:"blue"`
	// Winner is ColourNone until decided.
	Winner Colour `json:"winner"`
	// RedWins and BlueWins count the matches won in a series (the finals);
	// 0 or 1 elsewhere.
	RedWins  int `json:"redWins"`
	BlueWins int `json:"blueWins"`
	// Ours is true when our alliance plays or played it.
	Ours bool `json:"ours"`
}

// BracketSide is one alliance of a bracket match, known or not yet.
type BracketSide struct {
	// Alliance is its number; 0 while undecided.
	Alliance int `json:"alliance"`
	// From is where it comes from: a seed, or the winner or loser of an
	// earlier bracket match.
	From BracketSource `json:"from"`
}

// BracketSource is an alliance of a bracket match as the bracket knows it
// before the match: an alliance by its number, or the winner or the loser
// of an earlier bracket match.
type BracketSource struct {
	// Kind says which.
	Kind SourceKind `json:"kind" wire:"tag"`
	// Alliance is the alliance's number (SourceAlliance).
	Alliance int `json:"alliance,omitempty" wire:"alliance"`
	// Match is the earlier bracket match's number (SourceWinnerOf,
	// SourceLoserOf).
	Match int `json:"match,omitempty" wire:"winnerOf loserOf"`
}

// SourceKind says what a BracketSource names.
type SourceKind string

// The kinds of a BracketSource.
const (
	// SourceAlliance: an alliance, by its number.
	SourceAlliance SourceKind = "alliance"
	// SourceWinnerOf: the winner of an earlier bracket match.
	SourceWinnerOf SourceKind = "winnerOf"
	// SourceLoserOf: the loser of an earlier bracket match.
	SourceLoserOf SourceKind = "loserOf"
)

// Route is where an alliance goes after a playoff match: a bracket match
// and its colour there, the finals, the next game of the finals, or out of
// the playoffs as eliminated or as the event's winners.
type Route struct {
	// Kind says which.
	Kind RouteKind `json:"kind" wire:"tag"`
	// Match is the bracket match's number (RoutePlayoff).
	Match int `json:"match,omitempty" wire:"playoff"`
	// Colour is the alliance's colour there (RoutePlayoff, RouteFinals).
	Colour Colour `json:"colour,omitempty" wire:"playoff finals"`
	// Game is the finals' game, 2 for the second (RouteFinal).
	Game int `json:"game,omitempty" wire:"final"`
}

// RouteKind says where a Route goes.
type RouteKind string

// The kinds of a Route.
const (
	// RoutePlayoff: a bracket match ("Playoff 13", blue).
	RoutePlayoff RouteKind = "playoff"
	// RouteFinals: the finals, in a colour.
	RouteFinals RouteKind = "finals"
	// RouteFinal: the next game of the finals series.
	RouteFinal RouteKind = "final"
	// RouteEliminated: out of the playoffs.
	RouteEliminated RouteKind = "eliminated"
	// RouteWinners: the event's winners.
	RouteWinners RouteKind = "winners"
)

// AllianceState is how an alliance stands in the playoffs.
type AllianceState string

// The states of an alliance (Alliance.State, Playoffs.State).
const (
	// AllianceNone: before the playoffs, or (Playoffs.State) on no alliance.
	AllianceNone AllianceState = ""
	// AlliancePlaying: it plays on.
	AlliancePlaying AllianceState = "playing"
	// AllianceEliminated: it is out.
	AllianceEliminated AllianceState = "eliminated"
	// AllianceWon: it won the event.
	AllianceWon AllianceState = "won"
)

// Outcome is how the playoffs ended for us.
type Outcome string

// The outcomes of our playoffs (Playoffs.Outcome).
const (
	// OutcomeNone: we play on, or are on no alliance.
	OutcomeNone Outcome = ""
	// OutcomeWinners: we won the event.
	OutcomeWinners Outcome = "winners"
	// OutcomeFinalists: we lost the finals.
	OutcomeFinalists Outcome = "finalists"
	// OutcomeEliminated: we were eliminated in Playoffs.Round.
	OutcomeEliminated Outcome = "eliminated"
)

// PlayoffNext is our next playoff match and what follows it.
type PlayoffNext struct {
	// Match is its bracket match's number (Nexus's "Playoff 13"); 0 for
	// the finals.
	Match int `json:"match"`
	// Game is the game of the finals (Nexus's "Final 2"); 0 outside them.
	Game int `json:"game"`
	// Alliance is our colour in it.
	Alliance Colour `json:"alliance"`
	// Opponent is the other alliance: by its number once known, else the
	// bracket match it comes from.
	Opponent BracketSource `json:"opponent"`
	// IfWin and IfLose are where we go after it.
	IfWin  Route `json:"ifWin"`
	IfLose Route `json:"ifLose"`
	// Series is the finals' score so far; nil outside the finals.
	Series *Series `json:"series"`
}

// Series is the score of the finals so far, in games won.
type Series struct {
	// Ours and Theirs are the games each alliance won.
	Ours   int `json:"ours"`
	Theirs int `json:"theirs"`
}

// label is Nexus's name of the match: "Playoff 13", "Final 2".
func (n PlayoffNext) label() string {
	if n.Match == 0 {
		return "Final " + strconv.Itoa(n.Game)
	}
	return playoffLabel(n.Match)
}

// TeamCard is one team of a match with what this program knows of it.
type TeamCard struct {
	// Team is the team number, Name its nickname ("" when unknown).
	Team string `json:"team"`
	Name string `json:"name"`
	// Alliance is its colour in the match.
	Alliance Colour `json:"alliance"`
	// OPR is its offensive power rating at this event: the points it adds
	// to its alliance's score, by least squares over the played
	// qualification matches; nil before there are enough.
	OPR *float64 `json:"opr"`
	// Forecast is its forecast final rank, like Status.Forecast.
	Forecast *RankForecast `json:"forecast"`
}

// Prediction is our chance to win the next match, from the alliances' rating
// sums (frcstats.Predict).
type Prediction struct {
	// WinChance is between 0 and 1.
	WinChance float64 `json:"winChance"`
	// Matches is how many played qualification matches the ratings rest
	// on: the page says so beside the chance.
	Matches int `json:"matches"`
}

// Phase is where an event is.
type Phase string

// The phases of an event (Status.Phase).
const (
	// PhaseNone: no schedule is known yet.
	PhaseNone Phase = ""
	// PhaseQualifications: qualification matches.
	PhaseQualifications Phase = "qualifications"
	// PhaseAllianceSelection: the alliances are being formed.
	PhaseAllianceSelection Phase = "alliance selection"
	// PhasePlayoffs: the playoff bracket and the finals.
	PhasePlayoffs Phase = "playoffs"
	// PhaseFinished: the event has its winners.
	PhaseFinished Phase = "finished"
)

// Record is a W-L-T record.
type Record struct {
	// Wins, Losses and Ties count the qualification matches of each outcome.
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Ties   int `json:"ties"`
}

// Announcement is a message of the event staff to every team.
type Announcement struct {
	// ID is Nexus's id of the announcement, stable across updates.
	ID string `json:"id"`
	// Text is the message as the staff wrote it (plain text).
	Text string `json:"text"`
	// Posted is when it was posted; zero when Nexus did not say.
	Posted time.Time `json:"posted"`
}

// PartsRequest is a team asking the pits for a part.
type PartsRequest struct {
	// ID is Nexus's id of the request, stable across updates.
	ID string `json:"id"`
	// Team is the number of the team asking, like "1209".
	Team string `json:"team"`
	// Parts says what they need, as they wrote it (plain text).
	Parts string `json:"parts"`
	// Posted is when they asked; zero when Nexus did not say.
	Posted time.Time `json:"posted"`
}

// Webcast is one stream of the event.
type Webcast struct {
	// Type is TBA's webcast type, like "twitch" or "youtube".
	Type string `json:"type"`
	// URL is where to watch it (https only).
	URL string `json:"url"`
}

// Source is how one upstream is doing.
type Source struct {
	// State is how it answered.
	State SourceState `json:"state"`
	// Message says the state in words for the page, like "Nexus key rejected".
	Message string `json:"message"`
	// AsOf is when this source last gave good data (Nexus: its dataAsOfTime);
	// zero when it never did.
	AsOf time.Time `json:"asOf"`
}

// SourceState is how an upstream answered.
type SourceState string

// The states of a Source. The page words its notice after them.
const (
	// StateOK means the source answered with good data at its last request.
	StateOK SourceState = "ok"
	// StateOff means the source is not configured (no key) and is never asked.
	StateOff SourceState = "off"
	// StateKeyRejected means the source answered 401 or 403 to our key.
	StateKeyRejected SourceState = "key rejected"
	// StateNotFound means the source does not know the event (404).
	StateNotFound SourceState = "event not found"
	// StateUnreachable means a network error, a timeout, a 5xx, or a body
	// that is malformed or too big.
	StateUnreachable SourceState = "unreachable"
	// StateDown means TBA answers but lists the event's data feed as down.
	StateDown SourceState = "down"
)
