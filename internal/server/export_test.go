package server

// FastPathAnswers reports whether the fast path answers req (raw bytes)
// itself rather than handing it to net/http.
func (s *Server) FastPathAnswers(req []byte) bool {
	r, verdict := parseFast(req)
	if verdict != parsed {
		return false
	}
	_, _, ok := s.fastAnswer(r.path)
	return ok
}
