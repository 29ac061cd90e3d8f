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
		return new(m.ms(*o))
	}
	est := func(o *Offset) *int64 {
		if o == nil {
			return nil
		}
		return new(m.ms(*o))
	}
	var nowQueuing *string
	matches := make([]frcapi.NexusMatch, 0, len(m.Nexus.Matches))
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
		out := frcapi.NexusMatch{Label: nm.Label, Status: nm.Status, RedTeams: flexTeams(red), BlueTeams: flexTeams(blue),
			BreakAfter: frcapi.Nullable(nm.BreakAfter), ReplayOf: frcapi.Nullable(nm.ReplayOf),
			Times: frcapi.NexusTimes{
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
		nowQueuing = frcapi.Nullable(*m.Nexus.NowQueuing)
	}
	announcements, parts := []frcapi.NexusAnnouncement{}, []frcapi.NexusPartsRequest{}
	for _, a := range m.Announcements {
		if m.passed(&a.Posted) {
			latest = max(latest, time.Duration(a.Posted))
			announcements = append(announcements, frcapi.NexusAnnouncement{ID: frcapi.FlexString(a.ID), Announcement: a.Text, PostedTime: new(m.ms(a.Posted))})
		}
	}
	for _, p := range m.PartsRequests {
		if m.passed(&p.Posted) {
			latest = max(latest, time.Duration(p.Posted))
			parts = append(parts, frcapi.NexusPartsRequest{ID: frcapi.FlexString(p.ID), Parts: p.Parts,
				RequestedByTeam: frcapi.FlexString(p.Team), PostedTime: new(m.ms(p.Posted))})
		}
	}
	return answer{http.StatusOK, frcapi.NexusEventStatus{
		EventKey:      s.opts.Timeline.NexusEvent,
		DataAsOfTime:  new(m.ms(Offset(latest))),
		NowQueuing:    nowQueuing,
		Matches:       matches,
		Announcements: announcements,
		PartsRequests: parts,
	}}
}

// flexTeams is a list of team numbers as Nexus sends them: nil stays null.
func flexTeams(teams []*string) []*frcapi.FlexString {
	if teams == nil {
		return nil
	}
	out := make([]*frcapi.FlexString, len(teams))
	for i, t := range teams {
		if t != nil {
			out[i] = new(frcapi.FlexString(*t))
		}
	}
	return out
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
