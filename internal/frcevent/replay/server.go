package replay

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// The keys replayd accepts unless told others, and that the tests give:
// conventional values, which a client passes as it would real keys.
const (
	DefaultNexusKey = "replay-nexus-key"
	DefaultTBAKey   = "replay-tba-key"
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
	// NexusKey and TBAKey are the keys accepted, checked as the APIs do
	// (401 without, 403 another); "" serves that API to anyone, as a
	// stand-in inside this process (the demo's) has nobody to keep out.
	NexusKey string
	TBAKey   string
}

// Base is the path under which the server serves the API src, like
// "/nexus/api/v1": a client's base URL is the server's URL and it.
func Base(src frcapi.Source) string {
	if src == frcapi.TBA {
		return "/tba/api/v3"
	}
	return "/nexus/api/v1"
}

// Server is an http.Handler serving Nexus under Base(frcapi.Nexus) and TBA
// under Base(frcapi.TBA). It is safe for concurrent use.
type Server struct {
	opts  Options
	steps []Step // sorted by At
	mux   *http.ServeMux

	mu       sync.Mutex
	requests map[frcapi.Endpoint][]time.Time
}

// New returns a Server playing opts.Timeline.
func New(opts Options) *Server {
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Start.IsZero() {
		opts.Start = opts.Clock.Now()
	}
	if opts.Timeline.NexusEvent == "" {
		opts.Timeline.NexusEvent = opts.Timeline.Event
	}
	s := &Server{opts: opts, steps: slices.Clone(opts.Timeline.Steps), mux: http.NewServeMux(),
		requests: make(map[frcapi.Endpoint][]time.Time)}
	slices.SortStableFunc(s.steps, func(a, b Step) int { return cmp.Compare(a.At, b.At) })

	for _, e := range []struct {
		endpoint frcapi.Endpoint
		serve    func(r *http.Request, m moment) answer
	}{
		{frcapi.NexusEvent, s.nexusEvent},
		{frcapi.NexusPits, s.nexusPits},
		{frcapi.TBATeamStatus, s.ofTeamEvent(s.tbaTeamStatus)},
		{frcapi.TBATeamMatches, s.ofTeamEvent(s.tbaMatches)},
		{frcapi.TBAEvent, s.ofEvent(s.tbaEvent)},
		{frcapi.TBARankings, s.ofEvent(s.tbaRankings)},
		{frcapi.TBAStatus, s.tbaStatus},
		{frcapi.TBATeamEvents, s.tbaTeamEvents},
		{frcapi.TBATeamEventStatuses, s.tbaTeamEventStatuses},
		{frcapi.TBATeamAwards, s.tbaTeamAwards},
		{frcapi.TBAAlliances, s.ofEvent(s.tbaAlliances)},
		{frcapi.TBAEventMatches, s.ofEvent(s.tbaEventMatches)},
		{frcapi.TBAEventTeams, s.ofEvent(s.tbaEventTeams)},
	} {
		s.handle(e.endpoint, e.serve)
	}
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Count returns how many requests reached endpoint, answered or not: a
// test tells from it how often a client asks.
func (s *Server) Count(endpoint frcapi.Endpoint) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests[endpoint])
}

// Requests returns when, by the server's clock, each request to endpoint
// arrived, oldest first, so a test can check a client's pace and backoff.
func (s *Server) Requests(endpoint frcapi.Endpoint) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests[endpoint])
}

// answer is what an endpoint serves: a value to encode with a status, or
// an error status alone.
type answer struct {
	code  int
	value any
}

// ofEvent answers TBA's 404 for an event other than the timeline's, or
// before the timeline lists its event, and what serve answers otherwise:
// the endpoints of one event (serve may rely on m.Event).
func (s *Server) ofEvent(serve func(r *http.Request, m moment) answer) func(r *http.Request, m moment) answer {
	return func(r *http.Request, m moment) answer {
		if r.PathValue("event") != s.opts.Timeline.Event || m.Event == nil {
			return notFound("event")
		}
		return serve(r, m)
	}
}

// ofTeamEvent is ofEvent for the endpoints of the team at one event
// (/team/{team}/event/{event}/…): TBA's 404 for another team too.
func (s *Server) ofTeamEvent(serve func(r *http.Request, m moment) answer) func(r *http.Request, m moment) answer {
	return func(r *http.Request, m moment) answer {
		if r.PathValue("team") != frcapi.TeamKey(s.opts.Timeline.Team) || r.PathValue("event") != s.opts.Timeline.Event || m.Event == nil {
			return notFound("team or event")
		}
		return serve(r, m)
	}
}

func notFound(what string) answer {
	return answer{http.StatusNotFound, map[string]string{"Error": what + " not found"}}
}

// handle mounts an endpoint behind the request count and the key check,
// and answers as its API does: TBA with its caching headers.
func (s *Server) handle(endpoint frcapi.Endpoint, serve func(r *http.Request, m moment) answer) {
	s.mux.HandleFunc("GET "+Base(endpoint.Source)+endpoint.Path, func(w http.ResponseWriter, r *http.Request) {
		now := s.opts.Clock.Now()
		s.mu.Lock()
		s.requests[endpoint] = append(s.requests[endpoint], now)
		s.mu.Unlock()
		if !s.keyOK(w, r, endpoint.Source) {
			return
		}
		a := serve(r, s.at(now))
		body, err := json.Marshal(a.value)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if endpoint.Source == frcapi.TBA && a.code == http.StatusOK && notModified(w, r, body) {
			return
		}
		w.WriteHeader(a.code)
		_, _ = w.Write(body) // the client hung up: nothing to do
	})
}

// keyOK checks the API key header: missing is 401, wrong is 403, as both
// APIs answer; an API served without a key takes any.
func (s *Server) keyOK(w http.ResponseWriter, r *http.Request, api frcapi.Source) bool {
	header, want := api.KeyHeader(), s.opts.NexusKey
	if api == frcapi.TBA {
		want = s.opts.TBAKey
	}
	switch got := r.Header.Get(header); {
	case want == "":
	case got == "":
		http.Error(w, `{"Error": "`+header+` header missing"}`, http.StatusUnauthorized)
		return false
	case got != want:
		http.Error(w, `{"Error": "`+header+` invalid"}`, http.StatusForbidden)
		return false
	}
	return true
}
