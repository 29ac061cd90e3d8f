package frcevent

import (
	"context"
	"net/http"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// DefaultNexusURL is the base of the FRC Nexus API.
const DefaultNexusURL = "https://frc.nexus/api/v1"

// nexusEvent is Nexus's EventStatus with times converted.
type nexusEvent struct {
	EventKey      string         `json:"eventKey"`
	DataAsOf      time.Time      `json:"dataAsOf"`
	NowQueuing    string         `json:"nowQueuing"`
	Matches       []nexusMatch   `json:"matches"`
	Announcements []Announcement `json:"announcements"`
	PartsRequests []PartsRequest `json:"partsRequests"`
}

// nexusMatch is one match of Nexus's schedule with times converted.
type nexusMatch struct {
	Label  string `json:"label"`
	Status string `json:"status"`
	// Red and Blue are nil while the whole alliance is undecided; an entry
	// is "" while that seat is.
	Red        []string   `json:"red"`
	Blue       []string   `json:"blue"`
	Times      nexusTimes `json:"times"`
	BreakAfter string     `json:"breakAfter"`
	ReplayOf   string     `json:"replayOf"`
}

// nexusTimes are Nexus's match times; nil where Nexus gave none.
type nexusTimes struct {
	EstimatedQueue   *time.Time `json:"estimatedQueue"`
	EstimatedOnDeck  *time.Time `json:"estimatedOnDeck"`
	EstimatedOnField *time.Time `json:"estimatedOnField"`
	EstimatedStart   *time.Time `json:"estimatedStart"`
	ScheduledStart   *time.Time `json:"scheduledStart"`
	ActualQueue      *time.Time `json:"actualQueue"`
	ActualOnDeck     *time.Time `json:"actualOnDeck"`
	ActualOnField    *time.Time `json:"actualOnField"`
	ActualStart      *time.Time `json:"actualStart"`
}

// parseNexusEvent decodes an EventStatus, from a poll or a webhook.
func parseNexusEvent(what string, body []byte) (*nexusEvent, error) {
	var raw frcapi.NexusEventStatus
	if err := decode(what, body, &raw); err != nil {
		return nil, err
	}
	ev := &nexusEvent{EventKey: raw.EventKey, NowQueuing: frcapi.Deref(raw.NowQueuing), Matches: make([]nexusMatch, 0, len(raw.Matches))}
	if t := fromMillis(raw.DataAsOfTime); t != nil {
		ev.DataAsOf = *t
	}
	for _, m := range raw.Matches {
		ev.Matches = append(ev.Matches, nexusMatch{
			Label:      m.Label,
			Status:     m.Status,
			Red:        teamList(m.RedTeams),
			Blue:       teamList(m.BlueTeams),
			BreakAfter: frcapi.Deref(m.BreakAfter),
			ReplayOf:   frcapi.Deref(m.ReplayOf),
			Times: nexusTimes{
				EstimatedQueue:   fromMillis(m.Times.EstimatedQueueTime),
				EstimatedOnDeck:  fromMillis(m.Times.EstimatedOnDeckTime),
				EstimatedOnField: fromMillis(m.Times.EstimatedOnFieldTime),
				EstimatedStart:   fromMillis(m.Times.EstimatedStartTime),
				ScheduledStart:   fromMillis(m.Times.ScheduledStartTime),
				ActualQueue:      fromMillis(m.Times.ActualQueueTime),
				ActualOnDeck:     fromMillis(m.Times.ActualOnDeckTime),
				ActualOnField:    fromMillis(m.Times.ActualOnFieldTime),
				ActualStart:      fromMillis(m.Times.ActualStartTime),
			},
		})
	}
	for _, a := range raw.Announcements {
		ev.Announcements = append(ev.Announcements, Announcement{ID: string(a.ID), Text: a.Announcement, Posted: frcapi.Deref(fromMillis(a.PostedTime))})
	}
	for _, p := range raw.PartsRequests {
		ev.PartsRequests = append(ev.PartsRequests, PartsRequest{ID: string(p.ID), Team: string(p.RequestedByTeam), Parts: p.Parts, Posted: frcapi.Deref(fromMillis(p.PostedTime))})
	}
	return ev, nil
}

// teamList keeps nil (alliance undecided) apart from an empty list; an
// undecided seat is "".
func teamList(in []*frcapi.FlexString) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, t := range in {
		out[i] = string(frcapi.Deref(t))
	}
	return out
}

// nexusClient asks the Nexus API for one event.
type nexusClient struct {
	base    string
	key     string
	http    *http.Client
	timeout time.Duration
}

// get fetches path and returns its body, and what, the request as errors
// name it.
func (c *nexusClient) get(ctx context.Context, path string) (what string, body []byte, err error) {
	what = "nexus GET " + path
	resp, err := httpGet(ctx, c.http, c.timeout, what, c.base+path, http.Header{frcapi.Nexus.KeyHeader(): {c.key}, "Accept": {"application/json"}})
	if err != nil {
		return what, nil, err
	}
	return what, resp.body, nil
}

// event returns the event's status.
func (c *nexusClient) event(ctx context.Context, eventKey string) (*nexusEvent, error) {
	what, body, err := c.get(ctx, frcapi.NexusEvent.PathOf(frcapi.Args{Event: eventKey}))
	if err != nil {
		return nil, err
	}
	return parseNexusEvent(what, body)
}

// pits returns the pit address of each team, by team number; nil for a
// null answer.
func (c *nexusClient) pits(ctx context.Context, eventKey string) (map[string]string, error) {
	what, body, err := c.get(ctx, frcapi.NexusPits.PathOf(frcapi.Args{Event: eventKey}))
	if err != nil {
		return nil, err
	}
	var raw map[string]*string
	if err := decode(what, body, &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, nil
	}
	pits := make(map[string]string, len(raw))
	for team, pit := range raw {
		if pit != nil && *pit != "" {
			pits[team] = *pit
		}
	}
	return pits, nil
}
