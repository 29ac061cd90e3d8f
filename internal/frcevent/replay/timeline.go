// Package replay serves the FRC Nexus API and The Blue Alliance API in their
// documented shapes from a scripted timeline, for tests, end-to-end runs and
// the demo. It knows nothing of the frcevent package: it only speaks the
// upstream wire formats.
package replay

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// Offset is a time relative to the start of the timeline (of the current
// round when it loops). In JSON it is a Go duration string, like "90s" or
// "-1h30m", so a timeline can be shifted to any start.
type Offset time.Duration

// MarshalJSON implements json.Marshaler.
func (o Offset) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(o).String())
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *Offset) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("offset: want a duration string like \"90s\", got %s", data)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("offset: %w", err)
	}
	*o = Offset(d)
	return nil
}

// At returns a pointer to the offset d, for the optional times.
func At(d time.Duration) *Offset {
	o := Offset(d)
	return &o
}

// Timeline is a scripted event: steps that change the upstream state at
// offsets from its start.
type Timeline struct {
	// Team is the team number the /team/ endpoints of TBA answer for.
	Team int `json:"team"`
	// Event is the TBA event key; NexusEvent the Nexus one ("" means Event).
	Event      string `json:"event"`
	NexusEvent string `json:"nexusEvent,omitempty"`
	// Length is the length of one round when the timeline loops.
	Length Offset `json:"length"`
	// Steps apply in order of At; a step at At <= 0 is the initial state.
	Steps []Step `json:"steps"`
}

// Step replaces, at At, every part of the state that it sets; nil parts
// are left as they were. An empty, non-nil list empties that part.
type Step struct {
	At Offset `json:"at"`
	State
}

// State is the upstream data at one moment.
type State struct {
	// Nexus is the event's schedule on Nexus; nil means the event does not
	// use Nexus (404).
	Nexus *NexusEvent `json:"nexus,omitempty"`
	// Announcements and PartsRequests are Nexus's, each shown from its
	// Posted offset on.
	Announcements []Announcement `json:"announcements,omitempty"`
	PartsRequests []PartsRequest `json:"partsRequests,omitempty"`
	// Pits maps team numbers to pit addresses.
	Pits map[string]string `json:"pits,omitempty"`
	// TeamStatus is the team's TBA status; nil is served as null.
	TeamStatus *TeamStatus `json:"teamStatus,omitempty"`
	// Matches are every TBA match of the event.
	Matches []Match `json:"matches,omitempty"`
	// Event is the TBA event; nil means TBA does not know it (404).
	Event *Event `json:"event,omitempty"`
	// TeamEvents are the team's events of the year; nil means [Event].
	TeamEvents []Event `json:"teamEvents,omitempty"`
	// Rankings are the event's rankings; nil is served as null.
	Rankings []Ranking `json:"rankings,omitempty"`
	// SortOrderInfo and ExtraStatsInfo name the values of each ranking's
	// SortOrders and ExtraStats; nil is served as [].
	SortOrderInfo  []StatInfo `json:"sortOrderInfo,omitempty"`
	ExtraStatsInfo []StatInfo `json:"extraStatsInfo,omitempty"`
	// Alliances are the playoff alliances in number order; nil is served
	// as null, as TBA answers before alliance selection.
	Alliances []Alliance `json:"alliances,omitempty"`
	// Teams are the event's teams; nil is served as [].
	Teams []Team `json:"teams,omitempty"`
	// DownEvents are the event keys TBA's /status lists as down.
	DownEvents []string `json:"downEvents,omitempty"`
	// Awards are the team's awards at the event, once given.
	Awards []Award `json:"awards,omitempty"`
	// Season are the team's other events of the year, each with its
	// status and awards there: listed among its events after TeamEvents
	// (or Event), in its statuses and in its awards.
	Season []SeasonEvent `json:"season,omitempty"`
}

// SeasonEvent is another event of the team's season on TBA.
type SeasonEvent struct {
	Event Event `json:"event"`
	// Status is the team's status there, its summaries written as for the
	// event's (its alliance and playoff parts as set); nil is served as
	// null, as TBA does for an event not started.
	Status *TeamStatus `json:"status,omitempty"`
	// Awards are the team's awards there.
	Awards []Award `json:"awards,omitempty"`
}

// Award is an award the team received, served in TBA's shape with the
// team as its one recipient.
type Award struct {
	Name string `json:"name"`
	// Type is TBA's award_type (0 FIRST Impact, 1 Winner, 13 Judges' …).
	Type int `json:"type"`
}

// NexusEvent is the part of Nexus's EventStatus that is a schedule.
type NexusEvent struct {
	// NowQueuing is served as is when set; nil means the last match whose
	// actual queue time has passed.
	NowQueuing *string      `json:"nowQueuing,omitempty"`
	Matches    []NexusMatch `json:"matches"`
}

// NexusMatch is one match on Nexus.
type NexusMatch struct {
	Label string `json:"label"`
	// Status is served as is when set; "" means derived from the actual
	// times that have passed: frcapi.OnField, OnDeck, NowQueuing, else
	// QueuingSoon.
	Status string `json:"status,omitempty"`
	// RedTeams and BlueTeams are team numbers; a nil entry is an undecided
	// seat and a nil list an undecided alliance.
	RedTeams   []*string  `json:"redTeams"`
	BlueTeams  []*string  `json:"blueTeams"`
	Times      NexusTimes `json:"times"`
	BreakAfter string     `json:"breakAfter,omitempty"`
	ReplayOf   string     `json:"replayOf,omitempty"`
	// Listed is when the match appears on Nexus; nil means always.
	Listed *Offset `json:"listed,omitempty"`
	// Decided is when its alliances are known: before it, RedTeams and
	// BlueTeams are served as null (a playoff match waiting for the
	// matches that feed it); nil means always.
	Decided *Offset `json:"decided,omitempty"`
}

// NexusTimes are a match's times. Estimates are always served; an actual
// time only once it has passed.
type NexusTimes struct {
	EstimatedQueue   *Offset `json:"estimatedQueue,omitempty"`
	EstimatedOnDeck  *Offset `json:"estimatedOnDeck,omitempty"`
	EstimatedOnField *Offset `json:"estimatedOnField,omitempty"`
	EstimatedStart   *Offset `json:"estimatedStart,omitempty"`
	ScheduledStart   *Offset `json:"scheduledStart,omitempty"`
	ActualQueue      *Offset `json:"actualQueue,omitempty"`
	ActualOnDeck     *Offset `json:"actualOnDeck,omitempty"`
	ActualOnField    *Offset `json:"actualOnField,omitempty"`
	ActualStart      *Offset `json:"actualStart,omitempty"`
}

// Announcement is a Nexus announcement.
type Announcement struct {
	ID     string `json:"id"`
	Text   string `json:"announcement"`
	Posted Offset `json:"posted"`
}

// PartsRequest is a Nexus parts request.
type PartsRequest struct {
	ID     string `json:"id"`
	Parts  string `json:"parts"`
	Team   string `json:"team"`
	Posted Offset `json:"posted"`
}

// TeamStatus is the team's status at the event on TBA, served in TBA's
// nested shape.
type TeamStatus struct {
	Rank         int    `json:"rank"` // 0: no ranking yet
	NumTeams     int    `json:"numTeams"`
	Record       Record `json:"record"`
	NextMatchKey string `json:"nextMatchKey,omitempty"`
	LastMatchKey string `json:"lastMatchKey,omitempty"`
	PitLocation  string `json:"pitLocation,omitempty"` // "": absent
	// OverallStatusStr, AllianceStatusStr and PlayoffStatusStr replace the
	// summaries TBA writes in HTML; "" means the usual ones ("Team N is
	// <b>Rank …</b>", "--"). A test sets them to hostile markup.
	OverallStatusStr  string `json:"overallStatusStr,omitempty"`
	AllianceStatusStr string `json:"allianceStatusStr,omitempty"`
	PlayoffStatusStr  string `json:"playoffStatusStr,omitempty"`
	// QualStatus is TBA's qual.status ("not_started", "playing",
	// "completed"); "" means derived: "completed" once the state has
	// alliances, else "playing" (a season's other event: "completed").
	QualStatus string `json:"qualStatus,omitempty"`
	// Alliance and Playoff are the status's alliance and playoff parts
	// when set; nil means derived from the state's Alliances and the
	// playoff matches played so far (null while the team is on no
	// alliance; a season's other event: null).
	Alliance *TeamAlliance `json:"alliance,omitempty"`
	Playoff  *TeamPlayoff  `json:"playoff,omitempty"`
}

// TeamAlliance is the alliance part of a team's status, in TBA's shape.
type TeamAlliance = frcapi.TBATeamAlliance

// TeamPlayoff is the playoff part of a team's status, in TBA's shape.
type TeamPlayoff = frcapi.TBATeamPlayoff

// Alliance is one playoff alliance on TBA.
type Alliance struct {
	// Name is served as is; "" leaves the name out, as TBA's lists may.
	Name string `json:"name,omitempty"`
	// Picks are team keys, captain first.
	Picks    []string `json:"picks"`
	Declines []string `json:"declines,omitempty"`
	// Backup is the robot that came in, served as null when nil…
	Backup *Backup `json:"backup,omitempty"`
	// …unless NoBackupKey, which leaves the key out: TBA's real lists do,
	// even when a backup played.
	NoBackupKey bool `json:"noBackupKey,omitempty"`
	// Status is served as is when set; nil means derived from the playoff
	// matches whose results are out (null before the alliance's first
	// playoff match is listed).
	Status *AllianceStatus `json:"status,omitempty"`
}

// Backup is a backup robot, in TBA's shape.
type Backup = frcapi.TBABackup

// AllianceStatus is how an alliance stands in the playoffs, in TBA's
// shape: Level "sf" or "f", Record counting every playoff match and
// CurrentLevelRecord those of Level.
type AllianceStatus = frcapi.TBAPlayoffStatus

// Team is one team at the event.
type Team struct {
	Number    int    `json:"number"`
	Nickname  string `json:"nickname"`
	Name      string `json:"name,omitempty"`
	City      string `json:"city,omitempty"`
	StateProv string `json:"stateProv,omitempty"`
	Country   string `json:"country,omitempty"`
}

// StatInfo names one value of the rankings' sort orders or extra stats,
// in TBA's shape.
type StatInfo = frcapi.TBAStatInfo

// Record is a W-L-T record, in TBA's shape.
type Record = frcapi.TBARecord

// Match is a TBA match. Its actual time is served once it has passed, its
// scores and winner once ResultAt (else ActualTime) has; -1 before.
type Match struct {
	Key             string   `json:"key"`
	CompLevel       string   `json:"compLevel"`
	SetNumber       int      `json:"setNumber"`
	MatchNumber     int      `json:"matchNumber"`
	Red             []string `json:"red"` // team keys, "frc254"
	Blue            []string `json:"blue"`
	RedScore        int      `json:"redScore"`
	BlueScore       int      `json:"blueScore"`
	WinningAlliance string   `json:"winningAlliance,omitempty"`
	Time            *Offset  `json:"time,omitempty"`
	PredictedTime   *Offset  `json:"predictedTime,omitempty"`
	ActualTime      *Offset  `json:"actualTime,omitempty"`
	ResultAt        *Offset  `json:"resultAt,omitempty"`
	// Breakdown is each alliance's score breakdown by colour, served with
	// the result in the event's match list (TBA's full one); nil serves none.
	Breakdown map[string]json.RawMessage `json:"breakdown,omitempty"`
	// Surrogates and DQ are team keys, each served in its alliance's
	// surrogate_team_keys or dq_team_keys.
	Surrogates []string `json:"surrogates,omitempty"`
	DQ         []string `json:"dq,omitempty"`
	// Listed is when the match appears in TBA's lists; nil means always.
	Listed *Offset `json:"listed,omitempty"`
	// Decided is when its alliances are known: before it, both are served
	// with empty team keys; nil means always.
	Decided *Offset `json:"decided,omitempty"`
}

// Event is a TBA event. Its dates are days from the timeline's start, in
// the event's timezone.
type Event struct {
	Key      string    `json:"key"`
	Name     string    `json:"name"`
	Timezone string    `json:"timezone"`
	StartDay int       `json:"startDay"`
	EndDay   int       `json:"endDay"`
	Webcasts []Webcast `json:"webcasts,omitempty"`
	// PlayoffType is TBA's: frcapi.PlayoffDoubleElim8, PlayoffDoubleElim4, …;
	// 0 is served as null.
	PlayoffType int `json:"playoffType,omitempty"`
	// City, StateProv and Country say where it is; "" is served as null.
	City      string `json:"city,omitempty"`
	StateProv string `json:"stateProv,omitempty"`
	Country   string `json:"country,omitempty"`
}

// Webcast is a TBA webcast, in TBA's shape.
type Webcast = frcapi.TBAWebcast

// Ranking is one line of TBA's rankings, in TBA's shape. MatchesPlayed is
// served as is when set, and 0 as the record's sum; SortOrders and
// ExtraStats are the values State.SortOrderInfo and ExtraStatsInfo name,
// and nil is served as [].
type Ranking = frcapi.TBARanking

// Parse reads a timeline in its JSON form; unknown fields are errors, so a
// typo in a script does not pass unnoticed.
func Parse(data []byte) (Timeline, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var tl Timeline
	if err := dec.Decode(&tl); err != nil {
		return Timeline{}, fmt.Errorf("replay: parse timeline: %w", err)
	}
	if err := tl.validate(); err != nil {
		return Timeline{}, err
	}
	return tl, nil
}

func (tl Timeline) validate() error {
	if tl.Event == "" || tl.Team <= 0 {
		return fmt.Errorf("replay: timeline needs an event and a team")
	}
	return nil
}

//go:embed demo.json
var demoJSON []byte

// Demo returns the bundled demo: the whole of the made-up event 2026demo
// for team 1209, compressed into 640 s a round. Qualifications as the
// morning's (0–220 s), lunch, the afternoon's (290–385 s); alliance
// selection (385–420 s: captains at 395 s, our pick as Alliance 3's first
// at 405 s); the double-elimination bracket (Playoff N at 450 + 9(N-1) s,
// results 5 s later), where we lose Playoff 8, win on in the lower half
// and a backup robot (4613 for 6328) comes in at 536 s; the finals at
// 575, 590 and 605 s, which we win 2-1; the awards break until 640 s, our
// awards given at 625 s. The season around it: the Fort Smith Regional
// three weeks before (12th of 38, eliminated in Round 4 as Alliance 5's
// first pick, the Judges' Award) and the Oklahoma State Championship
// four weeks after, not started (both invented).
// TBA lists a bracket match once decided and the finals from selection on
// with empty team keys; Nexus lists every playoff match from selection on
// with null teams until decided.
func Demo() Timeline {
	tl, err := Parse(demoJSON)
	if err != nil {
		panic(err) // the embedded file is tested; a broken one is a build error
	}
	return tl
}
