package board

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// SeasonData is what the hub keeps of our season on TBA: our events of the
// year, our result at each and our awards, in the merge's own form. It is
// kept apart from the event's data: it outlives a change of event, and a
// hub with no event (between events) still has it.
type SeasonData struct {
	// Year is the season's: the event key's, else our clock's.
	Year int `json:"year"`
	// LastGood is when one of its endpoints last answered well.
	LastGood time.Time `json:"lastGood"`
	// Events are our events of the year; nil until TBA listed them.
	Events []EventInfo `json:"events"`
	// Results are our results by event key; an event TBA has no status
	// for (not started) is absent or nil.
	Results map[string]*SeasonResult `json:"results"`
	// Awards are the names of our awards by event key, as TBA lists them.
	Awards map[string][]string `json:"awards"`
}

// SeasonResult is our result at one event, from TBA's status of us there.
type SeasonResult struct {
	// Rank is our qualification rank (0 unknown) of Of teams.
	Rank int `json:"rank"`
	Of   int `json:"of"`
	// Record is our qualification record; nil before we are ranked.
	Record *Record `json:"record"`
	// Playoff is how our playoffs went.
	Playoff SeasonPlayoff `json:"playoff"`
}

// SeasonEvent is one of our events of the season, with our result there
// once it has one: the follow page lists them between events.
type SeasonEvent struct {
	// Key is TBA's event key, like "2026okok".
	Key string `json:"key"`
	// Name is the event's name, like "Oklahoma Regional".
	Name string `json:"name"`
	// Place is where it is, like "Tulsa, OK, USA" ("" when unknown).
	Place string `json:"place"`
	// Start and End are its first and last days, "YYYY-MM-DD" in its
	// timezone.
	Start string `json:"start"`
	End   string `json:"end"`
	// Rank is our qualification rank, 0 while unknown (not started, not
	// ranked yet), of Of teams (0 unknown).
	Rank int `json:"rank"`
	Of   int `json:"of"`
	// Record is our qualification record; nil before we are ranked.
	Record *Record `json:"record"`
	// Playoff is how our playoffs went there.
	Playoff SeasonPlayoff `json:"playoff"`
	// Awards are the names of the awards we won there, as FIRST names
	// them (like "Judges' Award"); empty when none.
	Awards []string `json:"awards"`
}

// SeasonPlayoff is how the playoffs of an event went for us: whether we
// won, were finalists, were eliminated (and where), play on, or have no
// playoff result there.
type SeasonPlayoff struct {
	// Kind says which.
	Kind SeasonPlayoffKind `json:"kind" wire:"tag"`
	// Alliance is our alliance's number; 0 when TBA does not say, or on none.
	Alliance int `json:"alliance"`
	// Level is where we were eliminated, or play now.
	Level PlayoffLevel `json:"level,omitempty" wire:"eliminated playing"`
	// Round is the round of the double-elimination bracket (1 …) where we
	// were eliminated or play now (Level PlayoffLevelBracket); 0 elsewhere,
	// or when TBA does not say.
	Round int `json:"round"`
	// Record is our alliance's playoff record.
	Record *Record `json:"record,omitempty" wire:"won finalist eliminated playing"`
}

// SeasonPlayoffKind says how the playoffs of an event went for us.
type SeasonPlayoffKind string

// The kinds of a SeasonPlayoff.
const (
	// SeasonPlayoffNone: no playoff result: the playoffs have not begun,
	// or we were on no alliance.
	SeasonPlayoffNone SeasonPlayoffKind = "none"
	// SeasonPlayoffPlaying: our alliance plays on, at Level (Round).
	SeasonPlayoffPlaying SeasonPlayoffKind = "playing"
	// SeasonPlayoffEliminated: our alliance was eliminated at Level
	// (Round), before the finals.
	SeasonPlayoffEliminated SeasonPlayoffKind = "eliminated"
	// SeasonPlayoffFinalist: our alliance lost the finals.
	SeasonPlayoffFinalist SeasonPlayoffKind = "finalist"
	// SeasonPlayoffWon: our alliance won the event.
	SeasonPlayoffWon SeasonPlayoffKind = "won"
)

// PlayoffLevel is a stage of the playoffs.
type PlayoffLevel string

// The levels of a SeasonPlayoff.
const (
	// PlayoffLevelBracket: the rounds of a double-elimination bracket
	// (2023 on), before the finals.
	PlayoffLevelBracket PlayoffLevel = "bracket"
	// PlayoffLevelFinals: the finals.
	PlayoffLevelFinals PlayoffLevel = "finals"
	// PlayoffLevelSemifinals: the semifinals of an older bracket.
	PlayoffLevelSemifinals PlayoffLevel = "semifinals"
	// PlayoffLevelQuarterfinals: the quarterfinals of an older bracket.
	PlayoffLevelQuarterfinals PlayoffLevel = "quarterfinals"
	// PlayoffLevelEighthfinals: the eighth-finals of an older bracket.
	PlayoffLevelEighthfinals PlayoffLevel = "eighthfinals"
)

// SeasonResultOf is our result at an event from TBA's status of us there;
// nil for a null status. The status's summaries are HTML and are not read.
func SeasonResultOf(st *frcapi.TBATeamEventStatus) *SeasonResult {
	if st == nil {
		return nil
	}
	r := &SeasonResult{Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}}
	if q := st.Qual; q != nil {
		r.Of = q.NumTeams
		if q.Ranking != nil && q.Ranking.Rank > 0 {
			r.Rank, r.Record = q.Ranking.Rank, new(Record(q.Ranking.Record))
		}
	}
	if a := st.Alliance; a != nil {
		r.Playoff.Alliance = a.Number
	}
	p := st.Playoff
	if p == nil {
		return r
	}
	level, round := playoffLevel(p)
	rec := new(Record(p.Record))
	switch {
	case p.Status == "won":
		r.Playoff = SeasonPlayoff{Kind: SeasonPlayoffWon, Alliance: r.Playoff.Alliance, Record: rec}
	case p.Status == "eliminated" && level == PlayoffLevelFinals:
		r.Playoff = SeasonPlayoff{Kind: SeasonPlayoffFinalist, Alliance: r.Playoff.Alliance, Record: rec}
	case p.Status == "eliminated":
		r.Playoff = SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: r.Playoff.Alliance, Level: level, Round: round, Record: rec}
	case p.Status == "playing":
		r.Playoff = SeasonPlayoff{Kind: SeasonPlayoffPlaying, Alliance: r.Playoff.Alliance, Level: level, Round: round, Record: rec}
	}
	return r
}

// playoffLevel is where a playoff status stands: TBA's double-elimination
// round when it names one ("Round 4", "Finals"), else its comp level, where
// "sf" is the bracket of a double-elimination event and the semifinals of
// an older one.
func playoffLevel(p *frcapi.TBATeamPlayoff) (PlayoffLevel, int) {
	if p.DoubleElimRound == "Finals" {
		return PlayoffLevelFinals, 0
	}
	if n, ok := strings.CutPrefix(p.DoubleElimRound, "Round "); ok {
		round, _ := strconv.Atoi(n)
		return PlayoffLevelBracket, max(round, 0)
	}
	switch p.Level {
	case "f":
		return PlayoffLevelFinals, 0
	case "qf":
		return PlayoffLevelQuarterfinals, 0
	case "ef":
		return PlayoffLevelEighthfinals, 0
	case "sf":
		// TBA's older types start at 0 (8 alliances' bracket).
		if t := p.PlayoffType; t != nil && *t != frcapi.PlayoffDoubleElim8 && *t != frcapi.PlayoffDoubleElim4 {
			return PlayoffLevelSemifinals, 0
		}
	}
	// A double-elimination bracket (the only kind since 2023) whose round
	// TBA does not name.
	return PlayoffLevelBracket, 0
}

// SeasonAwards groups TBA's list of our awards by event key: the names, in
// TBA's order.
func SeasonAwards(awards []frcapi.TBAAward) map[string][]string {
	out := make(map[string][]string)
	for _, a := range awards {
		out[a.EventKey] = append(out[a.EventKey], a.Name)
	}
	return out
}

// season lists our events of the season with our result at each, by start
// date; never nil.
func season(sd *SeasonData) []SeasonEvent {
	out := []SeasonEvent{}
	if sd == nil {
		return out
	}
	for _, ev := range sd.Events {
		se := SeasonEvent{
			Key: ev.Key, Name: ev.Name, Place: place(ev.City, ev.StateProv, ev.Country),
			Start: ev.StartDate, End: ev.EndDate,
			Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}, Awards: []string{},
		}
		if r := sd.Results[ev.Key]; r != nil {
			se.Rank, se.Of, se.Playoff = r.Rank, r.Of, r.Playoff
			if r.Record != nil {
				se.Record = new(*r.Record)
			}
			if r.Playoff.Record != nil {
				se.Playoff.Record = new(*r.Playoff.Record)
			}
		}
		se.Awards = append(se.Awards, sd.Awards[ev.Key]...)
		out = append(out, se)
	}
	slices.SortStableFunc(out, func(a, b SeasonEvent) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(a.Key, b.Key))
	})
	return out
}
