package board

import (
	"strconv"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// TBA's playoff types with the double-elimination brackets of FIRST (2023
// on); every other type is shown as TBA lists its matches, without routes.
const (
	PlayoffDoubleElim8 = frcapi.PlayoffDoubleElim8
	PlayoffDoubleElim4 = frcapi.PlayoffDoubleElim4
)

// source is where one alliance of a bracket match comes from: a seed, or
// the winner or loser of an earlier bracket match. Exactly one is set.
type source struct {
	seed     int
	winnerOf int
	loserOf  int
}

// bracketSlot is one bracket match with where its two alliances come from.
// Number is the bracket match number, which TBA keys as sf{N}m1 and Nexus
// labels "Playoff N"; the finals have number 0.
type bracketSlot struct {
	number    int
	red, blue source
	round     string // as TBA names it: "Round 1" … "Finals"
}

// bracket is a double-elimination bracket: its matches in number order,
// the finals last.
type bracket []bracketSlot

// Where each alliance of each match comes from is the whole bracket: the
// routes (where a winner or a loser goes next) are read from these tables.
// They are FIRST's brackets for 8 and 4 alliances, as the real events
// TBA lists played them (2024nytr: Playoff 3 was Alliance 2 against 7).
var (
	bracket8 = withRounds(PlayoffDoubleElim8, []row{
		{1, source{seed: 1}, source{seed: 8}},
		{2, source{seed: 4}, source{seed: 5}},
		{3, source{seed: 2}, source{seed: 7}},
		{4, source{seed: 3}, source{seed: 6}},
		{5, source{loserOf: 1}, source{loserOf: 2}},
		{6, source{loserOf: 3}, source{loserOf: 4}},
		{7, source{winnerOf: 1}, source{winnerOf: 2}},
		{8, source{winnerOf: 3}, source{winnerOf: 4}},
		{9, source{loserOf: 7}, source{winnerOf: 6}},
		{10, source{loserOf: 8}, source{winnerOf: 5}},
		{11, source{winnerOf: 7}, source{winnerOf: 8}},
		{12, source{winnerOf: 10}, source{winnerOf: 9}},
		{13, source{loserOf: 11}, source{winnerOf: 12}},
		{0, source{winnerOf: 11}, source{winnerOf: 13}},
	})
	bracket4 = withRounds(PlayoffDoubleElim4, []row{
		{1, source{seed: 1}, source{seed: 4}},
		{2, source{seed: 2}, source{seed: 3}},
		{3, source{winnerOf: 1}, source{winnerOf: 2}},
		{4, source{loserOf: 1}, source{loserOf: 2}},
		{5, source{loserOf: 3}, source{winnerOf: 4}},
		{0, source{winnerOf: 3}, source{winnerOf: 5}},
	})
)

// row is a bracket match as the tables write it.
type row struct {
	number    int
	red, blue source
}

// withRounds makes a bracket of rows, each match with its round as TBA
// names it.
func withRounds(playoffType int, rows []row) bracket {
	b := make(bracket, len(rows))
	for i, r := range rows {
		b[i] = bracketSlot{number: r.number, red: r.red, blue: r.blue, round: frcapi.Round(playoffType, r.number)}
	}
	return b
}

// bracketOf returns the bracket of a TBA playoff type; nil for types whose
// routes are not known here.
func bracketOf(playoffType int) bracket {
	switch playoffType {
	case PlayoffDoubleElim8:
		return bracket8
	case PlayoffDoubleElim4:
		return bracket4
	}
	return nil
}

// FinalsWins is how many finals matches an alliance must win.
const FinalsWins = 2

// route is where an alliance goes after a bracket match: the next match
// (0 for the finals) and its colour there, or out of the event.
type route struct {
	next   int
	colour Colour
	out    bool
}

// routes returns where the winner and the loser of bracket match n go.
// The finals have no routes: their winner wins the event.
func (b bracket) routes(n int) (win, lose route) {
	win, lose = route{out: true}, route{out: true}
	for _, s := range b {
		for colour, src := range map[Colour]source{ColourRed: s.red, ColourBlue: s.blue} {
			switch n {
			case src.winnerOf:
				win = route{next: s.number, colour: colour}
			case src.loserOf:
				lose = route{next: s.number, colour: colour}
			}
		}
	}
	return win, lose
}

// playoffLabel is Nexus's name of bracket match n (not the finals):
// "Playoff 7".
func playoffLabel(n int) string { return "Playoff " + strconv.Itoa(n) }

// wire is the route as the page gets it: a bracket match or the finals in
// a colour, or eliminated.
func (r route) wire() Route {
	switch {
	case r.out:
		return Route{Kind: RouteEliminated}
	case r.next == 0:
		return Route{Kind: RouteFinals, Colour: r.colour}
	}
	return Route{Kind: RoutePlayoff, Match: r.next, Colour: r.colour}
}

// wire is the source as the page gets it.
func (s source) wire() BracketSource {
	switch {
	case s.seed > 0:
		return BracketSource{Kind: SourceAlliance, Alliance: s.seed}
	case s.winnerOf > 0:
		return BracketSource{Kind: SourceWinnerOf, Match: s.winnerOf}
	}
	return BracketSource{Kind: SourceLoserOf, Match: s.loserOf}
}
