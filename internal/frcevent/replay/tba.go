package replay

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The TBA endpoints, in the shape of TBA's API v3: times in seconds,
// summaries in HTML, and its caching.

// notModified adds TBA's caching headers to a 200 answer of body and, when
// the request's If-None-Match names that body, answers 304 instead and
// reports true. TBA does this, and its clients rely on it to poll cheaply.
func notModified(w http.ResponseWriter, r *http.Request, body []byte) bool {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "public, max-age=61")
	if r.Header.Get("If-None-Match") != etag {
		return false
	}
	w.WriteHeader(http.StatusNotModified)
	return true
}

// teamEvent checks the team and event of a /team/{team}/event/{event}/ path.
func (s *Server) teamEvent(r *http.Request, m moment) bool {
	return r.PathValue("team") == "frc"+strconv.Itoa(s.opts.Timeline.Team) && r.PathValue("event") == s.opts.Timeline.Event && m.Event != nil
}

func (s *Server) tbaTeamStatus(r *http.Request, m moment) answer {
	if !s.teamEvent(r, m) {
		return notFound("team or event")
	}
	st := m.TeamStatus
	if st == nil {
		return answer{http.StatusOK, nil}
	}
	var ranking any
	if st.Rank > 0 {
		ranking = map[string]any{"rank": st.Rank, "record": st.Record, "matches_played": st.Record.Wins + st.Record.Losses + st.Record.Ties}
	}
	overall := st.OverallStatusStr
	if overall == "" {
		overall = fmt.Sprintf("Team %d is <b>Rank %d/%d</b> with a record of <b>%d-%d-%d</b>", s.opts.Timeline.Team, st.Rank, st.NumTeams, st.Record.Wins, st.Record.Losses, st.Record.Ties)
	}
	out := map[string]any{
		"qual":                map[string]any{"num_teams": st.NumTeams, "status": "playing", "ranking": ranking},
		"alliance":            nil,
		"playoff":             nil,
		"alliance_status_str": cmp.Or(st.AllianceStatusStr, "--"),
		"playoff_status_str":  cmp.Or(st.PlayoffStatusStr, "--"),
		"overall_status_str":  overall,
		"next_match_key":      nullable(st.NextMatchKey),
		"last_match_key":      nullable(st.LastMatchKey),
	}
	if st.PitLocation != "" {
		out["pit_location"] = st.PitLocation
	}
	return answer{http.StatusOK, out}
}

func (s *Server) tbaMatches(r *http.Request, m moment) answer {
	if !s.teamEvent(r, m) {
		return notFound("team or event")
	}
	team := "frc" + strconv.Itoa(s.opts.Timeline.Team)
	type alliance struct {
		TeamKeys          []string `json:"team_keys"`
		Score             int      `json:"score"`
		SurrogateTeamKeys []string `json:"surrogate_team_keys"`
		DQTeamKeys        []string `json:"dq_team_keys"`
	}
	out := []map[string]any{}
	sec := func(o *Offset, shown bool) *int64 {
		if o == nil || !shown {
			return nil
		}
		v := m.sec(*o)
		return &v
	}
	for _, mt := range m.Matches {
		if !slices.Contains(mt.Red, team) && !slices.Contains(mt.Blue, team) {
			continue
		}
		result := mt.ResultAt
		if result == nil {
			result = mt.ActualTime
		}
		red, blue, winner := -1, -1, ""
		if m.passed(result) {
			red, blue, winner = mt.RedScore, mt.BlueScore, mt.WinningAlliance
		}
		out = append(out, map[string]any{
			"key": mt.Key, "event_key": s.opts.Timeline.Event, "comp_level": mt.CompLevel,
			"set_number": mt.SetNumber, "match_number": mt.MatchNumber,
			"alliances": map[string]alliance{
				"red":  {TeamKeys: mt.Red, Score: red, SurrogateTeamKeys: []string{}, DQTeamKeys: []string{}},
				"blue": {TeamKeys: mt.Blue, Score: blue, SurrogateTeamKeys: []string{}, DQTeamKeys: []string{}},
			},
			"winning_alliance": winner,
			"time":             sec(mt.Time, true),
			"predicted_time":   sec(mt.PredictedTime, true),
			"actual_time":      sec(mt.ActualTime, m.passed(mt.ActualTime)),
		})
	}
	return answer{http.StatusOK, out}
}

// eventJSON is an Event in TBA's shape, its days turned into dates.
func (m moment) eventJSON(e Event, year int) map[string]any {
	loc, err := time.LoadLocation(e.Timezone)
	if err != nil {
		loc = time.UTC
	}
	y, mo, d := m.base.In(loc).Date()
	day := func(n int) string { return time.Date(y, mo, d+n, 0, 0, 0, 0, loc).Format(time.DateOnly) }
	webcasts := e.Webcasts
	if webcasts == nil {
		webcasts = []Webcast{}
	}
	return map[string]any{
		"key": e.Key, "name": e.Name, "event_code": strings.TrimLeft(e.Key, "0123456789"), "year": year,
		"timezone": e.Timezone, "start_date": day(e.StartDay), "end_date": day(e.EndDay), "webcasts": webcasts,
	}
}

func (s *Server) tbaEvent(r *http.Request, m moment) answer {
	if r.PathValue("event") != s.opts.Timeline.Event || m.Event == nil {
		return notFound("event")
	}
	return answer{http.StatusOK, m.eventJSON(*m.Event, m.base.Year())}
}

func (s *Server) tbaRankings(r *http.Request, m moment) answer {
	if r.PathValue("event") != s.opts.Timeline.Event || m.Event == nil {
		return notFound("event")
	}
	if m.Rankings == nil {
		return answer{http.StatusOK, nil}
	}
	type ranking struct {
		TeamKey       string `json:"team_key"`
		Rank          int    `json:"rank"`
		Record        Record `json:"record"`
		MatchesPlayed int    `json:"matches_played"`
	}
	out := make([]ranking, 0, len(m.Rankings))
	for _, rk := range m.Rankings {
		out = append(out, ranking{rk.TeamKey, rk.Rank, rk.Record, rk.Record.Wins + rk.Record.Losses + rk.Record.Ties})
	}
	return answer{http.StatusOK, map[string]any{"rankings": out, "sort_order_info": []any{}, "extra_stats_info": []any{}}}
}

func (s *Server) tbaStatus(_ *http.Request, m moment) answer {
	down := m.DownEvents
	if down == nil {
		down = []string{}
	}
	year := m.base.Year()
	return answer{http.StatusOK, map[string]any{"current_season": year, "max_season": year, "is_datafeed_down": false, "down_events": down}}
}

func (s *Server) tbaTeamEvents(r *http.Request, m moment) answer {
	year, err := strconv.Atoi(r.PathValue("year"))
	if r.PathValue("team") != "frc"+strconv.Itoa(s.opts.Timeline.Team) || err != nil {
		return notFound("team")
	}
	events := m.TeamEvents
	if events == nil && m.Event != nil {
		events = []Event{*m.Event}
	}
	out := []map[string]any{}
	for _, e := range events {
		if ev := m.eventJSON(e, year); strings.HasPrefix(ev["start_date"].(string), strconv.Itoa(year)) {
			out = append(out, ev)
		}
	}
	return answer{http.StatusOK, out}
}
