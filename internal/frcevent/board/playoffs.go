package board

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// allianceSize is how many teams an alliance has once selection is over:
// its captain and two picks.
const allianceSize = 3

// The roles of a team on its alliance, by its place in the picks.
var roles = []string{"captain", "first pick", "second pick", "third pick"}

// playoffTypeNames say TBA's playoff types in words.
var playoffTypeNames = map[int]string{
	PlayoffDoubleElim8: "Double elimination, 8 alliances",
	PlayoffDoubleElim4: "Double elimination, 4 alliances",
}

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
	p.TypeName = playoffTypeNames[p.Type]
	for i, a := range tba.Alliances {
		p.Alliances[i] = Alliance{Number: i + 1, Name: a.Name, Teams: orEmpty(a.Teams), Backup: a.BackupIn, Out: a.BackupOut, State: a.State, Round: a.Round}
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
	winner      string // "red", "blue", "" (tie or unplayed)
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
	red, blue         int    // alliance numbers; 0 undecided
	winner            string // "red", "blue" or ""
	redWins, blueWins int
	played            int // games played, ties included
}

// alliance returns the alliance number of the winner (win) or the loser.
func (r seriesResult) alliance(win bool) int {
	if r.winner == "" {
		return 0
	}
	if (r.winner == "red") == win {
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
		return BracketSide{Alliance: n, From: sourceText(s)}
	}
	bm := BracketMatch{Label: playoffLabel(slot.number), Round: slot.round, Red: side(slot.red), Blue: side(slot.blue)}
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
		case "red":
			res.redWins++
		case "blue":
			res.blueWins++
		}
		if slot.number != 0 && g.winner != "" {
			res.winner = g.winner
		}
	}
	if slot.number == 0 {
		switch {
		case res.redWins >= FinalsWins:
			res.winner = "red"
		case res.blueWins >= FinalsWins:
			res.winner = "blue"
		}
	}
	bm.Winner, bm.RedWins, bm.BlueWins = res.winner, res.redWins, res.blueWins
	return bm, res
}

// ourPath sets our record, round, state, outcome and next match from the
// resolved bracket.
func ourPath(p *Playoffs, b bracket, ours int, results map[int]seriesResult) {
	p.State = "playing"
	for _, slot := range b {
		res := results[slot.number]
		colour := ""
		switch ours {
		case res.red:
			colour = "red"
		case res.blue:
			colour = "blue"
		}
		if colour == "" {
			continue
		}
		if slot.number == 0 {
			p.Record.Wins += map[string]int{"red": res.redWins, "blue": res.blueWins}[colour]
			p.Record.Losses += map[string]int{"red": res.blueWins, "blue": res.redWins}[colour]
			p.Record.Ties += res.played - res.redWins - res.blueWins
		} else if res.winner != "" {
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
			p.State, p.Outcome = "won", "Event winners"
			return
		case res.winner != "" && res.winner != colour && slot.number == 0:
			p.State, p.Outcome = "eliminated", "Finalists"
			return
		case res.winner != "" && res.winner != colour && lose.out:
			p.State, p.Outcome = "eliminated", "Eliminated in "+slot.round
			return
		case res.winner == "":
			p.Next = nextMatch(slot, colour, res, win, lose)
			return
		}
	}
}

// nextMatch says our undecided bracket match and what follows it.
func nextMatch(slot bracketSlot, colour string, res seriesResult, win, lose route) *PlayoffNext {
	other, otherSource := res.blue, slot.blue
	if colour == "blue" {
		other, otherSource = res.red, slot.red
	}
	n := &PlayoffNext{Label: playoffLabel(slot.number), Alliance: colour, Opponent: sourceText(otherSource),
		IfWin: routeText(win), IfLose: routeText(lose)}
	if other > 0 {
		n.Opponent = "Alliance " + strconv.Itoa(other)
	}
	if slot.number != 0 {
		return n
	}
	ourWins, theirWins := res.redWins, res.blueWins
	if colour == "blue" {
		ourWins, theirWins = theirWins, ourWins
	}
	game := res.played + 1
	n.Label = "Final " + strconv.Itoa(game)
	n.Series = fmt.Sprintf("Finals: %d–%d, match %d", ourWins, theirWins, game)
	n.IfWin, n.IfLose = "Final "+strconv.Itoa(game+1), "Final "+strconv.Itoa(game+1)
	if ourWins+1 >= FinalsWins {
		n.IfWin = "Event winners"
	}
	if theirWins+1 >= FinalsWins {
		n.IfLose = "Eliminated"
	}
	return n
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
