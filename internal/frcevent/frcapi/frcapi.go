// Package frcapi names what the pit display's two upstream APIs, FRC Nexus
// and The Blue Alliance, have in common with the replay server that stands
// in for them: the endpoints, grouped by the API they belong to, the shapes
// of their answers, the pace TBA asks of its clients, and Nexus's words for
// how far a match is in the queue. The hub, the replay server and their
// tests all use these names, so a request counted by one is the request
// logged by the other, and an answer the replay writes is one the hub reads.
package frcapi

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Source is one upstream API.
type Source string

// The two upstream APIs.
const (
	Nexus Source = "nexus"
	TBA   Source = "tba"
)

// KeyHeader is the request header that carries the API key of s.
func (s Source) KeyHeader() string {
	if s == TBA {
		return "X-TBA-Auth-Key"
	}
	return "Nexus-Api-Key"
}

// Endpoint is one kind of request to a Source.
type Endpoint struct {
	// Source is the API the endpoint belongs to.
	Source Source
	// Name says what it answers, like "team status".
	Name string
	// Path is its path under the API's base, with {event} for an event
	// key, {team} for TBA's team key and {year} for a season.
	Path string
}

// Args are the values of an endpoint's path.
type Args struct {
	Event string
	Team  int
	Year  int
}

// PathOf returns e's path with args in place of its wildcards.
func (e Endpoint) PathOf(args Args) string {
	return strings.NewReplacer(
		"{event}", url.PathEscape(args.Event),
		"{team}", TeamKey(args.Team),
		"{year}", strconv.Itoa(args.Year),
	).Replace(e.Path)
}

// String returns the endpoint as logs name it, like "tba team status".
func (e Endpoint) String() string { return string(e.Source) + " " + e.Name }

// The endpoints the pit display asks.
var (
	// NexusEvent: the queue, schedule, announcements and parts requests.
	NexusEvent = Endpoint{Nexus, "event", "/event/{event}"}
	// NexusPits: pit addresses by team.
	NexusPits = Endpoint{Nexus, "pits", "/event/{event}/pits"}
	// TBATeamStatus: rank, record, next match.
	TBATeamStatus = Endpoint{TBA, "team status", "/team/{team}/event/{event}/status"}
	// TBATeamMatches: our matches.
	TBATeamMatches = Endpoint{TBA, "team matches", "/team/{team}/event/{event}/matches/simple"}
	// TBAEvent: name, time zone, webcasts.
	TBAEvent = Endpoint{TBA, "event", "/event/{event}"}
	// TBARankings: every team's rank.
	TBARankings = Endpoint{TBA, "rankings", "/event/{event}/rankings"}
	// TBAStatus: among others, the events whose data feed is down.
	TBAStatus = Endpoint{TBA, "status", "/status"}
	// TBATeamEvents: our events of a season, to find today's and to list
	// the season.
	TBATeamEvents = Endpoint{TBA, "team events", "/team/{team}/events/{year}/simple"}
	// TBATeamEventStatuses: our status at each event of a season, by event
	// key (null where TBA has none), for the season's results.
	TBATeamEventStatuses = Endpoint{TBA, "team event statuses", "/team/{team}/events/{year}/statuses"}
	// TBATeamAwards: our awards of a season, at every event.
	TBATeamAwards = Endpoint{TBA, "team awards", "/team/{team}/awards/{year}"}
	// TBAAlliances: null before alliance selection.
	TBAAlliances = Endpoint{TBA, "alliances", "/event/{event}/alliances"}
	// TBAEventMatches: every match, for the bracket, the ratings and, from
	// the score breakdowns, the rank forecast.
	TBAEventMatches = Endpoint{TBA, "event matches", "/event/{event}/matches"}
	// TBAEventTeams: the teams' names.
	TBAEventTeams = Endpoint{TBA, "event teams", "/event/{event}/teams/simple"}
)

// TBAMaxAge is the max-age of TBA's answers: TBA asks its clients for at
// most one request per endpoint per max-age.
const TBAMaxAge = 61 * time.Second

// Nexus's words for how far a match is in the queue, in order.
const (
	QueuingSoon = "Queuing soon"
	NowQueuing  = "Now queuing"
	OnDeck      = "On deck"
	OnField     = "On field"
)

// TBA's playoff types of FIRST's double-elimination brackets (2023 on).
const (
	PlayoffDoubleElim8 = 10
	PlayoffDoubleElim4 = 11
)

// roundEnds are the last bracket match numbers of each round of the
// double-elimination brackets; the finals follow.
var roundEnds = map[int][]int{
	PlayoffDoubleElim8: {4, 8, 10, 12, 13},
	PlayoffDoubleElim4: {2, 4, 5},
}

// Round names the round of bracket match n (0: the finals) of a
// double-elimination playoff type, as TBA's double_elim_round does: "Round
// 1" … "Round 5", or "Finals"; "" for a number or type without one.
func Round(playoffType, n int) string {
	if n == 0 {
		return "Finals"
	}
	for i, end := range roundEnds[playoffType] {
		if n <= end {
			return "Round " + strconv.Itoa(i+1)
		}
	}
	return ""
}

// TeamKey is TBA's key of team number n, like "frc1209".
func TeamKey(n int) string { return "frc" + strconv.Itoa(n) }

// TeamNumber is the team number of TBA's team key, like "1209" of "frc1209".
func TeamNumber(key string) string { return strings.TrimPrefix(key, "frc") }
