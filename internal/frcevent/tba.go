package frcevent

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// DefaultTBAURL is the base of The Blue Alliance API v3.
const DefaultTBAURL = "https://www.thebluealliance.com/api/v3"

// tbaRankings are the rankings with the names of their sort criteria.
type tbaRankings struct {
	Lines      []board.RankingLine  `json:"lines"`
	SortOrders []frcapi.TBAStatInfo `json:"sortOrders"`
}

// tbaClient asks TBA with If-None-Match and keeps the last body of each
// path, which a 304 answer reuses. The search for today's event and the
// polls of the event use it at the same time.
type tbaClient struct {
	base    string
	key     string
	http    *http.Client
	timeout time.Duration

	mu    sync.Mutex
	cache map[string]tbaCached // by path
}

type tbaCached struct {
	etag string
	body []byte
}

// get fetches path and decodes it into v, from the cached body on a 304.
func (c *tbaClient) get(ctx context.Context, path string, v any) error {
	what := "tba GET " + path
	header := requestHeader(frcapi.TBA, c.key)
	c.mu.Lock()
	cached, ok := c.cache[path]
	c.mu.Unlock()
	if ok && cached.etag != "" {
		header.Set("If-None-Match", cached.etag)
	}
	resp, err := httpGet(ctx, c.http, c.timeout, what, c.base+path, header)
	if err != nil {
		return err
	}
	if resp.notModified {
		if !ok {
			return &sourceError{board.StateUnreachable, fmt.Errorf("event: %s: 304 without a cached body", what)}
		}
		return decode(what, cached.body, v)
	}
	if err := decode(what, resp.body, v); err != nil {
		return err
	}
	// Only a body that decoded is kept: an ETag of a broken answer must
	// never turn the next 304 into the reuse of garbage.
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cache == nil {
		c.cache = make(map[string]tbaCached)
	}
	c.cache[path] = tbaCached{etag: resp.etag, body: resp.body}
	return nil
}

// tbaGet fetches path and decodes it into a T, which is the zero T after
// an error: a nil T (a pointer, a list) is a null answer or a failure.
func tbaGet[T any](ctx context.Context, c *tbaClient, path string) (T, error) {
	var v T
	if err := c.get(ctx, path, &v); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// teamStatus returns our status at the event; nil when TBA has none (null
// before the event).
func (c *tbaClient) teamStatus(ctx context.Context, team int, eventKey string) (*board.TeamStatus, error) {
	raw, err := tbaGet[*frcapi.TBATeamEventStatus](ctx, c, frcapi.TBATeamStatus.PathOf(frcapi.Args{Event: eventKey, Team: team}))
	if raw == nil {
		return nil, err
	}
	st := &board.TeamStatus{NextMatchKey: frcapi.Deref(raw.NextMatchKey), PitLocation: raw.PitLocation}
	if q := raw.Qual; q != nil && q.Ranking != nil && q.Ranking.Rank > 0 {
		st.Rank = &board.Rank{Rank: q.Ranking.Rank, Of: q.NumTeams, Record: board.Record(q.Ranking.Record)}
	}
	return st, nil
}

// matches returns our matches at the event as TBA sent them: nil for a
// null answer, an empty list for [].
func (c *tbaClient) matches(ctx context.Context, team int, eventKey string) ([]frcapi.TBAMatch, error) {
	return tbaGet[[]frcapi.TBAMatch](ctx, c, frcapi.TBATeamMatches.PathOf(frcapi.Args{Event: eventKey, Team: team}))
}

// eventMatches returns every match of the event, like matches.
func (c *tbaClient) eventMatches(ctx context.Context, eventKey string) ([]frcapi.TBAMatch, error) {
	return tbaGet[[]frcapi.TBAMatch](ctx, c, frcapi.TBAEventMatches.PathOf(frcapi.Args{Event: eventKey}))
}

// event returns the event's name, timezone and webcasts.
func (c *tbaClient) event(ctx context.Context, eventKey string) (*board.EventInfo, error) {
	raw, err := tbaGet[*frcapi.TBAEventInfo](ctx, c, frcapi.TBAEvent.PathOf(frcapi.Args{Event: eventKey}))
	if raw == nil {
		return nil, err
	}
	return eventFromJSON(*raw), nil
}

func eventFromJSON(raw frcapi.TBAEventInfo) *board.EventInfo {
	return &board.EventInfo{Key: raw.Key, Name: raw.Name, Timezone: raw.Timezone, Webcasts: raw.Webcasts,
		StartDate: raw.StartDate, EndDate: raw.EndDate, PlayoffType: frcapi.Deref(raw.PlayoffType),
		City: frcapi.Deref(raw.City), StateProv: frcapi.Deref(raw.StateProv), Country: frcapi.Deref(raw.Country)}
}

// rankings returns the event's qualification rankings; nil before any exist.
func (c *tbaClient) rankings(ctx context.Context, eventKey string) (*tbaRankings, error) {
	raw, err := tbaGet[*frcapi.TBAEventRanking](ctx, c, frcapi.TBARankings.PathOf(frcapi.Args{Event: eventKey}))
	if raw == nil {
		return nil, err
	}
	out := &tbaRankings{Lines: make([]board.RankingLine, 0, len(raw.Rankings)), SortOrders: raw.SortOrderInfo}
	for _, r := range raw.Rankings {
		out.Lines = append(out.Lines, board.RankingLine{Team: frcapi.TeamNumber(r.TeamKey), Rank: r.Rank, Record: board.Record(r.Record),
			SortOrders: r.SortOrders, Played: r.MatchesPlayed})
	}
	return out, nil
}

// alliances returns the event's playoff alliances in number order; nil
// before alliance selection (TBA answers null).
func (c *tbaClient) alliances(ctx context.Context, eventKey string) ([]board.ListedAlliance, error) {
	raw, err := tbaGet[[]*frcapi.TBAAlliance](ctx, c, frcapi.TBAAlliances.PathOf(frcapi.Args{Event: eventKey}))
	if raw == nil {
		return nil, err
	}
	out := make([]board.ListedAlliance, 0, len(raw))
	for i, a := range raw {
		al := board.ListedAlliance{Name: "Alliance " + strconv.Itoa(i+1)}
		if a != nil {
			al.Name = cmp.Or(a.Name, al.Name)
			for _, k := range a.Picks {
				al.Teams = append(al.Teams, frcapi.TeamNumber(k))
			}
			if bk := a.Backup.Backup; bk != nil {
				al.BackupIn, al.BackupOut = frcapi.TeamNumber(bk.In), frcapi.TeamNumber(bk.Out)
			}
			if a.Status != nil {
				al.State, al.Round = a.Status.Status, a.Status.DoubleElimRound
			}
		}
		out = append(out, al)
	}
	return out, nil
}

// teamNames returns the nicknames of the event's teams by number.
func (c *tbaClient) teamNames(ctx context.Context, eventKey string) (map[string]string, error) {
	raw, err := tbaGet[[]frcapi.TBATeam](ctx, c, frcapi.TBAEventTeams.PathOf(frcapi.Args{Event: eventKey}))
	if raw == nil {
		return nil, err
	}
	names := make(map[string]string, len(raw))
	for _, t := range raw {
		names[strconv.Itoa(t.TeamNumber)] = t.Nickname
	}
	return names, nil
}

// downEvents returns the keys of the events whose data feed TBA lists as down.
func (c *tbaClient) downEvents(ctx context.Context) ([]string, error) {
	raw, err := tbaGet[frcapi.TBAAPIStatus](ctx, c, frcapi.TBAStatus.Path)
	return raw.DownEvents, err
}

// teamEvents returns our events of a year.
func (c *tbaClient) teamEvents(ctx context.Context, team, year int) ([]board.EventInfo, error) {
	raw, err := tbaGet[[]frcapi.TBAEventInfo](ctx, c, frcapi.TBATeamEvents.PathOf(frcapi.Args{Team: team, Year: year}))
	if err != nil {
		return nil, err
	}
	out := make([]board.EventInfo, 0, len(raw))
	for _, e := range raw {
		out = append(out, *eventFromJSON(e))
	}
	return out, nil
}

// teamEventStatuses returns our result at each event of a year by event
// key: nil for a null answer, and no entry where TBA has no status.
func (c *tbaClient) teamEventStatuses(ctx context.Context, team, year int) (map[string]*board.SeasonResult, error) {
	raw, err := tbaGet[frcapi.TBAStatuses](ctx, c, frcapi.TBATeamEventStatuses.PathOf(frcapi.Args{Team: team, Year: year}))
	if raw == nil {
		return nil, err
	}
	out := make(map[string]*board.SeasonResult, len(raw))
	for key, st := range raw {
		if r := board.SeasonResultOf(st); r != nil {
			out[key] = r
		}
	}
	return out, nil
}

// teamAwards returns the names of our awards of a year by event key; nil
// for a null answer.
func (c *tbaClient) teamAwards(ctx context.Context, team, year int) (map[string][]string, error) {
	raw, err := tbaGet[[]frcapi.TBAAward](ctx, c, frcapi.TBATeamAwards.PathOf(frcapi.Args{Team: team, Year: year}))
	if raw == nil {
		return nil, err
	}
	return board.SeasonAwards(raw), nil
}
