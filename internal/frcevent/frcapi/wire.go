package frcapi

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The wire shapes of the two APIs, as the hub's clients decode them and
// the replay server encodes them. A field the replay writes as null is a
// pointer; a field the clients read with null and absent alike is not.

// FlexString is a JSON string that also accepts a number, and null as "":
// team numbers and ids come as either, depending on the source. It
// encodes as a string.
type FlexString string

// UnmarshalJSON implements json.Unmarshaler.
func (f *FlexString) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		*f = ""
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*f = FlexString(s)
	default:
		var n json.Number
		if err := json.Unmarshal(data, &n); err != nil {
			return fmt.Errorf("want a string or a number, got %s", clip(data))
		}
		*f = FlexString(n.String())
	}
	return nil
}

// clip shortens an upstream value quoted in an error: it reaches the log,
// and one field of a 4 MiB answer must not fill it.
func clip(data []byte) string {
	const limit = 64
	if len(data) <= limit {
		return string(data)
	}
	return string(data[:limit]) + "…"
}

// NexusEventStatus is Nexus's EventStatus: the answer of NexusEvent and
// the body of its webhook. Times are Unix milliseconds. The hub keeps it as
// it came, in its cache file too.
type NexusEventStatus struct {
	EventKey      string              `json:"eventKey"`
	DataAsOfTime  *int64              `json:"dataAsOfTime"`
	NowQueuing    *string             `json:"nowQueuing"`
	Matches       []NexusMatch        `json:"matches"`
	Announcements []NexusAnnouncement `json:"announcements"`
	PartsRequests []NexusPartsRequest `json:"partsRequests"`
}

// NexusMatch is one match of Nexus's schedule.
type NexusMatch struct {
	Label string `json:"label"`
	// Status is one of QueuingSoon … OnField.
	Status string `json:"status"`
	// RedTeams and BlueTeams are team numbers: a null list is an
	// undecided alliance, a null entry an undecided seat.
	RedTeams   []*FlexString `json:"redTeams"`
	BlueTeams  []*FlexString `json:"blueTeams"`
	Times      NexusTimes    `json:"times"`
	BreakAfter *string       `json:"breakAfter"`
	ReplayOf   *string       `json:"replayOf"`
}

// NexusTimes are a match's times; absent where Nexus has none.
type NexusTimes struct {
	EstimatedQueueTime   *int64 `json:"estimatedQueueTime,omitempty"`
	EstimatedOnDeckTime  *int64 `json:"estimatedOnDeckTime,omitempty"`
	EstimatedOnFieldTime *int64 `json:"estimatedOnFieldTime,omitempty"`
	EstimatedStartTime   *int64 `json:"estimatedStartTime,omitempty"`
	ScheduledStartTime   *int64 `json:"scheduledStartTime,omitempty"`
	ActualQueueTime      *int64 `json:"actualQueueTime,omitempty"`
	ActualOnDeckTime     *int64 `json:"actualOnDeckTime,omitempty"`
	ActualOnFieldTime    *int64 `json:"actualOnFieldTime,omitempty"`
	ActualStartTime      *int64 `json:"actualStartTime,omitempty"`
}

// NexusAnnouncement is an announcement of the event's staff.
type NexusAnnouncement struct {
	ID           FlexString `json:"id"`
	Announcement string     `json:"announcement"`
	PostedTime   *int64     `json:"postedTime"`
}

// NexusPartsRequest is a team's request for parts.
type NexusPartsRequest struct {
	ID              FlexString `json:"id"`
	Parts           string     `json:"parts"`
	RequestedByTeam FlexString `json:"requestedByTeam"`
	PostedTime      *int64     `json:"postedTime"`
}

// TBARecord is a W-L-T record.
type TBARecord struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Ties   int `json:"ties"`
}

// TBAMatch is a match of TBA's match lists. Times are Unix seconds. The
// hub keeps the lists as they came, in its cache file too.
type TBAMatch struct {
	Key             string            `json:"key"`
	EventKey        string            `json:"event_key"`
	CompLevel       string            `json:"comp_level"`
	SetNumber       int               `json:"set_number"`
	MatchNumber     int               `json:"match_number"`
	Alliances       TBAMatchAlliances `json:"alliances"`
	WinningAlliance string            `json:"winning_alliance"`
	Time            *int64            `json:"time"`
	PredictedTime   *int64            `json:"predicted_time"`
	ActualTime      *int64            `json:"actual_time"`
	PostResultTime  *int64            `json:"post_result_time"`
	// ScoreBreakdown is each alliance's, by colour, as TBA sent it (its
	// fields differ by season); the simple lists leave it out.
	ScoreBreakdown map[string]json.RawMessage `json:"score_breakdown,omitempty"`
}

// TBAMatchAlliances are a match's two alliances; nil where TBA has none.
type TBAMatchAlliances struct {
	Red  *TBAMatchAlliance `json:"red"`
	Blue *TBAMatchAlliance `json:"blue"`
}

// TBAMatchAlliance is one alliance of a match.
type TBAMatchAlliance struct {
	TeamKeys []string `json:"team_keys"`
	// Score is -1 while unplayed.
	Score      *int     `json:"score"`
	Surrogates []string `json:"surrogate_team_keys"`
	DQ         []string `json:"dq_team_keys"`
}

// TBARanking is one line of the event's rankings, and the ranking of a
// team's status.
type TBARanking struct {
	TeamKey       string    `json:"team_key"`
	Rank          int       `json:"rank"`
	Record        TBARecord `json:"record"`
	MatchesPlayed int       `json:"matches_played"`
	// SortOrders and ExtraStats are the values TBAEventRanking's SortOrderInfo
	// and ExtraStatsInfo name; a team's status has no ExtraStats.
	SortOrders  []float64 `json:"sort_orders"`
	ExtraStats  []float64 `json:"extra_stats,omitzero"`
	DQ          int       `json:"dq"`
	QualAverage *float64  `json:"qual_average"`
}

// TBAEventRanking is the event's rankings, with the names of their values.
type TBAEventRanking struct {
	Rankings       []TBARanking  `json:"rankings"`
	SortOrderInfo  []TBAStatInfo `json:"sort_order_info"`
	ExtraStatsInfo []TBAStatInfo `json:"extra_stats_info"`
}

// TBAStatInfo names one value of the rankings' sort orders or extra stats.
type TBAStatInfo struct {
	Name      string `json:"name"`
	Precision int    `json:"precision"`
}

// TBAEventInfo is an event, in both the full and the simple shape.
type TBAEventInfo struct {
	Key       string `json:"key"`
	Name      string `json:"name"`
	EventCode string `json:"event_code"`
	Year      int    `json:"year"`
	Timezone  string `json:"timezone"`
	// StartDate and EndDate are "YYYY-MM-DD" in the event's timezone.
	StartDate string       `json:"start_date"`
	EndDate   string       `json:"end_date"`
	Webcasts  []TBAWebcast `json:"webcasts"`
	// PlayoffType is PlayoffDoubleElim8, PlayoffDoubleElim4, …
	PlayoffType       *int    `json:"playoff_type"`
	PlayoffTypeString *string `json:"playoff_type_string"`
	// City, StateProv and Country say where the event is; null when TBA
	// does not know.
	City      *string `json:"city"`
	StateProv *string `json:"state_prov"`
	Country   *string `json:"country"`
}

// TBAWebcast is a stream of an event.
type TBAWebcast struct {
	Type    string `json:"type"`
	Channel string `json:"channel"`
	File    string `json:"file,omitempty"`
}

// TBAAlliance is one playoff alliance of the event.
type TBAAlliance struct {
	Name     string             `json:"name,omitempty"`
	Picks    []string           `json:"picks"`
	Declines []string           `json:"declines"`
	Backup   TBABackupKey       `json:"backup,omitzero"`
	Status   *TBAAllianceStatus `json:"status"`
}

// TBABackup is a backup robot: team key In came in for Out.
type TBABackup struct {
	In  string `json:"in"`
	Out string `json:"out"`
}

// TBABackupKey is an alliance's backup key, which may be absent, null or
// a backup: TBA's lists may leave it out even when a backup played, and
// the replay keeps them so.
type TBABackupKey struct {
	// Present is false when the key is absent.
	Present bool
	// Backup is nil for null.
	Backup *TBABackup
}

// IsZero reports an absent key, for omitzero.
func (k TBABackupKey) IsZero() bool { return !k.Present }

// MarshalJSON implements json.Marshaler.
func (k TBABackupKey) MarshalJSON() ([]byte, error) { return json.Marshal(k.Backup) }

// UnmarshalJSON implements json.Unmarshaler.
func (k *TBABackupKey) UnmarshalJSON(data []byte) error {
	k.Present = true
	return json.Unmarshal(data, &k.Backup)
}

// TBAPlayoffStatus is how an alliance stands in the playoffs.
type TBAPlayoffStatus struct {
	// Level is the comp level of its latest match.
	Level              string    `json:"level"`
	Record             TBARecord `json:"record"`
	CurrentLevelRecord TBARecord `json:"current_level_record"`
	// Status is "playing", "eliminated" or "won".
	Status string `json:"status"`
	// DoubleElimRound is as Round names it.
	DoubleElimRound string `json:"double_elim_round"`
}

// TBAAllianceStatus is an alliance's status in the alliance list.
type TBAAllianceStatus struct {
	PlayoffType *int `json:"playoff_type"`
	TBAPlayoffStatus
}

// TBATeamEventStatus is a team's status at an event. The *StatusStr summaries
// are HTML.
type TBATeamEventStatus struct {
	Qual              *TBATeamQual     `json:"qual"`
	Alliance          *TBATeamAlliance `json:"alliance"`
	Playoff           *TBATeamPlayoff  `json:"playoff"`
	AllianceStatusStr string           `json:"alliance_status_str"`
	PlayoffStatusStr  string           `json:"playoff_status_str"`
	OverallStatusStr  string           `json:"overall_status_str"`
	NextMatchKey      *string          `json:"next_match_key"`
	LastMatchKey      *string          `json:"last_match_key"`
	PitLocation       string           `json:"pit_location,omitempty"`
}

// TBATeamQual is the qualification part of a team's status.
type TBATeamQual struct {
	NumTeams int `json:"num_teams"`
	// Status is "playing" or "completed".
	Status string `json:"status"`
	// Ranking is nil before rankings exist.
	Ranking       *TBARanking   `json:"ranking"`
	SortOrderInfo []TBAStatInfo `json:"sort_order_info"`
}

// TBATeamAlliance is the alliance part of a team's status: which alliance
// the team is on and as which pick (0 the captain, 1 the first pick…; -1
// a backup that came in).
type TBATeamAlliance struct {
	Name   string     `json:"name"`
	Number int        `json:"number"`
	Pick   int        `json:"pick"`
	Backup *TBABackup `json:"backup"`
}

// TBATeamPlayoff is the playoff part of a team's status: its alliance's.
type TBATeamPlayoff struct {
	TBAPlayoffStatus
	PlayoffAverage *float64 `json:"playoff_average"`
	// PlayoffType is the event's (PlayoffDoubleElim8 …), which TBA's
	// statuses carry; absent where the replay does not set it.
	PlayoffType *int `json:"playoff_type,omitempty"`
}

// TBAStatuses is the answer of TBATeamEventStatuses: our status
// by event key; nil where TBA has none (an event not started).
type TBAStatuses map[string]*TBATeamEventStatus

// TBAAward is one award at an event, with every recipient of it there.
type TBAAward struct {
	// Name is FIRST's name of it, like "Judges' Award"; it may vary for
	// the same AwardType.
	Name string `json:"name"`
	// AwardType is TBA's number of the award (0 FIRST Impact, 1 Winner,
	// 2 Finalist, 13 Judges' …).
	AwardType     int                 `json:"award_type"`
	EventKey      string              `json:"event_key"`
	RecipientList []TBAAwardRecipient `json:"recipient_list"`
	Year          int                 `json:"year"`
}

// TBAAwardRecipient is a team, a person, both or neither (an award not
// given) receiving an award.
type TBAAwardRecipient struct {
	TeamKey *string `json:"team_key"`
	Awardee *string `json:"awardee"`
}

// TBATeam is a team of the event's simple team list.
type TBATeam struct {
	Key        string  `json:"key"`
	TeamNumber int     `json:"team_number"`
	Nickname   string  `json:"nickname"`
	Name       string  `json:"name"`
	City       *string `json:"city"`
	StateProv  *string `json:"state_prov"`
	Country    *string `json:"country"`
}

// TBAAPIStatus is TBA's status: the seasons and the data feeds that are down.
type TBAAPIStatus struct {
	CurrentSeason  int      `json:"current_season"`
	MaxSeason      int      `json:"max_season"`
	IsDatafeedDown bool     `json:"is_datafeed_down"`
	DownEvents     []string `json:"down_events"`
}

// TBA and Nexus send null for what they do not know, where Go has a zero
// value: Nullable and Deref convert between the two.

// Nullable is &v, or nil for the zero value.
func Nullable[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// Deref is *p, or the zero value for nil.
func Deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
