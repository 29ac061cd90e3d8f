package replay

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// The keys a Server accepts when Options leave them empty.
const (
	DefaultNexusKey = "replay-nexus-key"
	DefaultTBAKey   = "replay-tba-key"
)

// The endpoints a Server counts requests of.
const (
	EndpointNexusEvent    = "nexus event"
	EndpointNexusPits     = "nexus pits"
	EndpointTBATeamStatus = "tba team status"
	EndpointTBAMatches    = "tba team matches"
	EndpointTBAEvent      = "tba event"
	EndpointTBARankings   = "tba rankings"
	EndpointTBAStatus     = "tba status"
	EndpointTBATeamEvents = "tba team events"
)

// Options configures a Server.
type Options struct {
	// Timeline is the script to serve.
	Timeline Timeline
	// Start is when offset 0 of the timeline happens; zero means the
	// clock's time at New, which shifts the whole script to now.
	Start time.Time
	// Loop starts the timeline again every Timeline.Length; false stays on
	// its last state.
	Loop bool
	// Clock tells the time; nil means clock.Real.
	Clock clock.Clock
	// NexusKey and TBAKey are the keys accepted; "" means DefaultNexusKey
	// and DefaultTBAKey.
	NexusKey string
	TBAKey   string
	// SlowDelay is how long FaultSlow holds an answer, unless the client
	// gives up first; zero means 30 s.
	SlowDelay time.Duration
	// FlapEvery is how long each spell of FaultFlap lasts, bad then good
	// then bad again; zero means DefaultFlapEvery.
	FlapEvery time.Duration
	// FlapFault is the fault of FaultFlap's bad spells; "" means FaultDown.
	// It cannot be FaultFlap itself.
	FlapFault Fault
}

// DefaultFlapEvery is the default of Options.FlapEvery: a link that goes
// down and up every few seconds.
const DefaultFlapEvery = 5 * time.Second

// hugeSize is the length of FaultHuge's body: 50 MiB, ten times what any
// client of an event API should take.
const hugeSize = 50 << 20

// Server is an http.Handler serving Nexus under /nexus/api/v1/ and TBA
// under /tba/api/v3/. It is safe for concurrent use.
type Server struct {
	opts  Options
	steps []Step // sorted by At
	mux   *http.ServeMux

	// active counts the requests being handled, a hung one until its
	// client gives up.
	active atomic.Int64

	mu       sync.Mutex
	faults   map[string]setFault // set at run time, by API: "nexus", "tba"
	requests map[string][]time.Time
}

// setFault is a fault set at run time, and when: a flap starts then.
type setFault struct {
	fault Fault
	since time.Time
}

// New returns a Server playing opts.Timeline.
func New(opts Options) *Server {
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Start.IsZero() {
		opts.Start = opts.Clock.Now()
	}
	if opts.NexusKey == "" {
		opts.NexusKey = DefaultNexusKey
	}
	if opts.TBAKey == "" {
		opts.TBAKey = DefaultTBAKey
	}
	if opts.SlowDelay == 0 {
		opts.SlowDelay = 30 * time.Second
	}
	if opts.FlapEvery == 0 {
		opts.FlapEvery = DefaultFlapEvery
	}
	if opts.FlapFault == FaultNone {
		opts.FlapFault = FaultDown
	}
	if opts.FlapFault == FaultFlap || !opts.FlapFault.Valid() {
		panic(fmt.Sprintf("replay.New: FlapFault %q: want a fault other than flap", opts.FlapFault))
	}
	if opts.Timeline.NexusEvent == "" {
		opts.Timeline.NexusEvent = opts.Timeline.Event
	}
	s := &Server{opts: opts, steps: slices.Clone(opts.Timeline.Steps), mux: http.NewServeMux(),
		faults: make(map[string]setFault), requests: make(map[string][]time.Time)}
	slices.SortStableFunc(s.steps, func(a, b Step) int { return cmp.Compare(a.At, b.At) })

	s.handle("GET /nexus/api/v1/event/{event}", EndpointNexusEvent, s.nexusEvent)
	s.handle("GET /nexus/api/v1/event/{event}/pits", EndpointNexusPits, s.nexusPits)
	s.handle("GET /tba/api/v3/team/{team}/event/{event}/status", EndpointTBATeamStatus, s.tbaTeamStatus)
	s.handle("GET /tba/api/v3/team/{team}/event/{event}/matches/simple", EndpointTBAMatches, s.tbaMatches)
	s.handle("GET /tba/api/v3/event/{event}", EndpointTBAEvent, s.tbaEvent)
	s.handle("GET /tba/api/v3/event/{event}/rankings", EndpointTBARankings, s.tbaRankings)
	s.handle("GET /tba/api/v3/status", EndpointTBAStatus, s.tbaStatus)
	s.handle("GET /tba/api/v3/team/{team}/events/{year}/simple", EndpointTBATeamEvents, s.tbaTeamEvents)
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// SetFault makes api ("nexus", "tba", or "" for both) fail with f until
// changed; FaultNone hands back to the timeline's own fault, if any. A
// FaultFlap starts now, by the server's clock, with a bad spell.
func (s *Server) SetFault(api string, f Fault) {
	now := s.opts.Clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range []string{"nexus", "tba"} {
		if api == "" || api == a {
			s.faults[a] = setFault{f, now}
		}
	}
}

// Active returns how many requests the server is handling now. A request
// of FaultHang or FaultSlow counts until its client gives up, so a test
// can tell that none is left behind.
func (s *Server) Active() int { return int(s.active.Load()) }

// Count returns how many requests reached endpoint (one of the Endpoint
// constants), answered or not.
func (s *Server) Count(endpoint string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests[endpoint])
}

// Requests returns when, by the server's clock, each request to endpoint
// arrived, oldest first.
func (s *Server) Requests(endpoint string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests[endpoint])
}

// ControlHandler returns the handler of POST /control, which takes
// {"fault": "FAULT", "api": "nexus|tba|"}, FAULT one of the Fault values
// ("" to serve again), so a test driving a separate process can make
// upstream fail and come back.
func (s *Server) ControlHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			Fault Fault  `json:"fault"`
			API   string `json:"api"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil || !req.Fault.Valid() ||
			(req.API != "" && req.API != "nexus" && req.API != "tba") {
			http.Error(w, controlUsage, http.StatusBadRequest)
			return
		}
		s.SetFault(req.API, req.Fault)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(req) // the client hung up: nothing to do
	})
}

// controlUsage is what POST /control answers to a request it does not take.
var controlUsage = func() string {
	names := make([]string, 0, len(knownFaults)+1)
	for _, f := range knownFaults {
		names = append(names, string(f))
	}
	return `want {"fault":"` + strings.Join(append(names, ""), "|") + `","api":"nexus|tba|"}`
}()

// moment is the timeline at one request: the state, where the current
// round started and how far into it we are.
type moment struct {
	State
	fault      Fault
	faultSince time.Time // when the timeline set fault
	base       time.Time
	elapsed    time.Duration
	// nexusChanged is the latest offset at which a step changed Nexus data.
	nexusChanged time.Duration
}

func (s *Server) at(now time.Time) moment {
	m := moment{base: s.opts.Start, elapsed: now.Sub(s.opts.Start)}
	if length := time.Duration(s.opts.Timeline.Length); s.opts.Loop && length > 0 && m.elapsed >= length {
		rounds := m.elapsed / length
		m.base = m.base.Add(rounds * length)
		m.elapsed -= rounds * length
	}
	for _, st := range s.steps {
		if time.Duration(st.At) > m.elapsed {
			break
		}
		if st.Fault != nil {
			m.fault, m.faultSince = *st.Fault, m.base.Add(time.Duration(st.At))
		}
		p := st.State
		if p.Nexus != nil || p.Announcements != nil || p.PartsRequests != nil {
			m.nexusChanged = time.Duration(st.At)
		}
		if p.Nexus != nil {
			m.Nexus = p.Nexus
		}
		if p.Announcements != nil {
			m.Announcements = p.Announcements
		}
		if p.PartsRequests != nil {
			m.PartsRequests = p.PartsRequests
		}
		if p.Pits != nil {
			m.Pits = p.Pits
		}
		if p.TeamStatus != nil {
			m.TeamStatus = p.TeamStatus
		}
		if p.Matches != nil {
			m.Matches = p.Matches
		}
		if p.Event != nil {
			m.Event = p.Event
		}
		if p.TeamEvents != nil {
			m.TeamEvents = p.TeamEvents
		}
		if p.Rankings != nil {
			m.Rankings = p.Rankings
		}
		if p.DownEvents != nil {
			m.DownEvents = p.DownEvents
		}
	}
	return m
}

// passed reports whether an optional offset is set and not in the future.
func (m moment) passed(o *Offset) bool { return o != nil && time.Duration(*o) <= m.elapsed }

// ms and sec turn an offset into Nexus's and TBA's absolute times.
func (m moment) ms(o Offset) int64  { return m.base.Add(time.Duration(o)).UnixMilli() }
func (m moment) sec(o Offset) int64 { return m.base.Add(time.Duration(o)).Unix() }

// answer is what an endpoint serves: a value to encode with a status, or
// an error status alone.
type answer struct {
	code  int
	value any
}

func notFound(what string) answer {
	return answer{http.StatusNotFound, map[string]string{"Error": what + " not found"}}
}

// handle mounts an endpoint behind the request count, the faults and the
// key check, and adds TBA's caching headers.
func (s *Server) handle(pattern, endpoint string, serve func(r *http.Request, m moment) answer) {
	api, _, _ := strings.Cut(strings.TrimPrefix(pattern, "GET /"), "/")
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		s.active.Add(1)
		defer s.active.Add(-1)
		now := s.opts.Clock.Now()
		m := s.at(now)
		s.mu.Lock()
		s.requests[endpoint] = append(s.requests[endpoint], now)
		set := s.faults[api]
		s.mu.Unlock()
		fault, since := set.fault, set.since
		if fault == FaultNone {
			fault, since = m.fault, m.faultSince
		}
		if fault == FaultFlap {
			fault = s.flap(now, since)
		}
		switch fault {
		case FaultDown:
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
				return
			}
			panic(http.ErrAbortHandler) // HTTP/2: abort the stream instead
		case FaultHang:
			// Nothing is sent, not even the headers. The request's context
			// ends when the client closes the connection, or when the
			// server closes: the handler never outlives either.
			<-r.Context().Done()
			return
		case Fault500:
			http.Error(w, "internal server error", http.StatusInternalServerError)
			return
		case Fault403:
			http.Error(w, `{"Error": "key revoked"}`, http.StatusForbidden)
			return
		case FaultSlow:
			select {
			case <-r.Context().Done():
				return
			case <-s.opts.Clock.After(s.opts.SlowDelay):
			}
		}
		if !s.keyOK(w, r, api) {
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if fault == FaultHuge {
			serveHuge(w)
			return
		}
		a := serve(r, m)
		body, err := json.Marshal(a.value)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		switch fault {
		case FaultMalformed:
			body = body[:len(body)/2]
		case FaultTruncated, FaultTruncatedChunked:
			cut(w, a.code, body, fault == FaultTruncated)
		default:
			if api == "tba" && a.code == http.StatusOK {
				sum := sha256.Sum256(body)
				etag := `"` + hex.EncodeToString(sum[:12]) + `"`
				w.Header().Set("ETag", etag)
				w.Header().Set("Cache-Control", "public, max-age=61")
				if r.Header.Get("If-None-Match") == etag {
					w.WriteHeader(http.StatusNotModified)
					return
				}
			}
		}
		w.WriteHeader(a.code)
		_, _ = w.Write(body) // the client hung up: nothing to do
	})
}

// flap returns the fault of a FaultFlap set at since: Options.FlapFault in
// its first FlapEvery, none in the next, and so on.
func (s *Server) flap(now, since time.Time) Fault {
	if now.Sub(since)/s.opts.FlapEvery%2 == 0 {
		return s.opts.FlapFault
	}
	return FaultNone
}

// cut sends the first half of body and drops the connection, as a network
// or a proxy failing in the middle of an answer does. With declared, the
// headers announce the whole body's length, which never comes; without, the
// body is chunked and its last chunk never comes.
func cut(w http.ResponseWriter, code int, body []byte, declared bool) {
	if declared {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(code)
	_, _ = w.Write(body[:len(body)/2])
	_ = http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler) // closes the connection without ending the answer
}

// padding is the filler FaultHuge's body repeats, shared by every answer.
var padding = sync.OnceValue(func() []byte { return bytes.Repeat([]byte("x"), 64<<10) })

// serveHuge sends a valid JSON object of hugeSize bytes, {"pad":"xxx…"},
// a piece at a time: the server's memory does not grow with it. It stops
// when the client hangs up, as a client with a size limit does.
func serveHuge(w http.ResponseWriter) {
	head, tail := []byte(`{"pad":"`), []byte(`"}`)
	w.Header().Set("Content-Length", strconv.Itoa(hugeSize))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(head); err != nil {
		return
	}
	for left := hugeSize - len(head) - len(tail); left > 0; {
		n, err := w.Write(padding()[:min(left, len(padding()))])
		if err != nil {
			return
		}
		left -= n
	}
	_, _ = w.Write(tail)
}

// keyOK checks the API key header: missing is 401, wrong is 403.
func (s *Server) keyOK(w http.ResponseWriter, r *http.Request, api string) bool {
	header, want := "Nexus-Api-Key", s.opts.NexusKey
	if api == "tba" {
		header, want = "X-TBA-Auth-Key", s.opts.TBAKey
	}
	switch got := r.Header.Get(header); {
	case got == "":
		http.Error(w, `{"Error": "`+header+` header missing"}`, http.StatusUnauthorized)
		return false
	case got != want:
		http.Error(w, `{"Error": "`+header+` invalid"}`, http.StatusForbidden)
		return false
	}
	return true
}

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
		t := nm.Times
		out := match{Label: nm.Label, Status: nm.Status, RedTeams: nm.RedTeams, BlueTeams: nm.BlueTeams,
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
				out.Status = "On field"
			case out.Times.ActualOnDeckTime != nil:
				out.Status = "On deck"
			case out.Times.ActualQueueTime != nil:
				out.Status = "Now queuing"
			default:
				out.Status = "Queuing soon"
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

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

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
