// Package frcapi names what the pit display's two upstream APIs, FRC Nexus
// and The Blue Alliance, have in common with the replay server that stands
// in for them: the endpoints, grouped by the API they belong to, the shapes
// of their answers, the pace TBA asks of its clients, and Nexus's words for
// how far a match is in the queue. The hub, the replay server and their
// tests all use these names, so a request counted by one is the request
// logged by the other, and an answer the replay writes is one the hub reads.
package frcapi

import (
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

// Endpoint is one kind of request to a Source.
type Endpoint struct {
	// Source is the API the endpoint belongs to.
	Source Source
	// Name says what it answers, like "team status".
	Name string
}

// String returns the endpoint as logs name it, like "tba team status".
func (e Endpoint) String() string { return string(e.Source) + " " + e.Name }

// The endpoints the pit display asks.
var (
	// NexusEvent is GET /event/{key}: the queue, schedule, announcements and parts requests.
	NexusEvent = Endpoint{Nexus, "event"}
	// NexusPits is GET /event/{key}/pits: pit addresses by team.
	NexusPits = Endpoint{Nexus, "pits"}
	// TBATeamStatus is GET /team/frc{N}/event/{key}/status: rank, record, next match.
	TBATeamStatus = Endpoint{TBA, "team status"}
	// TBATeamMatches is GET /team/frc{N}/event/{key}/matches/simple.
	TBATeamMatches = Endpoint{TBA, "team matches"}
	// TBAEvent is GET /event/{key}: name, time zone, webcasts.
	TBAEvent = Endpoint{TBA, "event"}
	// TBARankings is GET /event/{key}/rankings.
	TBARankings = Endpoint{TBA, "rankings"}
	// TBAStatus is GET /status: among others, the events whose data feed is down.
	TBAStatus = Endpoint{TBA, "status"}
	// TBATeamEvents is GET /team/frc{N}/events/{year}/simple: finds today's event.
	TBATeamEvents = Endpoint{TBA, "team events"}
	// TBAAlliances is GET /event/{key}/alliances: null before alliance selection.
	TBAAlliances = Endpoint{TBA, "alliances"}
	// TBAEventMatches is GET /event/{key}/matches/simple: every match, for
	// the bracket and the ratings.
	TBAEventMatches = Endpoint{TBA, "event matches"}
	// TBAEventTeams is GET /event/{key}/teams/simple: the teams' names.
	TBAEventTeams = Endpoint{TBA, "event teams"}
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
