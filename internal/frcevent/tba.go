package frcevent

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultTBAURL is the base of The Blue Alliance API v3.
const DefaultTBAURL = "https://www.thebluealliance.com/api/v3"

// tbaTeamStatus is the part of TBA's team@event status the page uses. Its
// *_status_str fields are HTML and are left out on purpose.
type tbaTeamStatus struct {
	Rank         *Rank  `json:"rank"` // nil before rankings exist
	NextMatchKey string `json:"nextMatchKey"`
	PitLocation  string `json:"pitLocation"`
}

// tbaMatch is one match of TBA's simple match list with times converted.
type tbaMatch struct {
	Key         string `json:"key"`
	CompLevel   string `json:"compLevel"`
	SetNumber   int    `json:"setNumber"`
	MatchNumber int    `json:"matchNumber"`
	// Red and Blue are team numbers without "frc".
	Red  []string `json:"red"`
	Blue []string `json:"blue"`
	// RedScore and BlueScore are -1 while unplayed.
	RedScore        int        `json:"redScore"`
	BlueScore       int        `json:"blueScore"`
	WinningAlliance string     `json:"winningAlliance"`
	Time            *time.Time `json:"time"`
	PredictedTime   *time.Time `json:"predictedTime"`
	ActualTime      *time.Time `json:"actualTime"`
}

// tbaEvent is the part of TBA's event the page uses.
type tbaEvent struct {
	Key      string       `json:"key"`
	Name     string       `json:"name"`
	Timezone string       `json:"timezone"`
	Webcasts []tbaWebcast `json:"webcasts"`
	// StartDate and EndDate are "YYYY-MM-DD" in the event's timezone.
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
}

// tbaWebcast is a stream as TBA lists it.
type tbaWebcast struct {
	Type    string `json:"type"`
	Channel string `json:"channel"`
}

// tbaRanking is one line of the event's rankings.
type tbaRanking struct {
	Team   string `json:"team"` // number without "frc"
	Rank   int    `json:"rank"`
	Record Record `json:"record"`
}

// The wire shapes of TBA; every field may be null.
type (
	tbaRecordJSON struct {
		Wins   int `json:"wins"`
		Losses int `json:"losses"`
		Ties   int `json:"ties"`
	}
	tbaTeamStatusJSON struct {
		Qual *struct {
			NumTeams int `json:"num_teams"`
			Ranking  *struct {
				Rank   *int           `json:"rank"`
				Record *tbaRecordJSON `json:"record"`
			} `json:"ranking"`
		} `json:"qual"`
		NextMatchKey *string `json:"next_match_key"`
		PitLocation  *string `json:"pit_location"`
	}
	tbaAllianceJSON struct {
		TeamKeys []string `json:"team_keys"`
		Score    *int     `json:"score"`
	}
	tbaMatchJSON struct {
		Key         string `json:"key"`
		CompLevel   string `json:"comp_level"`
		SetNumber   int    `json:"set_number"`
		MatchNumber int    `json:"match_number"`
		Alliances   *struct {
			Red  *tbaAllianceJSON `json:"red"`
			Blue *tbaAllianceJSON `json:"blue"`
		} `json:"alliances"`
		WinningAlliance *string `json:"winning_alliance"`
		Time            *int64  `json:"time"`
		PredictedTime   *int64  `json:"predicted_time"`
		ActualTime      *int64  `json:"actual_time"`
	}
	tbaEventJSON struct {
		Key       string  `json:"key"`
		Name      string  `json:"name"`
		Timezone  *string `json:"timezone"`
		StartDate *string `json:"start_date"`
		EndDate   *string `json:"end_date"`
		Webcasts  []struct {
			Type    string  `json:"type"`
			Channel *string `json:"channel"`
		} `json:"webcasts"`
	}
	tbaRankingsJSON struct {
		Rankings []struct {
			TeamKey string         `json:"team_key"`
			Rank    int            `json:"rank"`
			Record  *tbaRecordJSON `json:"record"`
		} `json:"rankings"`
	}
	tbaAPIStatusJSON struct {
		DownEvents []string `json:"down_events"`
	}
)

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
	header := http.Header{"X-TBA-Auth-Key": {c.key}, "Accept": {"application/json"}}
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
			return &sourceError{StateUnreachable, fmt.Errorf("event: %s: 304 without a cached body", what)}
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

// teamStatus returns our status at the event; nil when TBA has none (null
// before the event).
func (c *tbaClient) teamStatus(ctx context.Context, team int, eventKey string) (*tbaTeamStatus, error) {
	var raw *tbaTeamStatusJSON
	if err := c.get(ctx, "/team/"+teamKey(team)+"/event/"+url.PathEscape(eventKey)+"/status", &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, nil
	}
	st := &tbaTeamStatus{NextMatchKey: deref(raw.NextMatchKey), PitLocation: deref(raw.PitLocation)}
	if q := raw.Qual; q != nil && q.Ranking != nil && q.Ranking.Rank != nil && *q.Ranking.Rank > 0 {
		st.Rank = &Rank{Rank: *q.Ranking.Rank, Of: q.NumTeams, Record: record(q.Ranking.Record)}
	}
	return st, nil
}

func record(r *tbaRecordJSON) Record {
	if r == nil {
		return Record{}
	}
	return Record{Wins: r.Wins, Losses: r.Losses, Ties: r.Ties}
}

// matches returns our matches at the event: nil for a null answer, an
// empty list for [].
func (c *tbaClient) matches(ctx context.Context, team int, eventKey string) ([]tbaMatch, error) {
	var raw []tbaMatchJSON
	if err := c.get(ctx, "/team/"+teamKey(team)+"/event/"+url.PathEscape(eventKey)+"/matches/simple", &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, nil
	}
	out := make([]tbaMatch, 0, len(raw))
	for _, m := range raw {
		tm := tbaMatch{
			Key: m.Key, CompLevel: m.CompLevel, SetNumber: m.SetNumber, MatchNumber: m.MatchNumber,
			RedScore: -1, BlueScore: -1, WinningAlliance: deref(m.WinningAlliance),
			Time: fromSeconds(m.Time), PredictedTime: fromSeconds(m.PredictedTime), ActualTime: fromSeconds(m.ActualTime),
		}
		if a := m.Alliances; a != nil {
			tm.Red, tm.RedScore = alliance(a.Red)
			tm.Blue, tm.BlueScore = alliance(a.Blue)
		}
		out = append(out, tm)
	}
	return out, nil
}

func alliance(a *tbaAllianceJSON) ([]string, int) {
	if a == nil {
		return nil, -1
	}
	teams := make([]string, len(a.TeamKeys))
	for i, k := range a.TeamKeys {
		teams[i] = strings.TrimPrefix(k, "frc")
	}
	score := -1
	if a.Score != nil {
		score = *a.Score
	}
	return teams, score
}

// event returns the event's name, timezone and webcasts.
func (c *tbaClient) event(ctx context.Context, eventKey string) (*tbaEvent, error) {
	var raw *tbaEventJSON
	if err := c.get(ctx, "/event/"+url.PathEscape(eventKey), &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, nil
	}
	return eventFromJSON(*raw), nil
}

func eventFromJSON(raw tbaEventJSON) *tbaEvent {
	ev := &tbaEvent{Key: raw.Key, Name: raw.Name, Timezone: deref(raw.Timezone), StartDate: deref(raw.StartDate), EndDate: deref(raw.EndDate)}
	for _, w := range raw.Webcasts {
		ev.Webcasts = append(ev.Webcasts, tbaWebcast{Type: w.Type, Channel: deref(w.Channel)})
	}
	return ev
}

// rankings returns the event's qualification rankings; nil before any exist.
func (c *tbaClient) rankings(ctx context.Context, eventKey string) ([]tbaRanking, error) {
	var raw *tbaRankingsJSON
	if err := c.get(ctx, "/event/"+url.PathEscape(eventKey)+"/rankings", &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, nil
	}
	out := make([]tbaRanking, 0, len(raw.Rankings))
	for _, r := range raw.Rankings {
		out = append(out, tbaRanking{Team: strings.TrimPrefix(r.TeamKey, "frc"), Rank: r.Rank, Record: record(r.Record)})
	}
	return out, nil
}

// downEvents returns the keys of the events whose data feed TBA lists as down.
func (c *tbaClient) downEvents(ctx context.Context) ([]string, error) {
	var raw tbaAPIStatusJSON
	if err := c.get(ctx, "/status", &raw); err != nil {
		return nil, err
	}
	return raw.DownEvents, nil
}

// teamEvents returns our events of a year.
func (c *tbaClient) teamEvents(ctx context.Context, team, year int) ([]tbaEvent, error) {
	var raw []tbaEventJSON
	if err := c.get(ctx, "/team/"+teamKey(team)+"/events/"+strconv.Itoa(year)+"/simple", &raw); err != nil {
		return nil, err
	}
	out := make([]tbaEvent, 0, len(raw))
	for _, e := range raw {
		out = append(out, *eventFromJSON(e))
	}
	return out, nil
}
