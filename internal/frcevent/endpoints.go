package frcevent

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcstats/forecast"
)

// The pace of the polls. TBA asks for at most one request per endpoint per
// max-age; a refused source is asked at maxBackoff, the slowest pace.
const (
	nexusEvery      = 30 * time.Second
	nexusPitsEvery  = 5 * time.Minute
	tbaFloor        = frcapi.TBAMaxAge
	tbaStatusEvery  = tbaFloor
	tbaMatchesEvery = tbaFloor
	tbaRankEvery    = 2 * time.Minute
	// tbaAlliancesEvery: alliances form in minutes at alliance selection.
	tbaAlliancesEvery = tbaFloor
	tbaAPIEvery       = 2 * time.Minute
	tbaEventEvery     = 10 * time.Minute
	discoverEvery     = 10 * time.Minute
	// seasonEvery: the season's results change once an event's are in,
	// a few times a year.
	seasonEvery = 30 * time.Minute
)

// maxAhead is how far past our clock a Nexus dataAsOfTime may be, for
// clocks that disagree a little. Data from further ahead is refused:
// kept, it would make every later answer look older and lock Nexus out.
const maxAhead = 5 * time.Minute

func (h *Hub) nexusPolls(key string) []*poll {
	return []*poll{
		{endpoint: frcapi.NexusEvent, every: nexusEvery, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			ev, err := h.nexus.event(ctx, key)
			if err == nil && h.fromTheFuture(ev) {
				err = &sourceError{board.StateUnreachable, fmt.Errorf("event: nexus event %s: dataAsOfTime %s is more than %v ahead of our clock", key, board.DataAsOf(ev).Format(time.RFC3339), maxAhead)}
			}
			return func(up *board.Upstream) { h.storeNexusEvent(up, ev, false) }, err
		}},
		{endpoint: frcapi.NexusPits, every: nexusPitsEvery, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			pits, err := h.nexus.pits(ctx, key)
			return func(up *board.Upstream) {
				// As with TBA's lists: a pit address does not vanish.
				if pits != nil && (len(pits) > 0 || len(up.Nexus.Pits) == 0) {
					up.Nexus.Pits = pits
				}
			}, err
		}},
	}
}

// storeNexusEvent keeps ev unless newer data is already there (a webhook
// can be ahead of a poll), and reports whether it kept it. A poll with the
// same dataAsOfTime is kept, as it confirms; a webhook must be newer. Data
// held from the future (a cache of before that was refused) never counts
// as newer. Callers refuse an ev from the future themselves.
func (h *Hub) storeNexusEvent(up *board.Upstream, ev *frcapi.NexusEventStatus, mustBeNewer bool) bool {
	if old := up.Nexus.Event; old != nil && !h.fromTheFuture(old) &&
		(board.DataAsOf(ev).Before(board.DataAsOf(old)) || mustBeNewer && !board.DataAsOf(ev).After(board.DataAsOf(old))) {
		return false
	}
	up.Nexus.Event, up.Nexus.LastGood = ev, h.opts.Clock.Now()
	return true
}

// fromTheFuture reports whether ev is dated more than maxAhead past our clock.
func (h *Hub) fromTheFuture(ev *frcapi.NexusEventStatus) bool {
	return board.DataAsOf(ev).After(h.opts.Clock.Now().Add(maxAhead))
}

// tbaPolls asks TBA about one event. A null answer never replaces data
// held, nor does an empty list a full one: TBA answers so while it rebuilds
// an event (a schedule published again), and a schedule really withdrawn
// is soon followed by the new one, which replaces it.
func (h *Hub) tbaPolls(key string) []*poll {
	team := h.opts.Team
	now := func(up *board.Upstream) { up.TBA.LastGood = h.opts.Clock.Now() }
	return []*poll{
		{endpoint: frcapi.TBATeamStatus, every: tbaStatusEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			st, err := h.tba.teamStatus(ctx, team, key)
			return func(up *board.Upstream) { up.TBA.TeamStatus = cmp.Or(st, up.TBA.TeamStatus); now(up) }, err
		}},
		{endpoint: frcapi.TBATeamMatches, every: tbaMatchesEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			ms, err := h.tba.matches(ctx, team, key)
			return func(up *board.Upstream) { up.TBA.Matches = keepFull(up.TBA.Matches, ms); now(up) }, err
		}},
		{endpoint: frcapi.TBAEvent, every: tbaEventEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			ev, err := h.tba.event(ctx, key)
			return func(up *board.Upstream) { up.TBA.Event = cmp.Or(ev, up.TBA.Event); now(up) }, err
		}},
		{endpoint: frcapi.TBARankings, every: tbaRankEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			rs, err := h.tba.rankings(ctx, key)
			return func(up *board.Upstream) {
				if rs != nil {
					up.TBA.Rankings = keepFull(up.TBA.Rankings, rs.Lines)
					up.TBA.SortOrders = keepFull(up.TBA.SortOrders, rs.SortOrders)
					up.TBA.RankTrend = board.TrendWith(up.TBA.RankTrend, rs.Lines, strconv.Itoa(team))
				}
				now(up)
			}, err
		}},
		{endpoint: frcapi.TBAEventMatches, every: tbaMatchesEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			ms, err := h.tba.eventMatches(ctx, key)
			fc := h.forecast(key, ms)
			return func(up *board.Upstream) {
				up.TBA.EventMatches = keepFull(up.TBA.EventMatches, ms)
				if fc != nil {
					up.TBA.Forecast = fc
				}
				now(up)
			}, err
		}},
		{endpoint: frcapi.TBAAlliances, every: tbaAlliancesEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			as, err := h.tba.alliances(ctx, key)
			// Unlike the other lists, a null after alliances is taken: TBA
			// lists none only before selection, or once an event is reset.
			return func(up *board.Upstream) { up.TBA.Alliances = as; now(up) }, err
		}},
		{endpoint: frcapi.TBAEventTeams, every: tbaEventEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			names, err := h.tba.teamNames(ctx, key)
			return func(up *board.Upstream) {
				if names != nil {
					up.TBA.TeamNames = names
				}
				now(up)
			}, err
		}},
		{endpoint: frcapi.TBAStatus, every: tbaAPIEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			down, err := h.tba.downEvents(ctx)
			return func(up *board.Upstream) { up.TBA.DownEvents = down; now(up) }, err
		}},
	}
}

// seasonPolls ask TBA about our season: our events of the year, our status
// at each and our awards. The year is the event's (its key's), else our
// clock's, read at each request, so a new season replaces the last one. As
// with the event's polls, a null answer or an empty list never replaces
// data held.
func (h *Hub) seasonPolls() []*poll {
	team := h.opts.Team
	// store keeps a good answer of year's season, dropping a season of
	// another year first. It changes a copy: the cache encodes the one
	// held outside the hub's lock. Its lists and maps are replaced, never
	// changed.
	store := func(year int, set func(*board.SeasonData)) func(*board.Upstream) {
		return func(up *board.Upstream) {
			sd := board.SeasonData{Year: year}
			if up.Season != nil && up.Season.Year == year {
				sd = *up.Season
			}
			set(&sd)
			sd.LastGood = h.opts.Clock.Now()
			up.Season = &sd
		}
	}
	return []*poll{
		{endpoint: frcapi.TBATeamEvents, every: seasonEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			year := h.seasonYear()
			events, err := h.teamEvents(ctx, year)
			return store(year, func(sd *board.SeasonData) { sd.Events = keepFull(sd.Events, events) }), err
		}},
		{endpoint: frcapi.TBATeamEventStatuses, every: seasonEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			year := h.seasonYear()
			results, err := h.tba.teamEventStatuses(ctx, team, year)
			return store(year, func(sd *board.SeasonData) {
				if results != nil && (len(results) > 0 || len(sd.Results) == 0) {
					sd.Results = results
				}
			}), err
		}},
		{endpoint: frcapi.TBATeamAwards, every: seasonEvery, floor: tbaFloor, fetch: func(ctx context.Context) (func(*board.Upstream), error) {
			year := h.seasonYear()
			awards, err := h.tba.teamAwards(ctx, team, year)
			return store(year, func(sd *board.SeasonData) {
				if awards != nil && (len(awards) > 0 || len(sd.Awards) == 0) {
					sd.Awards = awards
				}
			}), err
		}},
	}
}

// seasonYear is the year of the season to show: the event key's ("2026" of
// "2026okok"), else our clock's.
func (h *Hub) seasonYear() int {
	h.mu.Lock()
	key := h.up.EventKey
	h.mu.Unlock()
	if len(key) >= 4 {
		if y, err := strconv.Atoi(key[:4]); err == nil && y > 1900 {
			return y
		}
	}
	return h.opts.Clock.Now().Year()
}

// forecast runs the rank forecast on the event's matches ms when what it
// rests on changed since the last one: nil when it did not, or when the
// season or the rankings' sort orders are not ones it knows. It takes
// about 0.2 s (make bench), in the poll's goroutine, outside the hub's
// lock. Its seed is the event's and the count of matches played, so every
// instance of serve forecasts the same.
func (h *Hub) forecast(key string, ms []frcapi.TBAMatch) *board.Forecast {
	h.mu.Lock()
	sortOrders, last := h.up.TBA.SortOrders, h.up.TBA.Forecast
	h.mu.Unlock()
	rules, played, remaining, ok := board.ForecastInputs(key, sortOrders, ms)
	if !ok || last != nil && last.Played == len(played) && last.Remaining == len(remaining) {
		return nil
	}
	seed := fnv.New64a()
	seed.Write([]byte(key))
	teams, _ := forecast.Forecast(rules, played, remaining, seed.Sum64()+uint64(len(played)))
	return &board.Forecast{Played: len(played), Remaining: len(remaining), Teams: board.ForecastOf(teams)}
}

// keepFull returns got, unless it is nil (a null answer), or empty while
// held is not.
func keepFull[T any](held, got []T) []T {
	if got == nil || len(got) == 0 && len(held) > 0 {
		return held
	}
	return got
}
