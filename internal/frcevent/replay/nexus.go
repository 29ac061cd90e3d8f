package replay

import (
	"net/http"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// The Nexus endpoints, in the shape of Nexus's API: times in
// milliseconds, a status word per match.

// nexusEvent answers GET /event/{key}. An actual time shows only once it
// has passed, and dataAsOfTime is the latest change so far, because a
// client tells fresh data from stale by them.
func (s *Server) nexusEvent(r *http.Request, m moment) answer {
	if r.PathValue("event") != s.opts.Timeline.NexusEvent || m.Nexus == nil {
		return notFound("event")
	}
	latest := m.nexusChanged
	note := func(o *Offset) *int64 {
		if !m.passed(o) {
			return nil
		}
		latest = max(latest, time.Duration(*o))
		v := m.ms(*o)
		return &v
	}
	est := func(o *Offset) *int64 {
		if o == nil {
			return nil
		}
		v := m.ms(*o)
		return &v
	}
	type times struct {
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
	type match struct {
		Label      string    `json:"label"`
		Status     string    `json:"status"`
		RedTeams   []*string `json:"redTeams"`
		BlueTeams  []*string `json:"blueTeams"`
		Times      times     `json:"times"`
		BreakAfter *string   `json:"breakAfter"`
		ReplayOf   *string   `json:"replayOf"`
	}
	var nowQueuing *string
	matches := make([]match, 0, len(m.Nexus.Matches))
	for _, nm := range m.Nexus.Matches {
		if !m.listed(nm.Listed) {
			continue
		}
		note(nm.Listed)
		red, blue := nm.RedTeams, nm.BlueTeams
		if !m.listed(nm.Decided) {
			red, blue = nil, nil
		}
		note(nm.Decided)
		t := nm.Times
		out := match{Label: nm.Label, Status: nm.Status, RedTeams: red, BlueTeams: blue,
			BreakAfter: nullable(nm.BreakAfter), ReplayOf: nullable(nm.ReplayOf),
			Times: times{
				EstimatedQueueTime: est(t.EstimatedQueue), EstimatedOnDeckTime: est(t.EstimatedOnDeck),
				EstimatedOnFieldTime: est(t.EstimatedOnField), EstimatedStartTime: est(t.EstimatedStart),
				ScheduledStartTime: est(t.ScheduledStart),
				ActualQueueTime:    note(t.ActualQueue), ActualOnDeckTime: note(t.ActualOnDeck),
				ActualOnFieldTime: note(t.ActualOnField), ActualStartTime: note(t.ActualStart),
			}}
		if out.Status == "" {
			switch {
			case out.Times.ActualOnFieldTime != nil || out.Times.ActualStartTime != nil:
				out.Status = frcapi.OnField
			case out.Times.ActualOnDeckTime != nil:
				out.Status = frcapi.OnDeck
			case out.Times.ActualQueueTime != nil:
				out.Status = frcapi.NowQueuing
			default:
				out.Status = frcapi.QueuingSoon
			}
		}
		if out.Times.ActualQueueTime != nil {
			nowQueuing = &nm.Label
		}
		matches = append(matches, out)
	}
	if m.Nexus.NowQueuing != nil {
		nowQueuing = nullable(*m.Nexus.NowQueuing)
	}
	type announcement struct {
		ID           string `json:"id"`
		Announcement string `json:"announcement"`
		PostedTime   int64  `json:"postedTime"`
	}
	type partsRequest struct {
		ID              string `json:"id"`
		Parts           string `json:"parts"`
		RequestedByTeam string `json:"requestedByTeam"`
		PostedTime      int64  `json:"postedTime"`
	}
	announcements, parts := []announcement{}, []partsRequest{}
	for _, a := range m.Announcements {
		if m.passed(&a.Posted) {
			latest = max(latest, time.Duration(a.Posted))
			announcements = append(announcements, announcement{a.ID, a.Text, m.ms(a.Posted)})
		}
	}
	for _, p := range m.PartsRequests {
		if m.passed(&p.Posted) {
			latest = max(latest, time.Duration(p.Posted))
			parts = append(parts, partsRequest{p.ID, p.Parts, p.Team, m.ms(p.Posted)})
		}
	}
	return answer{http.StatusOK, map[string]any{
		"eventKey":      s.opts.Timeline.NexusEvent,
		"dataAsOfTime":  m.ms(Offset(latest)),
		"nowQueuing":    nowQueuing,
		"matches":       matches,
		"announcements": announcements,
		"partsRequests": parts,
	}}
}

// nexusPits answers GET /event/{key}/pits: {} rather than null before any
// pit is known, as Nexus does.
func (s *Server) nexusPits(r *http.Request, m moment) answer {
	if r.PathValue("event") != s.opts.Timeline.NexusEvent || m.Nexus == nil {
		return notFound("event")
	}
	pits := m.Pits
	if pits == nil {
		pits = map[string]string{}
	}
	return answer{http.StatusOK, pits}
}
