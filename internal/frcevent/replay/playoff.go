package replay

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// The playoffs as TBA tells them: which alliance played a match, and how
// each alliance stands after the results so far.

// listed reports whether the match is in the lists at this moment.
func (m moment) listed(o *Offset) bool { return o == nil || m.passed(o) }

// result returns the match's scores and winner once they are out, else
// -1, -1 and "", and whether they are out.
func (m moment) result(mt Match) (red, blue int, winner string, out bool) {
	at := mt.ResultAt
	if at == nil {
		at = mt.ActualTime
	}
	if !m.passed(at) {
		return -1, -1, "", false
	}
	return mt.RedScore, mt.BlueScore, mt.WinningAlliance, true
}

// AllianceIn returns the number (from 1) of the alliance whose robots
// play as teams, or 0: the alliance with at least two of them (three
// robots play, a backup may replace one, and the list may not say so).
func AllianceIn(alliances []Alliance, teams []string) int {
	best, most := 0, 0
	for i, a := range alliances {
		n := 0
		for _, t := range teams {
			if slices.Contains(a.Picks, t) || a.Backup != nil && a.Backup.In == t {
				n++
			}
		}
		if n > most {
			best, most = i+1, n
		}
	}
	if most < min(2, len(teams)) || most == 0 {
		return 0
	}
	return best
}

// PlayoffOrder sorts playoff matches as they are played: the bracket's
// matches by number, then the finals.
func PlayoffOrder(a, b Match) int {
	return cmp.Or(cmp.Compare(levelOrder(a.CompLevel), levelOrder(b.CompLevel)),
		cmp.Compare(a.SetNumber, b.SetNumber), cmp.Compare(a.MatchNumber, b.MatchNumber))
}

func levelOrder(level string) int {
	return slices.Index([]string{"qm", "ef", "qf", "sf", "f"}, level)
}

// allianceStatus derives the status of alliance number n (from 1) from
// the playoff matches listed with their alliances decided: nil before its
// first; its latest match gives its level and round; two losses in the
// bracket, or in the finals, eliminate it; two finals wins win the event.
func (m moment) allianceStatus(n, playoffType int) *AllianceStatus {
	var played []Match
	for _, mt := range m.Matches {
		if (mt.CompLevel == "sf" || mt.CompLevel == "f") && m.listed(mt.Listed) && m.listed(mt.Decided) {
			played = append(played, mt)
		}
	}
	slices.SortStableFunc(played, PlayoffOrder)
	var st *AllianceStatus
	losses := map[string]int{}
	wins := map[string]int{}
	for _, mt := range played {
		side := ""
		switch n {
		case AllianceIn(m.Alliances, mt.Red):
			side = "red"
		case AllianceIn(m.Alliances, mt.Blue):
			side = "blue"
		default:
			continue
		}
		if st == nil {
			st = &AllianceStatus{}
		}
		if st.Level != mt.CompLevel {
			st.CurrentLevelRecord = Record{}
		}
		set := mt.SetNumber
		if mt.CompLevel == "f" {
			set = 0 // the finals
		}
		st.Level, st.DoubleElimRound = mt.CompLevel, frcapi.Round(playoffType, set)
		_, _, winner, out := m.result(mt)
		switch {
		case !out:
		case winner == side:
			st.Record.Wins++
			st.CurrentLevelRecord.Wins++
			wins[mt.CompLevel]++
		case winner == "":
			st.Record.Ties++
			st.CurrentLevelRecord.Ties++
		default:
			st.Record.Losses++
			st.CurrentLevelRecord.Losses++
			losses[mt.CompLevel]++
		}
	}
	if st == nil {
		return nil
	}
	switch {
	case losses["sf"] >= 2 || losses["f"] >= 2:
		st.Status = "eliminated"
	case wins["f"] >= 2:
		st.Status = "won"
	default:
		st.Status = "playing"
	}
	return st
}

// teamAlliance finds team (a key, "frc1209") on the alliances: its
// alliance's number (from 1) and its pick, -1 for a backup that came in;
// 0 when it is on none.
func (m moment) teamAlliance(team string) (number, pick int) {
	for i, a := range m.Alliances {
		if p := slices.Index(a.Picks, team); p >= 0 {
			return i + 1, p
		}
		if a.Backup != nil && a.Backup.In == team {
			return i + 1, -1
		}
	}
	return 0, 0
}

// TeamAllianceStatus is how the alliance of team (a key, "frc1209") stands
// in st at offset at: its number (0 when team is on none) and its status
// (nil before its first playoff match), as TBA would tell it then.
func TeamAllianceStatus(st State, at Offset, team string) (number int, status *AllianceStatus) {
	m := moment{State: st, elapsed: time.Duration(at)}
	if number, _ = m.teamAlliance(team); number == 0 {
		return 0, nil
	}
	return number, m.allianceStatus(number, 0)
}

// allianceName is the alliance's name, or TBA's usual one.
func allianceName(a Alliance, number int) string {
	return cmp.Or(a.Name, fmt.Sprintf("Alliance %d", number))
}
