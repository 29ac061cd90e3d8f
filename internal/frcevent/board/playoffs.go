package board

import (
	"slices"
	"strconv"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// allianceSize is how many teams an alliance has once selection is over:
// its captain and two picks.
const allianceSize = 3

// The roles of a team on its alliance, by its place in the picks.
var roles = []string{"captain", "first pick", "second pick", "third pick"}

// playoffs builds the alliances and the bracket from TBA's alliances and
// the event's playoff matches; nil before alliance selection. The teams
// of the played matches are the truth: a team that played for an alliance
// without being listed on it is its backup, as TBA's list may omit one.
func playoffs(tba TBAData, team string) *Playoffs {
	if tba.Alliances == nil {
		return nil
	}
	p := &Playoffs{Alliances: make([]Alliance, len(tba.Alliances)), Bracket: []BracketMatch{}}
	if tba.Event != nil {
		p.Type = tba.Event.PlayoffType
	}
	for i, a := range tba.Alliances {
		p.Alliances[i] = Alliance{Number: i + 1, Name: a.Name, Teams: orEmpty(a.Teams), Backup: a.BackupIn, Out: a.BackupOut, State: allianceState(a.State), Round: a.Round}
	}
	p.SelectionDone = len(p.Alliances) > 0 && !slices.ContainsFunc(p.Alliances, func(a Alliance) bool { return len(a.Teams) < allianceSize })
	games := playoffGames(tba.EventMatches)
	for _, g := range games {
		for _, side := range [][]string{g.Red, g.Blue} {
			if n := allianceOf(p.Alliances, side); n > 0 {
				a := &p.Alliances[n-1]
				for _, t := range side {
					if t != "" && !slices.Contains(a.Teams, t) && a.Backup == "" {
						a.Backup = t
					}
				}
			}
		}
	}
	ours := 0
	for i := range p.Alliances {
		a := &p.Alliances[i]
		switch j := slices.Index(a.Teams, team); {
		case j >= 0:
			ours = a.Number
			p.Ours = &OurAlliance{Number: a.Number, Role: roleOf(j), Partners: without(a.Teams, team)}
		case a.Backup == team:
			ours = a.Number
			p.Ours = &OurAlliance{Number: a.Number, Role: "backup", Partners: without(a.Teams, a.Out)}
		}
		a.Ours = a.Number == ours
	}
	b := bracketOf(p.Type)
	if b == nil {
		return p
	}
	results := map[int]seriesResult{}
	for _, slot := range b {
		bm, res := bracketMatch(slot, p.Alliances, games, results)
		results[slot.number] = res
		bm.Ours = ours > 0 && (bm.Red.Alliance == ours || bm.Blue.Alliance == ours)
		p.Bracket = append(p.Bracket, bm)
	}
	if ours > 0 {
		ourPath(p, b, ours, results)
	}
	return p
}

// playoffGame is one played or scheduled playoff match of TBA.
type playoffGame struct {
	set, number int // bracket match number (0: the finals) and its match in the set
	Red, Blue   []string
	winner      Colour // ColourNone: a tie, or unplayed
	played      bool
}

// playoffGames picks the double-elimination matches of TBA's list: sfNmK
// (set N, a replay from K 2 on) and the finals f1mK.
func playoffGames(matches []frcapi.TBAMatch) []playoffGame {
	var out []playoffGame
	for _, t := range matches {
		g := playoffGame{number: t.MatchNumber, Red: tbaTeams(t.Alliances.Red), Blue: tbaTeams(t.Alliances.Blue)}
		switch t.CompLevel {
		case "sf":
			g.set = t.SetNumber
		case "f":
			g.set = 0
		default:
			continue
		}
		var m Match
		g.winner = setScore(&m, t)
		g.played = m.RedScore != nil
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(a, b playoffGame) int { return a.number - b.number })
	return out
}

// allianceOf returns the number of the alliance that most of teams belong
// to (at least two: a captain and a partner), or 0.
func allianceOf(alliances []Alliance, teams []string) int {
	for _, a := range alliances {
		n := 0
		for _, t := range teams {
			if t != "" && (slices.Contains(a.Teams, t) || t == a.Backup) {
				n++
			}
		}
		if n >= 2 {
			return a.Number
		}
	}
	return 0
}

// seriesResult is what a bracket match decided: its alliances, the winner
// and, for the finals, the series.
type seriesResult struct {
	red, blue         int // alliance numbers; 0 undecided
	winner            Colour
	redWins, blueWins int
	played            int // games played, ties included
}

// alliance returns the alliance number of the winner (win) or the loser.
func (r seriesResult) alliance(win bool) int {
	if r.winner == ColourNone {
		return 0
	}
	if (r.winner == ColourRed) == win {
		return r.red
	}
	return r.blue
}

// bracketMatch resolves one slot: its alliances from the seeds and the
// results of earlier slots, confirmed by the teams TBA lists, and its
// winner from the games played (the last decided game of a set; two wins
// in the finals).
func bracketMatch(slot bracketSlot, alliances []Alliance, games []playoffGame, results map[int]seriesResult) (BracketMatch, seriesResult) {
	side := func(s source) BracketSide {
		n := s.seed
		switch {
		case s.winnerOf > 0:
			n = results[s.winnerOf].alliance(true)
		case s.loserOf > 0:
			n = results[s.loserOf].alliance(false)
		}
		if n > len(alliances) {
			n = 0
		}
		return BracketSide{Alliance: n, From: s.wire()}
	}
	bm := BracketMatch{Number: slot.number, Round: slot.round, Red: side(slot.red), Blue: side(slot.blue)}
	res := seriesResult{red: bm.Red.Alliance, blue: bm.Blue.Alliance}
	for _, g := range games {
		if g.set != slot.number {
			continue
		}
		// The teams TBA lists are the truth once it lists them.
		if n := allianceOf(alliances, g.Red); n > 0 {
			res.red, bm.Red.Alliance = n, n
		}
		if n := allianceOf(alliances, g.Blue); n > 0 {
			res.blue, bm.Blue.Alliance = n, n
		}
		if !g.played {
			continue
		}
		res.played++
		switch g.winner {
		case ColourRed:
			res.redWins++
		case ColourBlue:
			res.blueWins++
		}
		if slot.number != 0 && g.winner != ColourNone {
			res.winner = g.winner
		}
	}
	if slot.number == 0 {
		switch {
		case res.redWins >= FinalsWins:
			res.winner = ColourRed
		case res.blueWins >= FinalsWins:
			res.winner = ColourBlue
		}
	}
	bm.Winner, bm.RedWins, bm.BlueWins = res.winner, res.redWins, res.blueWins
	return bm, res
}

// ourPath sets our record, round, state, outcome and next match from the
// resolved bracket.
func ourPath(p *Playoffs, b bracket, ours int, results map[int]seriesResult) {
	p.State = AlliancePlaying
	for _, slot := range b {
		res := results[slot.number]
		colour := ColourNone
		switch ours {
		case res.red:
			colour = ColourRed
		case res.blue:
			colour = ColourBlue
		}
		if colour == ColourNone {
			continue
		}
		if slot.number == 0 {
			p.Record.Wins += map[Colour]int{ColourRed: res.redWins, ColourBlue: res.blueWins}[colour]
			p.Record.Losses += map[Colour]int{ColourRed: res.blueWins, ColourBlue: res.redWins}[colour]
			p.Record.Ties += res.played - res.redWins - res.blueWins
		} else if res.winner != ColourNone {
			if res.winner == colour {
				p.Record.Wins++
			} else {
				p.Record.Losses++
			}
		}
		if res.played > 0 {
			p.Round = slot.round
		}
		win, lose := b.routes(slot.number)
		switch {
		case res.winner == colour && slot.number == 0:
			p.State, p.Outcome = AllianceWon, OutcomeWinners
			return
		case res.winner != ColourNone && res.winner != colour && slot.number == 0:
			p.State, p.Outcome = AllianceEliminated, OutcomeFinalists
			return
		case res.winner != ColourNone && res.winner != colour && lose.out:
			p.State, p.Outcome = AllianceEliminated, OutcomeEliminated
			return
		case res.winner == ColourNone:
			p.Next = nextMatch(slot, colour, res, win, lose)
			return
		}
	}
}

// nextMatch says our undecided bracket match and what follows it.
func nextMatch(slot bracketSlot, colour Colour, res seriesResult, win, lose route) *PlayoffNext {
	other, otherSource := res.blue, slot.blue
	if colour == ColourBlue {
		other, otherSource = res.red, slot.red
	}
	n := &PlayoffNext{Match: slot.number, Alliance: colour, Opponent: otherSource.wire(), IfWin: win.wire(), IfLose: lose.wire()}
	if other > 0 {
		n.Opponent = BracketSource{Kind: SourceAlliance, Alliance: other}
	}
	if slot.number != 0 {
		return n
	}
	ourWins, theirWins := res.redWins, res.blueWins
	if colour == ColourBlue {
		ourWins, theirWins = theirWins, ourWins
	}
	n.Game = res.played + 1
	n.Series = &Series{Ours: ourWins, Theirs: theirWins}
	n.IfWin, n.IfLose = Route{Kind: RouteFinal, Game: n.Game + 1}, Route{Kind: RouteFinal, Game: n.Game + 1}
	if ourWins+1 >= FinalsWins {
		n.IfWin = Route{Kind: RouteWinners}
	}
	if theirWins+1 >= FinalsWins {
		n.IfLose = Route{Kind: RouteEliminated}
	}
	return n
}

// allianceState is TBA's status of an alliance; AllianceNone for a word
// not known here.
func allianceState(tba string) AllianceState {
	switch s := AllianceState(tba); s {
	case AlliancePlaying, AllianceEliminated, AllianceWon:
		return s
	}
	return AllianceNone
}

// roleOf names the place j of a team in its alliance's picks.
func roleOf(j int) string {
	if j < len(roles) {
		return roles[j]
	}
	return "pick " + strconv.Itoa(j)
}

// without returns teams less one, never nil.
func without(teams []string, team string) []string {
	out := []string{}
	for _, t := range teams {
		if t != team {
			out = append(out, t)
		}
	}
	return out
}
