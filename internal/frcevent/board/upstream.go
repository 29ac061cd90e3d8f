// Package board derives what the pit display shows, a [Status], from the
// last good answers of FRC Nexus and The Blue Alliance, an [Upstream], at a
// time given as a value. It is pure on purpose: no goroutine, no clock, no
// network or file, so that the same answers and time always give the same
// board, and its tests need no server. The hub in package frcevent asks
// the sources, keeps their answers and calls [Merge]; pure_test.go keeps
// the package pure.
package board

import (
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// Upstream is the last good data of both sources, with how each is doing:
// everything merge needs besides the time. The hub keeps it, and the cache
// file stores it so a restart merges on from where it stopped.
type Upstream struct {
	Team          int       `json:"team"`
	Configured    bool      `json:"configured"`
	Message       string    `json:"message"` // why not configured
	EventKey      string    `json:"eventKey"`
	NexusEventKey string    `json:"nexusEventKey"`
	Nexus         NexusData `json:"nexus"`
	TBA           TBAData   `json:"tba"`
	// Season is our season on TBA; nil until TBA answered. It is kept
	// whatever the event, and with none.
	Season *SeasonData `json:"season"`
}

// Health is a source's state after its last requests.
type Health struct {
	State   SourceState `json:"state"`
	Message string      `json:"message"`
}

// NexusData is what the hub keeps of Nexus: its last good answers and how
// it is doing.
type NexusData struct {
	Health Health `json:"health"`
	// LastGood is when the event endpoint last answered well (our clock);
	// it tells how stale Event is while Nexus fails.
	LastGood time.Time `json:"lastGood"`
	// Event is Nexus's answer as it came (older caches: see the hub's cache file).
	Event *frcapi.NexusEventStatus `json:"eventStatus"`
	Pits  map[string]string        `json:"pits"`
}

// TBAData is what the hub keeps of TBA: its last good answers, how it is
// doing and our rank after each count of matches played.
type TBAData struct {
	Health Health `json:"health"`
	// LastGood is when any TBA endpoint last answered well, a 304 included.
	LastGood   time.Time   `json:"lastGood"`
	TeamStatus *TeamStatus `json:"teamStatus"`
	// Matches are our matches, as TBA sent them (older caches: see
	// the hub's cache file); Merge reads them through tbaTeams and tbaScore.
	Matches    []frcapi.TBAMatch `json:"teamMatchList"`
	Event      *EventInfo        `json:"event"`
	Rankings   []RankingLine     `json:"rankings"`
	DownEvents []string          `json:"downEvents"`
	// SortOrders name the rankings' sort criteria.
	SortOrders []frcapi.TBAStatInfo `json:"sortOrders"`
	// Alliances are the playoff alliances; nil before alliance selection.
	Alliances []ListedAlliance `json:"alliances"`
	// EventMatches are every match of the event, for the bracket and the
	// ratings, as TBA sent them like Matches.
	EventMatches []frcapi.TBAMatch `json:"eventMatchList"`
	// Forecast is the rank forecast the hub made from EventMatches; nil
	// when there is none (too few played, a season it does not know).
	Forecast *Forecast `json:"forecast"`
	// TeamNames are the teams' nicknames by number.
	TeamNames map[string]string `json:"teamNames"`
	// RankTrend is our rank after each count of played matches seen, by
	// the count: a restart keeps it through the cache.
	RankTrend []RankPoint `json:"rankTrend"`
}

// RankPoint is our rank once we had played Played qualification matches.
type RankPoint struct {
	Played int `json:"played"`
	Rank   int `json:"rank"`
}

// TeamStatus is the part of TBA's team@event status the page uses. Its
// *_status_str fields are HTML and are left out on purpose.
type TeamStatus struct {
	Rank         *Rank  `json:"rank"` // nil before rankings exist
	NextMatchKey string `json:"nextMatchKey"`
	PitLocation  string `json:"pitLocation"`
}

// EventInfo is the part of TBA's event the page uses.
type EventInfo struct {
	Key      string              `json:"key"`
	Name     string              `json:"name"`
	Timezone string              `json:"timezone"`
	Webcasts []frcapi.TBAWebcast `json:"webcasts"`
	// StartDate and EndDate are "YYYY-MM-DD" in the event's timezone.
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
	// PlayoffType is TBA's playoff type (PlayoffDoubleElim8 …); 0 unknown.
	PlayoffType int `json:"playoffType"`
	// City, StateProv and Country say where it is ("" when unknown).
	City      string `json:"city"`
	StateProv string `json:"stateProv"`
	Country   string `json:"country"`
}

// RankingLine is one line of the event's rankings.
type RankingLine struct {
	Team   string `json:"team"` // number without "frc"
	Rank   int    `json:"rank"`
	Record Record `json:"record"`
	// SortOrders are the team's values of the sort criteria.
	SortOrders []float64 `json:"sortOrders"`
	// Played counts its played qualification matches.
	Played int `json:"played"`
}

// ListedAlliance is one playoff alliance as TBA lists it.
type ListedAlliance struct {
	Name string `json:"name"`
	// Teams are the picks' numbers, captain first.
	Teams []string `json:"teams"`
	// BackupIn came in for BackupOut ("" when TBA lists no backup).
	BackupIn  string `json:"backupIn"`
	BackupOut string `json:"backupOut"`
	// State is "playing", "eliminated", "won" or "".
	State string `json:"state"`
	// Round is the double-elimination round of its last played match.
	Round string `json:"round"`
}
