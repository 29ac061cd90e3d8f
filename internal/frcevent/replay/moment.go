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
		if p.Nexus != nil {
			m.Nexus = p.Nexus
		}
		if p.Announcements != nil {
			m.Announcements = p.Announcements
		}
		if p.PartsRequests != nil {
			m.PartsRequests = p.PartsRequests
		}
		if p.Pits != nil {
			m.Pits = p.Pits
		}
		if p.TeamStatus != nil {
			m.TeamStatus = p.TeamStatus
		}
		if p.Matches != nil {
			m.Matches = p.Matches
		}
		if p.Event != nil {
			m.Event = p.Event
		}
		if p.TeamEvents != nil {
			m.TeamEvents = p.TeamEvents
		}
		if p.Rankings != nil {
			m.Rankings = p.Rankings
		}
		if p.DownEvents != nil {
			m.DownEvents = p.DownEvents
		}
	}
	return m
}

// passed reports whether an optional offset is set and not in the future.
func (m moment) passed(o *Offset) bool { return o != nil && time.Duration(*o) <= m.elapsed }

// ms and sec turn an offset into Nexus's and TBA's absolute times.
func (m moment) ms(o Offset) int64  { return m.base.Add(time.Duration(o)).UnixMilli() }
func (m moment) sec(o Offset) int64 { return m.base.Add(time.Duration(o)).Unix() }
