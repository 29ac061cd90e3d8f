package replay

import "time"

// moment is the timeline at one request: the state, where the current
// round started and how far into it we are.
type moment struct {
	State
	base    time.Time
	elapsed time.Duration
	// nexusChanged is the latest offset at which a step changed Nexus data.
	nexusChanged time.Duration
}

// at plays the timeline up to now: every step so far, in order, each
// replacing the parts of the state it sets.
func (s *Server) at(now time.Time) moment {
	m := moment{base: s.opts.Start, elapsed: now.Sub(s.opts.Start)}
	if length := time.Duration(s.opts.Timeline.Length); s.opts.Loop && length > 0 && m.elapsed >= length {
		rounds := m.elapsed / length
		m.base = m.base.Add(rounds * length)
		m.elapsed -= rounds * length
	}
	for _, st := range s.steps {
		if time.Duration(st.At) > m.elapsed {
			break
		}
		p := st.State
		if p.Nexus != nil || p.Announcements != nil || p.PartsRequests != nil {
			m.nexusChanged = time.Duration(st.At)
		}
		replace(&m.Nexus, p.Nexus, p.Nexus != nil)
		replace(&m.Announcements, p.Announcements, p.Announcements != nil)
		replace(&m.PartsRequests, p.PartsRequests, p.PartsRequests != nil)
		replace(&m.Pits, p.Pits, p.Pits != nil)
		replace(&m.TeamStatus, p.TeamStatus, p.TeamStatus != nil)
		replace(&m.Matches, p.Matches, p.Matches != nil)
		replace(&m.Event, p.Event, p.Event != nil)
		replace(&m.TeamEvents, p.TeamEvents, p.TeamEvents != nil)
		replace(&m.Rankings, p.Rankings, p.Rankings != nil)
		replace(&m.DownEvents, p.DownEvents, p.DownEvents != nil)
		replace(&m.SortOrderInfo, p.SortOrderInfo, p.SortOrderInfo != nil)
		replace(&m.ExtraStatsInfo, p.ExtraStatsInfo, p.ExtraStatsInfo != nil)
		replace(&m.Alliances, p.Alliances, p.Alliances != nil)
		replace(&m.Teams, p.Teams, p.Teams != nil)
		replace(&m.Awards, p.Awards, p.Awards != nil)
		replace(&m.Season, p.Season, p.Season != nil)
	}
	return m
}

// passed reports whether an optional offset is set and not in the future.
func (m moment) passed(o *Offset) bool { return o != nil && time.Duration(*o) <= m.elapsed }

// ms and sec turn an offset into Nexus's and TBA's absolute times.
func (m moment) ms(o Offset) int64  { return m.base.Add(time.Duration(o)).UnixMilli() }
func (m moment) sec(o Offset) int64 { return m.base.Add(time.Duration(o)).Unix() }

// replace sets *dst to v when set: a step changes only the parts it sets.
func replace[T any](dst *T, v T, set bool) {
	if set {
		*dst = v
	}
}
