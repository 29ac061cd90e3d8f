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

func (s *Server) tbaTeamStatus(_ *http.Request, m moment) answer {
	return answer{http.StatusOK, s.teamStatusJSON(m.TeamStatus, m, true)}
}

// teamStatusJSON is a team status in TBA's shape, nil for nil: of the
// timeline's event (current), its parts derived from the moment where not
// set, or of another event of the season, as set.
func (s *Server) teamStatusJSON(st *TeamStatus, m moment, current bool) *frcapi.TBATeamEventStatus {
	if st == nil {
		return nil
	}
	team := frcapi.TeamKey(s.opts.Timeline.Team)
	var ranking *frcapi.TBARanking
	if st.Rank > 0 {
		ranking = &frcapi.TBARanking{TeamKey: team, Rank: st.Rank, Record: st.Record, MatchesPlayed: st.Record.Wins + st.Record.Losses + st.Record.Ties,
			SortOrders: []float64{}}
		for _, rk := range m.Rankings {
			if current && rk.TeamKey == team && rk.SortOrders != nil {
				ranking.SortOrders = rk.SortOrders
			}
		}
	}
	overall := st.OverallStatusStr
	if overall == "" {
		overall = fmt.Sprintf("Team %d is <b>Rank %d/%d</b> with a record of <b>%d-%d-%d</b>", s.opts.Timeline.Team, st.Rank, st.NumTeams, st.Record.Wins, st.Record.Losses, st.Record.Ties)
	}
	alliance, playoff, allianceStr, playoffStr := s.teamPlayoff(st, m, current)
	qualStatus, sortOrderInfo := "completed", []StatInfo{}
	if current {
		sortOrderInfo = nonNil(m.SortOrderInfo)
		if m.Alliances == nil {
			qualStatus = "playing"
		}
	}
	return &frcapi.TBATeamEventStatus{
		Qual:              &frcapi.TBATeamQual{NumTeams: st.NumTeams, Status: cmp.Or(st.QualStatus, qualStatus), Ranking: ranking, SortOrderInfo: sortOrderInfo},
		Alliance:          alliance,
		Playoff:           playoff,
		AllianceStatusStr: cmp.Or(st.AllianceStatusStr, allianceStr),
		PlayoffStatusStr:  cmp.Or(st.PlayoffStatusStr, playoffStr),
		OverallStatusStr:  overall,
		NextMatchKey:      frcapi.Nullable(st.NextMatchKey),
		LastMatchKey:      frcapi.Nullable(st.LastMatchKey),
		PitLocation:       st.PitLocation,
	}
}

// tbaMatches answers the team's matches: those listed whose alliances are
// decided and have the team.
func (s *Server) tbaMatches(_ *http.Request, m moment) answer {
	team := frcapi.TeamKey(s.opts.Timeline.Team)
	out := []frcapi.TBAMatch{}
	for _, mt := range m.Matches {
		if m.listed(mt.Listed) && m.listed(mt.Decided) && (slices.Contains(mt.Red, team) || slices.Contains(mt.Blue, team)) {
			out = append(out, s.matchJSON(m, mt))
		}
	}
	return answer{http.StatusOK, out}
}

// tbaEventMatches answers every listed match of the event, the undecided
// playoff matches with empty team keys, and its score breakdowns once its
// result is out.
func (s *Server) tbaEventMatches(_ *http.Request, m moment) answer {
	out := []frcapi.TBAMatch{}
	for _, mt := range m.Matches {
		if m.listed(mt.Listed) {
			j := s.matchJSON(m, mt)
			if _, _, _, shown := m.result(mt); shown {
				j.ScoreBreakdown = mt.Breakdown
			}
			out = append(out, j)
		}
	}
	return answer{http.StatusOK, out}
}

// matchJSON is a match in TBA's simple shape at this moment: its actual
// time once passed, its result once out (scores -1 before), its team keys
// once decided.
func (s *Server) matchJSON(m moment, mt Match) frcapi.TBAMatch {
	sec := func(o *Offset, shown bool) *int64 {
		if o == nil || !shown {
			return nil
		}
		return new(m.sec(*o))
	}
	side := func(teams []string, score int) *frcapi.TBAMatchAlliance {
		a := &frcapi.TBAMatchAlliance{TeamKeys: []string{}, Score: &score, Surrogates: []string{}, DQ: []string{}}
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
	return frcapi.TBAMatch{
		Key: mt.Key, EventKey: s.opts.Timeline.Event, CompLevel: mt.CompLevel,
		SetNumber: mt.SetNumber, MatchNumber: mt.MatchNumber,
		Alliances:       frcapi.TBAMatchAlliances{Red: side(mt.Red, red), Blue: side(mt.Blue, blue)},
		WinningAlliance: winner,
		Time:            sec(mt.Time, true),
		PredictedTime:   sec(mt.PredictedTime, true),
		ActualTime:      sec(mt.ActualTime, m.passed(mt.ActualTime)),
		PostResultTime:  sec(resultAt, out),
	}
}

// tbaAlliances answers the alliances: null before selection; each one's
// status as set, or derived from the results so far.
func (s *Server) tbaAlliances(_ *http.Request, m moment) answer {
	if m.Alliances == nil {
		return answer{http.StatusOK, nil}
	}
	out := make([]frcapi.TBAAlliance, 0, len(m.Alliances))
	for i, a := range m.Alliances {
		out = append(out, frcapi.TBAAlliance{Name: a.Name, Picks: nonNil(a.Picks), Declines: nonNil(a.Declines),
			Backup: frcapi.TBABackupKey{Present: !a.NoBackupKey, Backup: a.Backup}, Status: statusJSON(m.statusOf(i+1), m.Event.PlayoffType)})
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
func statusJSON(st *AllianceStatus, playoffType int) *frcapi.TBAAllianceStatus {
	if st == nil {
		return nil
	}
	return &frcapi.TBAAllianceStatus{PlayoffType: frcapi.Nullable(playoffType), TBAPlayoffStatus: *st}
}

// teamPlayoff returns the team status's alliance and playoff parts and
// their summaries: as the timeline sets them, else derived (of the
// timeline's event only: current).
func (s *Server) teamPlayoff(st *TeamStatus, m moment, current bool) (alliance *TeamAlliance, playoff *TeamPlayoff, allianceStr, playoffStr string) {
	allianceStr, playoffStr = "--", "--"
	team := frcapi.TeamKey(s.opts.Timeline.Team)
	alliance, playoff = st.Alliance, st.Playoff
	if number, pick := m.teamAlliance(team); current && number > 0 {
		a := m.Alliances[number-1]
		if alliance == nil {
			alliance = &TeamAlliance{Name: allianceName(a, number), Number: number, Pick: pick, Backup: a.Backup}
		}
		if playoff == nil {
			if as := m.statusOf(number); as != nil {
				playoff = &TeamPlayoff{TBAPlayoffStatus: *as}
			}
		}
	}
	if alliance != nil {
		allianceStr = fmt.Sprintf("<b>%s</b> of <b>%s</b>", pickName(alliance.Pick), alliance.Name)
	}
	if playoff != nil {
		r := playoff.Record
		playoffStr = fmt.Sprintf("<b>%s</b> in <b>%s</b> with a playoff record of <b>%d-%d-%d</b>", cases(playoff.Status), playoff.DoubleElimRound, r.Wins, r.Losses, r.Ties)
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
func (s *Server) tbaEventTeams(_ *http.Request, m moment) answer {
	out := make([]frcapi.TBATeam, 0, len(m.Teams))
	for _, t := range m.Teams {
		out = append(out, frcapi.TBATeam{Key: frcapi.TeamKey(t.Number), TeamNumber: t.Number, Nickname: t.Nickname,
			Name: t.Name, City: frcapi.Nullable(t.City), StateProv: frcapi.Nullable(t.StateProv), Country: frcapi.Nullable(t.Country)})
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

// playoffTypeStrings are TBA's names of its playoff types.
var playoffTypeStrings = map[int]string{
	frcapi.PlayoffDoubleElim8: "Double Elimination Bracket (8 Alliances)",
	frcapi.PlayoffDoubleElim4: "Double Elimination Bracket (4 Alliances)",
}

// eventJSON is an Event in TBA's shape, its days turned into dates.
func (m moment) eventJSON(e Event, year int) frcapi.TBAEventInfo {
	loc, err := time.LoadLocation(e.Timezone)
	if err != nil {
		loc = time.UTC
	}
	y, mo, d := m.base.In(loc).Date()
	day := func(n int) string { return time.Date(y, mo, d+n, 0, 0, 0, 0, loc).Format(time.DateOnly) }
	return frcapi.TBAEventInfo{
		Key: e.Key, Name: e.Name, EventCode: strings.TrimLeft(e.Key, "0123456789"), Year: year,
		Timezone: e.Timezone, StartDate: day(e.StartDay), EndDate: day(e.EndDay), Webcasts: nonNil(e.Webcasts),
		PlayoffType: frcapi.Nullable(e.PlayoffType), PlayoffTypeString: frcapi.Nullable(playoffTypeStrings[e.PlayoffType]),
		City: frcapi.Nullable(e.City), StateProv: frcapi.Nullable(e.StateProv), Country: frcapi.Nullable(e.Country),
	}
}

func (s *Server) tbaEvent(_ *http.Request, m moment) answer {
	return answer{http.StatusOK, m.eventJSON(*m.Event, m.base.Year())}
}

func (s *Server) tbaRankings(_ *http.Request, m moment) answer {
	if m.Rankings == nil {
		return answer{http.StatusOK, nil}
	}
	out := make([]frcapi.TBARanking, 0, len(m.Rankings))
	for _, rk := range m.Rankings {
		played := cmp.Or(rk.MatchesPlayed, rk.Record.Wins+rk.Record.Losses+rk.Record.Ties)
		out = append(out, frcapi.TBARanking{TeamKey: rk.TeamKey, Rank: rk.Rank, Record: rk.Record, MatchesPlayed: played,
			SortOrders: nonNil(rk.SortOrders), ExtraStats: nonNil(rk.ExtraStats), DQ: rk.DQ, QualAverage: rk.QualAverage})
	}
	return answer{http.StatusOK, frcapi.TBAEventRanking{Rankings: out, SortOrderInfo: nonNil(m.SortOrderInfo), ExtraStatsInfo: nonNil(m.ExtraStatsInfo)}}
}

func (s *Server) tbaStatus(_ *http.Request, m moment) answer {
	year := m.base.Year()
	return answer{http.StatusOK, frcapi.TBAAPIStatus{CurrentSeason: year, MaxSeason: year, DownEvents: nonNil(m.DownEvents)}}
}

func (s *Server) tbaTeamEvents(r *http.Request, m moment) answer {
	year, ok := s.teamOfYear(r)
	if !ok {
		return notFound("team")
	}
	out := []frcapi.TBAEventInfo{}
	for _, e := range m.teamEvents() {
		if ev := m.eventJSON(e, year); strings.HasPrefix(ev.StartDate, strconv.Itoa(year)) {
			out = append(out, ev)
		}
	}
	return answer{http.StatusOK, out}
}

// teamEvents are the team's events: TeamEvents, or [Event], then the
// season's others not among them.
func (m moment) teamEvents() []Event {
	events := slices.Clone(m.TeamEvents)
	if events == nil && m.Event != nil {
		events = []Event{*m.Event}
	}
	for _, se := range m.Season {
		if !slices.ContainsFunc(events, func(e Event) bool { return e.Key == se.Event.Key }) {
			events = append(events, se.Event)
		}
	}
	return events
}

// teamOfYear checks a /team/{team}/…/{year} request: the year, or TBA's
// 404 for another team.
func (s *Server) teamOfYear(r *http.Request) (int, bool) {
	year, err := strconv.Atoi(r.PathValue("year"))
	return year, err == nil && r.PathValue("team") == frcapi.TeamKey(s.opts.Timeline.Team)
}

// tbaTeamEventStatuses answers the team's status at each of its events of
// the year, by key: the timeline's event's as /team/{team}/event/{event}/
// status answers it (null before the timeline lists the event), a season
// event's as set, null for the others.
func (s *Server) tbaTeamEventStatuses(r *http.Request, m moment) answer {
	year, ok := s.teamOfYear(r)
	if !ok {
		return notFound("team")
	}
	out := map[string]*frcapi.TBATeamEventStatus{}
	for _, e := range m.teamEvents() {
		if !strings.HasPrefix(m.eventJSON(e, year).StartDate, strconv.Itoa(year)) {
			continue
		}
		out[e.Key] = nil
		switch i := slices.IndexFunc(m.Season, func(se SeasonEvent) bool { return se.Event.Key == e.Key }); {
		case e.Key == s.opts.Timeline.Event && m.Event != nil:
			out[e.Key] = s.teamStatusJSON(m.TeamStatus, m, true)
		case i >= 0:
			out[e.Key] = s.teamStatusJSON(m.Season[i].Status, m, false)
		}
	}
	return answer{http.StatusOK, out}
}

// tbaTeamAwards answers the team's awards of the year: the season's
// events' and the timeline's event's, in that order.
func (s *Server) tbaTeamAwards(r *http.Request, m moment) answer {
	year, ok := s.teamOfYear(r)
	if !ok {
		return notFound("team")
	}
	out := []frcapi.TBAAward{}
	add := func(e Event, awards []Award) {
		if !strings.HasPrefix(m.eventJSON(e, year).StartDate, strconv.Itoa(year)) {
			return
		}
		for _, a := range awards {
			out = append(out, frcapi.TBAAward{Name: a.Name, AwardType: a.Type, EventKey: e.Key, Year: year,
				RecipientList: []frcapi.TBAAwardRecipient{{TeamKey: new(frcapi.TeamKey(s.opts.Timeline.Team))}}})
		}
	}
	for _, se := range m.Season {
		add(se.Event, se.Awards)
	}
	if m.Event != nil {
		add(*m.Event, m.Awards)
	}
	return answer{http.StatusOK, out}
}
