// Reading a news stream: where its events end and which carries the marker.

package main

import (
	"bytes"
)

type eventScanner struct {
	ends   int      // blank lines seen
	lastNL bool     // the last chunk ended with a newline
	carry  [64]byte // the last bytes read, for a marker split between chunks
	nCarry int
	marker []byte
	seen   bool // the marker has been seen
	done   bool // and its block has ended
}

func (s *eventScanner) expect(marker []byte) {
	s.marker, s.seen, s.done, s.nCarry = marker, false, false, 0
}

func (s *eventScanner) feed(chunk []byte) (first, delivered bool) {
	if len(chunk) == 0 {
		return s.ends >= 2, false
	}
	from := -1 // where the end of the marker's block may be in chunk
	switch {
	case s.marker == nil || s.done:
	case s.seen:
		from = 0
	default:
		mk := s.marker
		var joined [128]byte
		j := copy(joined[:], s.carry[:s.nCarry])
		j += copy(joined[j:], chunk[:min(len(chunk), len(mk)-1)])
		if k := bytes.Index(joined[:j], mk); k >= 0 {
			s.seen, from = true, max(0, k+len(mk)-s.nCarry)
		} else if k := bytes.Index(chunk, mk); k >= 0 {
			s.seen, from = true, k+len(mk)
		}
		// Keep the last len(mk)-1 bytes of everything read so far.
		keep := len(mk) - 1
		if len(chunk) >= keep {
			s.nCarry = copy(s.carry[:], chunk[len(chunk)-keep:])
		} else {
			all := append(s.carry[:s.nCarry:s.nCarry], chunk...)
			s.nCarry = copy(s.carry[:], all[max(0, len(all)-keep):])
		}
	}
	splitEnd := s.lastNL && chunk[0] == '\n' // a blank line across two chunks
	blank := bytes.Count(chunk, []byte("\n\n"))
	if splitEnd {
		blank++
	}

	s.lastNL = chunk[len(chunk)-1] == '\n'
	s.ends += blank
	if from >= 0 && (bytes.Contains(chunk[from:], []byte("\n\n")) || (from == 0 && splitEnd)) {
		s.done, delivered = true, true
	}
	return s.ends >= 2, delivered
}
