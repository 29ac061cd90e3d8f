// Package frcevent holds event-day data for the pit display: clients of FRC
// Nexus and The Blue Alliance, the merge of both into one Status, the hub that
// polls upstream once per process and fans the result out to every screen,
// and the cache that keeps the last good Status across restarts.
package frcevent

import "time"

// Status is everything the pit display shows, merged from Nexus and TBA.
// Its JSON is what /api/event, the live stream and the window's "event" event
// carry; the page's TypeScript types are generated from it (cmd/wiregen).
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

	// Rank is our ranking; nil before rankings exist.
	Rank *Rank `json:"rank"`
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
	// Alliance is our colour in this match: "red", "blue" or "" when we do not play it.
	Alliance string `json:"alliance"`
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
	// Result is ours when played: "win", "loss", "tie", or "".
	Result string `json:"result"`
	// ReplayOf is the label of the match this one replays ("" when none).
	ReplayOf string `json:"replayOf"`
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
	// State is "ok", "off" (not configured: no key), "key rejected",
	// "event not found", "unreachable" or "down" (TBA's /status lists the
	// event's feed as down).
	State string `json:"state"`
	// Message says the state in words for the page, like "Nexus key rejected".
	Message string `json:"message"`
	// AsOf is when this source last gave good data (Nexus: its dataAsOfTime);
	// zero when it never did.
	AsOf time.Time `json:"asOf"`
}
