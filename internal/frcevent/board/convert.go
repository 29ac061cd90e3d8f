package board

import (
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// DataAsOf is when Nexus's data is from; zero when it did not say.
func DataAsOf(ev *frcapi.NexusEventStatus) time.Time {
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

// The window of believable upstream times. A time outside it is a bug
// upstream, and one past year 9999 would not even encode to JSON: it is
// dropped as if the source had sent none.
var (
	earliestTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	latestTime   = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
)

// inWindow returns &t, or nil when t is outside the believable window.
func inWindow(t time.Time) *time.Time {
	if t.Before(earliestTime) || !t.Before(latestTime) {
		return nil
	}
	return &t
}

// fromMillis converts Nexus's Unix milliseconds; nil, or a time outside
// years 2000 to 2099, gives nil.
func fromMillis(ms *int64) *time.Time {
	if ms == nil {
		return nil
	}
	return inWindow(time.UnixMilli(*ms).UTC())
}

// fromSeconds converts TBA's Unix seconds; nil, or a time outside years
// 2000 to 2099, gives nil.
func fromSeconds(s *int64) *time.Time {
	if s == nil {
		return nil
	}
	return inWindow(time.Unix(*s, 0).UTC())
}
