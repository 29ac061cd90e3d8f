package board

import (
	"math"
	"slices"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcstats"
)

// seats is how many teams of an alliance play a match.
const seats = 3

// playedQuals are the event's played qualification matches, for the
// ratings.
func playedQuals(matches []frcapi.TBAMatch) []frcstats.Played {
	var out []frcstats.Played
	for _, t := range matches {
		red, blue := tbaTeams(t.Alliances.Red), tbaTeams(t.Alliances.Blue)
		rs, bs := tbaScore(t.Alliances.Red), tbaScore(t.Alliances.Blue)
		if t.CompLevel == "qm" && rs != nil && bs != nil && len(red) > 0 && len(blue) > 0 {
			out = append(out, frcstats.Played{Red: red, Blue: blue, RedScore: *rs, BlueScore: *bs})
		}
	}
	return out
}

// teamCards are the teams of match, ours first, with their names and OPR,
// and our chance to win it; none when its teams are not known yet. The
// chance is given only when all six teams who play are known: a playoff
// opponent still to be decided ("Loser of Playoff 7") has no rating, and a
// chance against the half that is known would be a guess dressed as a
// figure.
func teamCards(m *Match, p *Playoffs, tba TBAData) ([]TeamCard, *Prediction) {
	if m == nil {
		return []TeamCard{}, nil
	}
	red, blue := teamsOf(m, p)
	if len(red) == 0 && len(blue) == 0 {
		return []TeamCard{}, nil
	}
	played := playedQuals(tba.EventMatches)
	ratings, rated := frcstats.OPR(played)
	ours, theirs := red, blue
	oursColour, theirsColour := ColourRed, ColourBlue
	if m.Alliance == ColourBlue {
		ours, theirs, oursColour, theirsColour = blue, red, ColourBlue, ColourRed
	}
	cards := []TeamCard{}
	for _, side := range []struct {
		teams  []string
		colour Colour
	}{{ours, oursColour}, {theirs, theirsColour}} {
		for _, t := range side.teams {
			if t == "" {
				continue
			}
			c := TeamCard{Team: t, Name: tba.TeamNames[t], Alliance: side.colour}
			if r, ok := ratings[t]; ok && rated {
				r = math.Round(r*10) / 10
				c.OPR = &r
			}
			cards = append(cards, c)
		}
	}
	if m.Alliance == ColourNone || !allSeatsKnown(m, red, blue) {
		return cards, nil
	}
	chance, ok := frcstats.Predict(played, red[:seats], blue[:seats])
	if !ok {
		return cards, nil
	}
	if m.Alliance == ColourBlue {
		chance = 1 - chance
	}
	return cards, &Prediction{WinChance: chance, Matches: len(played)}
}

// allSeatsKnown is whether the six teams who play m are known: no seat of
// its listed alliances undecided, and three teams or more on each side. An
// alliance of four (a fourth pick or a backup) is rated by its first three,
// the captain and first two picks, who usually play.
func allSeatsKnown(m *Match, red, blue []string) bool {
	return !slices.Contains(m.Red, "") && !slices.Contains(m.Blue, "") && len(red) >= seats && len(blue) >= seats
}

// teamsOf are the teams of m, or for a playoff match whose teams are not
// listed yet, those of the alliances the bracket says play it.
func teamsOf(m *Match, p *Playoffs) (red, blue []string) {
	red, blue = Decided(m.Red), Decided(m.Blue)
	if len(red) > 0 && len(blue) > 0 || p == nil || p.Next == nil || p.Ours == nil || p.Next.label() != m.Label {
		return red, blue
	}
	ours := p.Alliances[p.Ours.Number-1].Teams
	var theirs []string
	if o := p.Next.Opponent; o.Kind == SourceAlliance && o.Alliance > 0 && o.Alliance <= len(p.Alliances) {
		theirs = p.Alliances[o.Alliance-1].Teams
	}
	if p.Next.Alliance == ColourBlue {
		return theirs, ours
	}
	return ours, theirs
}
