package frcevent

import (
	"context"
	"net/http"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// DefaultNexusURL is the base of the FRC Nexus API.
const DefaultNexusURL = "https://frc.nexus/api/v1"

// parseNexusEvent decodes an EventStatus, from a poll or a webhook. The hub
// keeps it as Nexus sent it (the cache too); merge reads its times and
// teams through matchTimes and teamList.
func parseNexusEvent(what string, body []byte) (*frcapi.NexusEventStatus, error) {
	var ev frcapi.NexusEventStatus
	if err := decode(what, body, &ev); err != nil {
		return nil, err
	}
	return &ev, nil
}

// dataAsOf is when Nexus's data is from; zero when it did not say.
func dataAsOf(ev *frcapi.NexusEventStatus) time.Time {
	return frcapi.Deref(fromMillis(ev.DataAsOfTime))
}

// matchTimes are a Nexus match's times as the page shows them.
func matchTimes(t frcapi.NexusTimes) MatchTimes {
	return MatchTimes{
		Queue: fromMillis(t.EstimatedQueueTime), OnDeck: fromMillis(t.EstimatedOnDeckTime), OnField: fromMillis(t.EstimatedOnFieldTime),
		Start: fromMillis(t.EstimatedStartTime), Scheduled: fromMillis(t.ScheduledStartTime), ActualStart: fromMillis(t.ActualStartTime),
	}
}

// announcements are Nexus's announcements as the page shows them.
func announcements(in []frcapi.NexusAnnouncement) []Announcement {
	out := make([]Announcement, 0, len(in))
	for _, a := range in {
		out = append(out, Announcement{ID: string(a.ID), Text: a.Announcement, Posted: frcapi.Deref(fromMillis(a.PostedTime))})
	}
	return out
}

// partsRequests are Nexus's parts requests as the page shows them.
func partsRequests(in []frcapi.NexusPartsRequest) []PartsRequest {
	out := make([]PartsRequest, 0, len(in))
	for _, p := range in {
		out = append(out, PartsRequest{ID: string(p.ID), Team: string(p.RequestedByTeam), Parts: p.Parts, Posted: frcapi.Deref(fromMillis(p.PostedTime))})
	}
	return out
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
func (c *nexusClient) event(ctx context.Context, eventKey string) (*frcapi.NexusEventStatus, error) {
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
