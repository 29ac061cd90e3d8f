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

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// The TBA endpoints, in the shape of TBA's API v3: times in seconds,
// summaries in HTML, and its caching.

// The wire shapes of TBA's API v3 that the server writes and LoadReal reads
// from saved answers.
type (
	// tbaSide is one alliance of a match. A null score reads as 0.
	tbaSide struct {
		TeamKeys   []string `json:"team_keys"`
		Score      int      `json:"score"`
		Surrogates []string `json:"surrogate_team_keys"`
		DQ         []string `json:"dq_team_keys"`
	}
	// tbaRanking is one line of the rankings: a Ranking in TBA's names,
	// so that the two convert.
	tbaRanking struct {
		TeamKey       string    `json:"team_key"`
		Rank          int       `json:"rank"`
		Record        Record    `json:"record"`
		MatchesPlayed int       `json:"matches_played"`
		SortOrders    []float64 `json:"sort_orders"`
		ExtraStats    []float64 `json:"extra_stats"`
		DQ            int       `json:"dq"`
		QualAverage   *float64  `json:"qual_average"`
	}
)

// notModified adds TBA's caching headers to a 200 answer of body and, when
// the request's If-None-Match names that body, answers 304 instead and
// reports true. TBA does this, and its clients rely on it to poll cheaply.
func notModified(w http.ResponseWriter, r *http.Request, body []byte) bool {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(frcapi.TBAMaxAge/time.Second)))
	if r.Header.Get("If-None-Match") != etag {
		return false
	}
	w.WriteHeader(http.StatusNotModified)
	return true
}

// teamKey is TBA's key of team number n, like "frc1209".
func teamKey(n int) string { return "frc" + strconv.Itoa(n) }

// teamEvent checks the team and event of a /team/{team}/event/{event}/ path.
func (s *Server) teamEvent(r *http.Request, m moment) bool {
	return r.PathValue("team") == teamKey(s.opts.Timeline.Team) && r.PathValue("event") == s.opts.Timeline.Event && m.Event != nil
}

func (s *Server) tbaTeamStatus(r *http.Request, m moment) answer {
	if !s.teamEvent(r, m) {
		return notFound("team or event")
	}
	st := m.TeamStatus
	if st == nil {
		return answer{http.StatusOK, nil}
	}
	team := teamKey(s.opts.Timeline.Team)
	var ranking any
	if st.Rank > 0 {
		line := map[string]any{"team_key": team, "rank": st.Rank, "record": st.Record, "matches_played": st.Record.Wins + st.Record.Losses + st.Record.Ties,
			"dq": 0, "qual_average": nil, "sort_orders": []float64{}}
		for _, rk := range m.Rankings {
			if rk.TeamKey == team && rk.SortOrders != nil {
				line["sort_orders"] = rk.SortOrders
			}
		}
		ranking = line
	}
	overall := st.OverallStatusStr
	if overall == "" {
		overall = fmt.Sprintf("Team %d is <b>Rank %d/%d</b> with a record of <b>%d-%d-%d</b>", s.opts.Timeline.Team, st.Rank, st.NumTeams, st.Record.Wins, st.Record.Losses, st.Record.Ties)
	}
	alliance, playoff, allianceStr, playoffStr := s.teamPlayoff(st, m)
	qualStatus := "playing"
	if m.Alliances != nil {
		qualStatus = "completed"
	}
	sortInfo := m.SortOrderInfo
	if sortInfo == nil {
		sortInfo = []StatInfo{}
	}
	out := map[string]any{
		"qual":                map[string]any{"num_teams": st.NumTeams, "status": qualStatus, "ranking": ranking, "sort_order_info": sortInfo},
		"alliance":            alliance,
		"playoff":             playoff,
		"alliance_status_str": cmp.Or(st.AllianceStatusStr, allianceStr),
		"playoff_status_str":  cmp.Or(st.PlayoffStatusStr, playoffStr),
		"overall_status_str":  overall,
		"next_match_key":      nullable(st.NextMatchKey),
		"last_match_key":      nullable(st.LastMatchKey),
	}
	if st.PitLocation != "" {
		out["pit_location"] = st.PitLocation
	}
	return answer{http.StatusOK, out}
}

// tbaMatches answers the team's matches: those listed whose alliances are
// decided and have the team.
func (s *Server) tbaMatches(r *http.Request, m moment) answer {
	if !s.teamEvent(r, m) {
		return notFound("team or event")
	}
	team := teamKey(s.opts.Timeline.Team)
	out := []map[string]any{}
	for _, mt := range m.Matches {
		if m.listed(mt.Listed) && m.listed(mt.Decided) && (slices.Contains(mt.Red, team) || slices.Contains(mt.Blue, team)) {
			out = append(out, s.matchJSON(m, mt))
		}
	}
	return answer{http.StatusOK, out}
}

// tbaEventMatches answers every listed match of the event, the undecided
// playoff matches with empty team keys.
func (s *Server) tbaEventMatches(r *http.Request, m moment) answer {
	if r.PathValue("event") != s.opts.Timeline.Event || m.Event == nil {
		return notFound("event")
	}
	out := []map[string]any{}
	for _, mt := range m.Matches {
		if m.listed(mt.Listed) {
			out = append(out, s.matchJSON(m, mt))
		}
	}
	return answer{http.StatusOK, out}
}

// matchJSON is a match in TBA's simple shape at this moment: its actual
// time once passed, its result once out (scores -1 before), its team keys
// once decided.
func (s *Server) matchJSON(m moment, mt Match) map[string]any {
	sec := func(o *Offset, shown bool) *int64 {
		if o == nil || !shown {
			return nil
		}
		v := m.sec(*o)
		return &v
	}
	side := func(teams []string, score int) tbaSide {
		a := tbaSide{TeamKeys: []string{}, Score: score, Surrogates: []string{}, DQ: []string{}}
		if !m.listed(mt.Decided) {
			return a
		}
		a.TeamKeys = append(a.TeamKeys, teams...)
		for _, t := range teams {
			if slices.Contains(mt.Surrogates, t) {
				a.Surrogates = append(a.Surrogates, t)
			}
			if slices.Contains(mt.DQ, t) {
				a.DQ = append(a.DQ, t)
			}
		}
		return a
	}
	red, blue, winner, out := m.result(mt)
	resultAt := mt.ResultAt
	if resultAt == nil {
		resultAt = mt.ActualTime
	}
	return map[string]any{
		"key": mt.Key, "event_key": s.opts.Timeline.Event, "comp_level": mt.CompLevel,
		"set_number": mt.SetNumber, "match_number": mt.MatchNumber,
		"alliances":        map[string]tbaSide{"red": side(mt.Red, red), "blue": side(mt.Blue, blue)},
		"winning_alliance": winner,
		"time":             sec(mt.Time, true),
		"predicted_time":   sec(mt.PredictedTime, true),
		"actual_time":      sec(mt.ActualTime, m.passed(mt.ActualTime)),
		"post_result_time": sec(resultAt, out),
	}
}

// tbaAlliances answers the alliances: null before selection; each one's
// status as set, or derived from the results so far.
func (s *Server) tbaAlliances(r *http.Request, m moment) answer {
	if r.PathValue("event") != s.opts.Timeline.Event || m.Event == nil {
		return notFound("event")
	}
	if m.Alliances == nil {
		return answer{http.StatusOK, nil}
	}
	out := make([]map[string]any, 0, len(m.Alliances))
	for i, a := range m.Alliances {
		o := map[string]any{"picks": nonNil(a.Picks), "declines": nonNil(a.Declines), "status": statusJSON(m.statusOf(i+1), m.Event.PlayoffType)}
		if a.Name != "" {
			o["name"] = a.Name
		}
		if !a.NoBackupKey {
			o["backup"] = a.Backup
		}
		out = append(out, o)
	}
	return answer{http.StatusOK, out}
}

// statusOf is the status of alliance number n: as set, else derived.
func (m moment) statusOf(n int) *AllianceStatus {
	if st := m.Alliances[n-1].Status; st != nil {
		return st
	}
	playoffType := 0
	if m.Event != nil {
		playoffType = m.Event.PlayoffType
	}
	return m.allianceStatus(n, playoffType)
}

// statusJSON is an alliance's status in TBA's shape; nil is null.
func statusJSON(st *AllianceStatus, playoffType int) any {
	if st == nil {
		return nil
	}
	return map[string]any{
		"playoff_type": nullableInt(playoffType), "level": st.Level, "record": st.Record,
		"current_level_record": st.CurrentLevelRecord, "status": st.Status, "double_elim_round": st.DoubleElimRound,
	}
}

// teamPlayoff returns the team status's alliance and playoff parts and
// their summaries: as the timeline sets them, else derived.
func (s *Server) teamPlayoff(st *TeamStatus, m moment) (alliance, playoff any, allianceStr, playoffStr string) {
	allianceStr, playoffStr = "--", "--"
	team := teamKey(s.opts.Timeline.Team)
	ta, tp := st.Alliance, st.Playoff
	if number, pick := m.teamAlliance(team); number > 0 {
		a := m.Alliances[number-1]
		if ta == nil {
			ta = &TeamAlliance{Name: allianceName(a, number), Number: number, Pick: pick, Backup: a.Backup}
		}
		if tp == nil {
			if as := m.statusOf(number); as != nil {
				tp = &TeamPlayoff{AllianceStatus: *as}
			}
		}
	}
	if ta != nil {
		alliance = map[string]any{"name": ta.Name, "number": ta.Number, "pick": ta.Pick, "backup": ta.Backup}
		allianceStr = fmt.Sprintf("<b>%s</b> of <b>%s</b>", pickName(ta.Pick), ta.Name)
	}
	if tp != nil {
		playoff = map[string]any{"level": tp.Level, "record": tp.Record, "current_level_record": tp.CurrentLevelRecord,
			"status": tp.Status, "double_elim_round": tp.DoubleElimRound, "playoff_average": tp.PlayoffAverage}
		r := tp.Record
		playoffStr = fmt.Sprintf("<b>%s</b> in <b>%s</b> with a playoff record of <b>%d-%d-%d</b>", cases(tp.Status), tp.DoubleElimRound, r.Wins, r.Losses, r.Ties)
	}
	return alliance, playoff, allianceStr, playoffStr
}

// pickName is how TBA's summaries name a pick.
func pickName(pick int) string {
	switch pick {
	case -1:
		return "Backup"
	case 0:
		return "Captain"
	case 1:
		return "1st Pick"
	case 2:
		return "2nd Pick"
	case 3:
		return "3rd Pick"
	}
	return fmt.Sprintf("%dth Pick", pick)
}

// cases capitalises a status word: "playing" is "Playing".
func cases(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tbaEventTeams answers the event's teams in TBA's simple shape.
func (s *Server) tbaEventTeams(r *http.Request, m moment) answer {
	if r.PathValue("event") != s.opts.Timeline.Event || m.Event == nil {
		return notFound("event")
	}
	out := make([]map[string]any, 0, len(m.Teams))
	for _, t := range m.Teams {
		out = append(out, map[string]any{"key": teamKey(t.Number), "team_number": t.Number, "nickname": t.Nickname,
			"name": t.Name, "city": nullable(t.City), "state_prov": nullable(t.StateProv), "country": nullable(t.Country)})
	}
	return answer{http.StatusOK, out}
}

// nonNil is list, or [] for nil: TBA sends lists, never null, inside an object.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// nullableInt is n as JSON's null when 0.
func nullableInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// playoffTypeStrings are TBA's names of its playoff types.
var playoffTypeStrings = map[int]string{
	frcapi.PlayoffDoubleElim8: "Double Elimination Bracket (8 Alliances)",
	frcapi.PlayoffDoubleElim4: "Double Elimination Bracket (4 Alliances)",
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
		"playoff_type": nullableInt(e.PlayoffType), "playoff_type_string": nullable(playoffTypeStrings[e.PlayoffType]),
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
	out := make([]tbaRanking, 0, len(m.Rankings))
	for _, rk := range m.Rankings {
		played := cmp.Or(rk.MatchesPlayed, rk.Record.Wins+rk.Record.Losses+rk.Record.Ties)
		out = append(out, tbaRanking{rk.TeamKey, rk.Rank, rk.Record, played, nonNil(rk.SortOrders), nonNil(rk.ExtraStats), rk.DQ, rk.QualAverage})
	}
	return answer{http.StatusOK, map[string]any{"rankings": out, "sort_order_info": nonNil(m.SortOrderInfo), "extra_stats_info": nonNil(m.ExtraStatsInfo)}}
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
	if r.PathValue("team") != teamKey(s.opts.Timeline.Team) || err != nil {
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
