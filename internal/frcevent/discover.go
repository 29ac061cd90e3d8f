package frcevent

import (
	"cmp"
	"context"
	"strconv"
	"time"

	// Event timezones must resolve on machines without a zone database
	// (Windows): the binary carries its own.
	_ "time/tzdata"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// discover looks for today's event among the team's events of the year on
// TBA until it finds one or ctx ends, and then polls it. Meanwhile
// Configured is false with a calm message, or the event the cache names
// is polled (*stop stops it): a TBA that is down or refuses the key must
// not keep Nexus from being asked. While no event is polled, the season
// is (*stop stops that too). When TBA names another event, or none,
// the cached one stops being polled before its data is dropped.
func (h *Hub) discover(ctx context.Context, stop *func()) {
	h.mu.Lock()
	polled := ""
	if h.up.Configured {
		polled = h.up.EventKey
	}
	h.mu.Unlock()
	if polled == "" {
		// No event's polls ask about the season meanwhile: its own do.
		*stop = h.startSeasonPolls(ctx)
	}
	p := &poll{endpoint: frcapi.TBATeamEvents, every: discoverEvery, floor: tbaFloor}
	failures := 0
	for {
		started := h.opts.Clock.Now()
		events, err := h.teamEvents(ctx, started.Year())
		if ctx.Err() != nil {
			return
		}
		ev, found := currentEvent(events, started)
		if err == nil && polled != "" && ev.Key != polled {
			(*stop)()
			*stop, polled = h.startSeasonPolls(ctx), ""
		}
		h.record(p.endpoint, err, func(up *board.Upstream) {
			if !found {
				up.Configured, up.Message = false, "No event found for team "+strconv.Itoa(up.Team)+" today; set one with --event KEY"
				h.forgetPollsLocked()
				return
			}
			if up.EventKey != ev.Key {
				up.Nexus, up.TBA = board.NexusData{}, board.TBAData{Event: &ev}
				h.forgetPollsLocked()
			}
			up.Configured, up.Message, up.EventKey = true, "", ev.Key
			up.NexusEventKey = cmp.Or(h.opts.NexusEventKey, ev.Key)
		})
		if err == nil && found {
			h.opts.Logger.Info("event: found today's event", "event", ev.Key)
			if polled != ev.Key {
				(*stop)() // the season's own polls: the event's take them on
				*stop = h.startPolls(ctx, ev.Key, cmp.Or(h.opts.NexusEventKey, ev.Key))
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-h.opts.Clock.After(h.delay(p, err, &failures)):
		}
	}
}

// forgetPollsLocked drops the results of the polls of an event no longer
// polled, so that they do not speak for the health of the next one.
func (h *Hub) forgetPollsLocked() {
	for ep := range h.errs {
		if ep != frcapi.TBATeamEvents {
			delete(h.errs, ep)
		}
	}
}

// currentEvent picks the event that is on today in its own timezone. A day
// either side counts too (load-in day, the drive home), but an event that is
// on today proper wins over one that only touches it.
func currentEvent(events []board.EventInfo, now time.Time) (board.EventInfo, bool) {
	var best board.EventInfo
	bestScore := 0
	for _, e := range events {
		loc, err := time.LoadLocation(e.Timezone)
		if err != nil {
			loc = time.UTC
		}
		start, err1 := time.ParseInLocation(time.DateOnly, e.StartDate, loc)
		end, err2 := time.ParseInLocation(time.DateOnly, e.EndDate, loc)
		if err1 != nil || err2 != nil {
			continue
		}
		y, m, d := now.In(loc).Date()
		today := time.Date(y, m, d, 0, 0, 0, 0, loc)
		score := 0
		switch {
		case !today.Before(start) && !today.After(end):
			score = 2
		case !today.Before(start.AddDate(0, 0, -1)) && !today.After(end.AddDate(0, 0, 1)):
			score = 1
		}
		if score > bestScore {
			best, bestScore = e, score
		}
	}
	return best, bestScore > 0
}

// teamEventsAnswer is one answer of our events of a year.
type teamEventsAnswer struct {
	year   int
	at     time.Time
	events []board.EventInfo
	err    error
}

// teamEvents returns our events of year, asking TBA unless the search for
// today's event or the season's polls asked less than tbaFloor ago: TBA
// asks for at most one request per path per max-age, and both start at
// once.
func (h *Hub) teamEvents(ctx context.Context, year int) ([]board.EventInfo, error) {
	h.eventsMu.Lock()
	defer h.eventsMu.Unlock()
	now := h.opts.Clock.Now()
	if last := h.eventsAsk; last.year == year && !last.at.IsZero() && now.Sub(last.at) < tbaFloor/time.Duration(h.opts.Speedup) {
		return last.events, last.err
	}
	events, err := h.tba.teamEvents(ctx, h.opts.Team, year)
	if ctx.Err() == nil {
		h.eventsAsk = teamEventsAnswer{year: year, at: now, events: events, err: err}
	}
	return events, err
}
