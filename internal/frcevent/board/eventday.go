package board

import (
	"math"
	"slices"
	"strings"
	"time"
)

// turnaroundWithin is the longest time between two of our matches that is
// worth a warning: a crew needs it all to fix, charge and queue again.
const turnaroundWithin = 20 * time.Minute

// phaseOf says where the event is. The playoffs have begun once a playoff
// match is on the field or played (or Nexus queues one); alliance
// selection once TBA lists alliances, or once every qualification match
// is played; the event is finished once the finals have a winner.
func phaseOf(matches []Match, done []bool, p *Playoffs) Phase {
	if p != nil {
		for _, b := range p.Bracket {
			if b.Number == 0 && b.Winner != ColourNone {
				return PhaseFinished
			}
		}
	}
	quals, qualsDone, playoffStarted := 0, 0, false
	for i, m := range matches {
		switch {
		case strings.HasPrefix(m.Label, "Qualification"):
			quals++
			if done[i] {
				qualsDone++
			}
		case strings.HasPrefix(m.Label, "Playoff"), strings.HasPrefix(m.Label, "Final"):
			if done[i] || m.Step > StepNone {
				playoffStarted = true
			}
		}
	}
	switch {
	case playoffStarted:
		return PhasePlayoffs
	case p != nil || quals > 0 && qualsDone == quals:
		return PhaseAllianceSelection
	case quals > 0:
		return PhaseQualifications
	}
	return PhaseNone
}

// startOf is when a match starts, or started: actual, else estimated,
// else scheduled; nil when no time is known.
func startOf(m Match) *time.Time {
	switch {
	case m.Times.ActualStart != nil:
		return m.Times.ActualStart
	case m.Times.Start != nil:
		return m.Times.Start
	}
	return m.Times.Scheduled
}

// whenOf is startOf's time with its kind; nil when no time is known.
func whenOf(m Match) *When {
	switch {
	case m.Times.ActualStart != nil:
		return &When{Kind: TimeActual, At: *m.Times.ActualStart}
	case m.Times.Start != nil:
		return &When{Kind: TimeEstimated, At: *m.Times.Start}
	case m.Times.Scheduled != nil:
		return &When{Kind: TimeScheduled, At: *m.Times.Scheduled}
	}
	return nil
}

// turnaround warns of little time between our match at prev and the next
// at next in the list: back to back, one match between, or a time short
// enough to name. Between two finals it says nothing: the finals always
// follow each other at their fixed gaps, which every crew knows.
func turnaround(matches []Match, prev, next int) *Turnaround {
	if isFinal(matches[prev]) && isFinal(matches[next]) {
		return nil
	}
	switch next - prev {
	case 1:
		return &Turnaround{Kind: TurnaroundBackToBack}
	case 2:
		return &Turnaround{Kind: TurnaroundOneBetween}
	}
	a, b := startOf(matches[prev]), startOf(matches[next])
	if a == nil || b == nil || b.Sub(*a) > turnaroundWithin || !b.After(*a) {
		return nil
	}
	return &Turnaround{Kind: TurnaroundMinutes, Minutes: max(1, int(b.Sub(*a).Minutes()))}
}

// isFinal is whether m is a game of the finals.
func isFinal(m Match) bool { return strings.HasPrefix(m.Label, "Final") }

// paceFrom is how many of the latest matches that started fieldLate reads
// when no estimate is known: one late start is noise, three are the field.
const paceFrom = 3

// fieldLate is how many minutes the field runs behind its published
// schedule (negative: ahead); nil when nothing says. It has one source,
// the one the start times on the page come from: when the next match to
// start (anyone's) has an estimate (Nexus's, else TBA's prediction), its
// estimate against its schedule, so the pace and the estimated starts
// never disagree; otherwise the median lateness of the last paceFrom
// matches that started, from their actual starts.
func fieldLate(matches []Match, done []bool) *int {
	minutes := func(d time.Duration) *int { m := int(math.Round(d.Minutes())); return &m }
	for i, m := range matches {
		if done[i] || m.Times.ActualStart != nil {
			continue
		}
		if m.Times.Start != nil && m.Times.Scheduled != nil {
			return minutes(m.Times.Start.Sub(*m.Times.Scheduled))
		}
		break
	}
	var lates []time.Duration
	for i := len(matches) - 1; i >= 0 && len(lates) < paceFrom; i-- {
		if t := matches[i].Times; t.ActualStart != nil && t.Scheduled != nil {
			lates = append(lates, t.ActualStart.Sub(*t.Scheduled))
		}
	}
	if len(lates) == 0 {
		return nil
	}
	slices.Sort(lates)
	return minutes(lates[len(lates)/2])
}

// criteria are our values of the rankings' sort criteria, named as TBA
// names them.
func criteria(tba TBAData, team string) []Criterion {
	out := []Criterion{}
	for _, l := range tba.Rankings {
		if l.Team != team {
			continue
		}
		for i, o := range tba.SortOrders {
			if i >= len(l.SortOrders) || o.Name == "" {
				break
			}
			scale := math.Pow(10, float64(o.Precision))
			out = append(out, Criterion{Name: o.Name, Value: math.Round(l.SortOrders[i]*scale) / scale, Precision: o.Precision})
		}
	}
	return out
}

// trend is our rank after each count of played matches.
func trend(points []RankPoint) []int {
	out := make([]int, len(points))
	for i, p := range points {
		out[i] = p.Rank
	}
	return out
}

// TrendWith adds our rank in lines to trend when we have played more
// matches than its last point: one point per count of played matches.
func TrendWith(trend []RankPoint, lines []RankingLine, team string) []RankPoint {
	for _, l := range lines {
		if l.Team != team || l.Rank <= 0 || l.Played <= 0 {
			continue
		}
		if n := len(trend); n > 0 && trend[n-1].Played >= l.Played {
			if trend[n-1].Played == l.Played && trend[n-1].Rank != l.Rank {
				trend = slices.Clone(trend)
				trend[n-1].Rank = l.Rank // a rank settled after a late score
			}
			return trend
		}
		return append(slices.Clone(trend), RankPoint{Played: l.Played, Rank: l.Rank})
	}
	return trend
}
