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
// keeps it as Nexus sent it (the cache too); board.Merge reads its times
// and teams.
func parseNexusEvent(what string, body []byte) (*frcapi.NexusEventStatus, error) {
	var ev frcapi.NexusEventStatus
	if err := decode(what, body, &ev); err != nil {
		return nil, err
	}
	return &ev, nil
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
	resp, err := httpGet(ctx, c.http, c.timeout, what, c.base+path, requestHeader(frcapi.Nexus, c.key))
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
