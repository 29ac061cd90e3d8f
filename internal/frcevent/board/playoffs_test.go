package board

import (
	"reflect"
	"testing"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// eightAlliances are the alliances of a made-up event; we (1209) are the
// first pick of Alliance 3.
func eightAlliances() []ListedAlliance {
	teams := [][]string{
		{"101", "102", "103"}, {"201", "202", "203"}, {"301", "1209", "303"}, {"401", "402", "403"},
		{"501", "502", "503"}, {"601", "602", "603"}, {"701", "702", "703"}, {"801", "802", "803"},
	}
	out := make([]ListedAlliance, len(teams))
	for i, t := range teams {
		out[i] = ListedAlliance{Name: "Alliance " + string(rune('1'+i)), Teams: t}
	}
	return out
}

// game is a TBA playoff match: set n (0: the finals), match k, the two
// alliances' teams and the winner ("" unplayed, "tie").
func game(n, k int, red, blue []string, winner string) frcapi.TBAMatch {
	m := frcapi.TBAMatch{CompLevel: "sf", SetNumber: n, MatchNumber: k}
	if n == 0 {
		m.CompLevel, m.SetNumber = "f", 1
	}
	rs, bs := -1, -1
	switch winner {
	case "red":
		rs, bs, m.WinningAlliance = 90, 80, "red"
	case "blue":
		rs, bs, m.WinningAlliance = 80, 90, "blue"
	case "tie":
		rs, bs = 85, 85
	}
	m.Alliances = sides(red, blue, rs, bs)
	return m
}

// The shapes of the page's contract, short.
var (
	eliminated = Route{Kind: RouteEliminated}
	winners    = Route{Kind: RouteWinners}
)

func alliance(n int) BracketSource { return BracketSource{Kind: SourceAlliance, Alliance: n} }
func winnerOf(n int) BracketSource { return BracketSource{Kind: SourceWinnerOf, Match: n} }
func loserOf(n int) BracketSource  { return BracketSource{Kind: SourceLoserOf, Match: n} }
func toPlayoff(n int, c Colour) Route {
	return Route{Kind: RoutePlayoff, Match: n, Colour: c}
}

func TestPlayoffsBeforeSelection(t *testing.T) {
	if p := playoffs(TBAData{Event: &EventInfo{PlayoffType: PlayoffDoubleElim8}}, "1209"); p != nil {
		t.Fatalf("playoffs without alliances = %+v, want nil", p)
	}
}

func TestPlayoffsOurPath(t *testing.T) {
	a := eightAlliances()
	al := func(n int) []string { return a[n-1].Teams }
	ev := &EventInfo{PlayoffType: PlayoffDoubleElim8}
	tests := []struct {
		name    string
		matches []frcapi.TBAMatch
		state   AllianceState
		outcome Outcome
		record  Record
		round   string
		next    *PlayoffNext
	}{
		{"alliances formed", nil, AlliancePlaying, OutcomeNone, Record{}, "",
			&PlayoffNext{Match: 4, Alliance: ColourRed, Opponent: alliance(6), IfWin: toPlayoff(8, ColourBlue), IfLose: toPlayoff(6, ColourBlue)}},
		{"lost round 1, other side undecided", []frcapi.TBAMatch{game(4, 1, al(3), al(6), "blue")}, AlliancePlaying, OutcomeNone, Record{Losses: 1}, "Round 1",
			&PlayoffNext{Match: 6, Alliance: ColourBlue, Opponent: loserOf(3), IfWin: toPlayoff(9, ColourBlue), IfLose: eliminated}},
		{"lost round 1, opponent known", []frcapi.TBAMatch{game(4, 1, al(3), al(6), "blue"), game(3, 1, al(2), al(7), "red")}, AlliancePlaying, OutcomeNone, Record{Losses: 1}, "Round 1",
			&PlayoffNext{Match: 6, Alliance: ColourBlue, Opponent: alliance(7), IfWin: toPlayoff(9, ColourBlue), IfLose: eliminated}},
		{"out in round 2", []frcapi.TBAMatch{game(4, 1, al(3), al(6), "blue"), game(3, 1, al(2), al(7), "red"), game(6, 1, al(7), al(3), "red")},
			AllianceEliminated, OutcomeEliminated, Record{Losses: 2}, "Round 2", nil},
		{"a tied match is played again", []frcapi.TBAMatch{game(4, 1, al(3), al(6), "tie"), game(4, 2, al(3), al(6), "red")}, AlliancePlaying, OutcomeNone, Record{Wins: 1}, "Round 1",
			&PlayoffNext{Match: 8, Alliance: ColourBlue, Opponent: winnerOf(3), IfWin: toPlayoff(11, ColourBlue), IfLose: toPlayoff(10, ColourRed)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := playoffs(TBAData{Event: ev, Alliances: a, EventMatches: tt.matches}, "1209")
			if p.Ours == nil || !reflect.DeepEqual(*p.Ours, OurAlliance{Number: 3, Role: "first pick", Partners: []string{"301", "303"}}) {
				t.Fatalf("Ours = %+v, want Alliance 3, first pick, with 301 and 303", p.Ours)
			}
			if p.State != tt.state || p.Outcome != tt.outcome || p.Record != tt.record || p.Round != tt.round {
				t.Errorf("state %q, outcome %q, record %+v, round %q; want %q, %q, %+v, %q", p.State, p.Outcome, p.Record, p.Round, tt.state, tt.outcome, tt.record, tt.round)
			}
			if !reflect.DeepEqual(p.Next, tt.next) {
				t.Errorf("Next = %+v, want %+v", p.Next, tt.next)
			}
			if len(p.Bracket) != 14 || p.Bracket[3].Red.Alliance != 3 || p.Bracket[3].Blue.Alliance != 6 || !p.Bracket[3].Ours {
				t.Errorf("bracket match 4 = %+v, want Alliance 3 (ours) against 6", p.Bracket[3])
			}
		})
	}
}

func TestPlayoffsFinals(t *testing.T) {
	a := eightAlliances()
	al := func(n int) []string { return a[n-1].Teams }
	// We (Alliance 3) win Playoff 4, lose Playoff 8, then win the lower
	// bracket through Playoffs 10, 12 and 13 to meet Alliance 2 in the finals.
	upper := []frcapi.TBAMatch{
		game(1, 1, al(1), al(8), "red"), game(2, 1, al(4), al(5), "red"), game(3, 1, al(2), al(7), "red"), game(4, 1, al(3), al(6), "red"),
		game(5, 1, al(8), al(5), "red"), game(6, 1, al(7), al(6), "red"), game(7, 1, al(1), al(4), "red"), game(8, 1, al(2), al(3), "red"),
		game(9, 1, al(4), al(7), "red"), game(10, 1, al(3), al(8), "red"), game(11, 1, al(1), al(2), "blue"), game(12, 1, al(3), al(4), "red"),
		game(13, 1, al(1), al(3), "blue"),
	}
	ev := &EventInfo{PlayoffType: PlayoffDoubleElim8}
	series := append(append([]frcapi.TBAMatch{}, upper...), game(0, 1, al(2), al(3), "blue"), game(0, 2, al(2), al(3), "red"))
	p := playoffs(TBAData{Event: ev, Alliances: a, EventMatches: series}, "1209")
	want := &PlayoffNext{Game: 3, Alliance: ColourBlue, Opponent: alliance(2), IfWin: winners, IfLose: eliminated, Series: &Series{Ours: 1, Theirs: 1}}
	if !reflect.DeepEqual(p.Next, want) || p.State != AlliancePlaying || p.Round != "Finals" {
		t.Fatalf("at 1–1: next %+v, state %q, round %q; want %+v, playing, Finals", p.Next, p.State, p.Round, want)
	}
	won := playoffs(TBAData{Event: ev, Alliances: a, EventMatches: append(series, game(0, 3, al(2), al(3), "blue"))}, "1209")
	if won.State != AllianceWon || won.Outcome != OutcomeWinners || won.Next != nil || won.Record != (Record{Wins: 6, Losses: 2}) {
		t.Fatalf("after the third final: %q %q next %+v record %+v; want won, Event winners, none, 6-2", won.State, won.Outcome, won.Next, won.Record)
	}
	if f := won.Bracket[len(won.Bracket)-1]; f.Winner != "blue" || f.RedWins != 1 || f.BlueWins != 2 || !f.Ours {
		t.Errorf("finals = %+v, want ours, blue 2–1", f)
	}
	if phaseOf(nil, nil, won) != PhaseFinished {
		t.Errorf("phase after the finals = %q, want %q", phaseOf(nil, nil, won), PhaseFinished)
	}
}

func TestPlayoffsBackups(t *testing.T) {
	a := eightAlliances()
	// 9999 plays for 303 of Alliance 3, which TBA's list does not say.
	sub := []string{"301", "1209", "9999"}
	p := playoffs(TBAData{Event: &EventInfo{PlayoffType: PlayoffDoubleElim8}, Alliances: a,
		EventMatches: []frcapi.TBAMatch{game(4, 1, sub, a[5].Teams, "red")}}, "1209")
	if got := p.Alliances[2].Backup; got != "9999" {
		t.Errorf("Alliance 3's backup = %q, want 9999 (seen playing)", got)
	}
	if p.Record != (Record{Wins: 1}) {
		t.Errorf("record = %+v, want the win with the backup counted", p.Record)
	}
	// We are the backup robot: TBA lists us as the one who came in.
	a[1].BackupIn, a[1].BackupOut = "1209", "203"
	a[2].Teams = []string{"301", "302", "303"}
	p = playoffs(TBAData{Event: &EventInfo{PlayoffType: PlayoffDoubleElim8}, Alliances: a}, "1209")
	if p.Ours == nil || p.Ours.Number != 2 || p.Ours.Role != "backup" || !reflect.DeepEqual(p.Ours.Partners, []string{"201", "202"}) {
		t.Fatalf("Ours = %+v, want the backup of Alliance 2 with 201 and 202", p.Ours)
	}
}

func TestPlayoffsNotSelected(t *testing.T) {
	a := eightAlliances()
	a[2].Teams = []string{"301", "302", "303"}
	p := playoffs(TBAData{Event: &EventInfo{PlayoffType: PlayoffDoubleElim4}, Alliances: a[:4]}, "1209")
	if p.Ours != nil || p.State != AllianceNone || p.Next != nil || len(p.Bracket) != 6 || p.Type != PlayoffDoubleElim4 || !p.SelectionDone {
		t.Fatalf("not selected: %+v", p)
	}
	a[3].Teams = a[3].Teams[:2] // Alliance 4's second pick is still to come
	if p := playoffs(TBAData{Alliances: a[:4]}, "1209"); p.SelectionDone {
		t.Error("selection done while an alliance has two teams")
	}
	other := playoffs(TBAData{Event: &EventInfo{PlayoffType: 9}, Alliances: a}, "1209")
	if len(other.Bracket) != 0 {
		t.Errorf("a playoff type without known routes has a bracket of %d", len(other.Bracket))
	}
}
