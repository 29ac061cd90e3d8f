package frcevent

import (
	"os"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/faultreplay"
	"github.com/robohornets/robohornets/internal/testutil/realevent"
)

// TestRealEvent plays a real past event (2024nytr, TBA's saved answers)
// at the moments a crew lives through and checks the pit display shows
// what team 3360 faced then. 3360 was the first pick of Alliance 2: it
// won Playoff 3, lost Playoff 8, won Playoffs 10 and 12, and went out in
// Playoff 13 (Round 5) with a record of 3-2.
func TestRealEvent(t *testing.T) {
	ev, err := realevent.Load(os.DirFS("../testutil/realevent/testdata/2024nytr"), 3360)
	if err != nil {
		t.Fatal(err)
	}
	ours := &board.OurAlliance{Number: 2, Role: "first pick", Partners: []string{"2791", "3171"}}
	tests := []struct {
		moment  string
		phase   board.Phase
		ours    *board.OurAlliance
		next    *board.PlayoffNext
		record  board.Record
		round   string
		state   board.AllianceState
		outcome board.Outcome
	}{
		{moment: "quals", phase: board.PhaseQualifications},
		{moment: "selection", phase: board.PhaseAllianceSelection},
		{"alliances", board.PhaseAllianceSelection, ours,
			&board.PlayoffNext{Match: 3, Alliance: board.ColourRed, Opponent: board.BracketSource{Kind: board.SourceAlliance, Alliance: 7},
				IfWin: board.Route{Kind: board.RoutePlayoff, Match: 8, Colour: board.ColourRed}, IfLose: board.Route{Kind: board.RoutePlayoff, Match: 6, Colour: board.ColourRed}},
			board.Record{}, "", board.AlliancePlaying, board.OutcomeNone},
		{"playoffs", board.PhasePlayoffs, ours,
			&board.PlayoffNext{Match: 10, Alliance: board.ColourRed, Opponent: board.BracketSource{Kind: board.SourceAlliance, Alliance: 8},
				IfWin: board.Route{Kind: board.RoutePlayoff, Match: 12, Colour: board.ColourRed}, IfLose: board.Route{Kind: board.RouteEliminated}},
			board.Record{Wins: 1, Losses: 1}, "Round 2", board.AlliancePlaying, board.OutcomeNone},
		{"eliminated", board.PhasePlayoffs, ours, nil, board.Record{Wins: 3, Losses: 2}, "Round 5", board.AllianceEliminated, board.OutcomeEliminated},
	}
	for _, tt := range tests {
		t.Run(tt.moment, func(t *testing.T) {
			at, err := ev.At(tt.moment)
			if err != nil {
				t.Fatal(err)
			}
			e := newEnvWith(t, replay.Options{Timeline: ev.Timeline, Start: start.Add(-time.Duration(at))}, faultreplay.Options{})
			opts := e.options()
			opts.Team, opts.EventKey = 3360, "2024nytr"
			h, _ := e.runHub(t, opts, 2)
			s := h.Current()
			if s.Phase != tt.phase {
				t.Errorf("phase = %q, want %q", s.Phase, tt.phase)
			}
			if tt.ours == nil {
				if tt.phase == board.PhaseQualifications && s.NextMatch == nil {
					t.Errorf("no next match during qualifications")
				}
				return
			}
			p := s.Playoffs
			if p == nil {
				t.Fatal("no playoffs once the alliances are known")
			}
			if !reflect.DeepEqual(p.Ours, tt.ours) || !reflect.DeepEqual(p.Next, tt.next) {
				t.Errorf("ours %+v, next %+v; want %+v, %+v", p.Ours, p.Next, tt.ours, tt.next)
			}
			if p.Record != tt.record || p.Round != tt.round || p.State != tt.state || p.Outcome != tt.outcome {
				t.Errorf("record %+v, round %q, state %q, outcome %q; want %+v, %q, %q, %q", p.Record, p.Round, p.State, p.Outcome, tt.record, tt.round, tt.state, tt.outcome)
			}
			if tt.next != nil && (s.NextMatch == nil || s.NextMatch.Label != "Playoff "+strconv.Itoa(tt.next.Match)) {
				t.Errorf("the next match shown = %+v, want Playoff %d", s.NextMatch, tt.next.Match)
			}
			// 9624 played for Alliance 1 from Playoff 7 on.
			if len(p.Alliances) != 8 || tt.moment != "alliances" && p.Alliances[0].Backup != "9624" {
				t.Errorf("Alliance 1's backup = %q, want 9624, who played its later matches though TBA's list does not say", p.Alliances[0].Backup)
			}
		})
	}
}

// TestRealEventForecast plays 2024nytr to the middle of its qualification
// matches, where its score breakdowns are served with the results: the hub
// forecasts the final ranks from them, for us and for each team on the
// cards, the same on every run (two hubs, as two serve instances), and
// shows none once the qualifications are over.
func TestRealEventForecast(t *testing.T) {
	ev, err := realevent.Load(os.DirFS("../testutil/realevent/testdata/2024nytr"), 3360)
	if err != nil {
		t.Fatal(err)
	}
	at := func(moment string) board.Status {
		t.Helper()
		o, err := ev.At(moment)
		if err != nil {
			t.Fatal(err)
		}
		e := newEnvWith(t, replay.Options{Timeline: ev.Timeline, Start: start.Add(-time.Duration(o))}, faultreplay.Options{})
		opts := e.options()
		opts.Team, opts.EventKey = 3360, "2024nytr"
		h, _ := e.runHub(t, opts, 2)
		return h.Current()
	}
	s := at("quals")
	f := s.Forecast
	if f == nil {
		t.Fatalf("no forecast in the middle of the qualifications (rank %+v)", s.Rank)
	}
	if f.Top8 < 0 || f.Top8 > 1 || f.Low > f.High || f.ExpectedRank < float64(f.Low) || f.ExpectedRank > float64(f.High) {
		t.Errorf("our forecast %+v is not a forecast", *f)
	}
	if len(s.TeamCards) == 0 {
		t.Fatal("no team cards")
	}
	for _, c := range s.TeamCards {
		if c.Forecast == nil {
			t.Errorf("card %s has no forecast", c.Team)
		}
	}
	if again := at("quals").Forecast; again == nil || *again != *f {
		t.Errorf("a second hub forecast %+v, the first %+v", again, *f)
	}
	if s := at("selection"); s.Forecast != nil {
		t.Errorf("a forecast after the qualifications: %+v", *s.Forecast)
	}
}
