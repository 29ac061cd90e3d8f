package fastpath

import (
	"bytes"
	"strings"
)

// Request is a request the fast path can answer: GET or HEAD over
// HTTP/1.1 of a clean path, with no body and only headers it knows. Its
// byte slices are the connection's buffer: valid during the Site's calls
// only.
type Request struct {
	Head           bool   // HEAD, not GET
	Path           []byte // starts with "/"; no "//", no "/.", no query
	AcceptEncoding []byte
	IfNoneMatch    []byte
	// For the access log.
	UserAgent, Traceparent, CloudTraceContext []byte
	size                                      int // bytes of the request, its final blank line included
	seen                                      headerSet
}

// onceHeaders are the headers the fast path reads into a request, in the
// order of onceFields. Each may come at most once: with two (even an empty
// one first) the answer or the log would depend on which of them counts.
var onceHeaders = [...]string{"Accept-Encoding", "If-None-Match", "User-Agent", "Traceparent", "X-Cloud-Trace-Context"}

// onceFields are where r keeps the values of onceHeaders.
func (r *Request) onceFields() [len(onceHeaders)]*[]byte {
	return [...]*[]byte{&r.AcceptEncoding, &r.IfNoneMatch, &r.UserAgent, &r.Traceparent, &r.CloudTraceContext}
}

// headerSet records which of onceHeaders a request has, bit i for
// onceHeaders[i].
type headerSet uint8

// headerSet has a bit for each of onceHeaders (this fails to compile when
// they outgrow it).
var _ [8 - len(onceHeaders)]struct{}

// once keeps the value of onceHeaders[i] and reports true, unless the
// request had that header before.
func (r *Request) once(i int, value []byte) bool {
	h := headerSet(1) << i
	if r.seen&h != 0 {
		return false
	}
	r.seen |= h
	*r.onceFields()[i] = value
	return true
}

// onceHeader is the index of name in onceHeaders, or -1.
func onceHeader(name []byte) int {
	for i, h := range onceHeaders {
		if asciiEqualFold(name, h) {
			return i
		}
	}
	return -1
}

// parseVerdict is what parse made of the start of a buffer.
type parseVerdict int

const (
	parsed     parseVerdict = iota // a whole request the fast path answers
	incomplete                     // no blank line yet: read more
	notFast                        // net/http must read it
)

// Parse returns the request at the start of raw and true when the fast
// path reads it itself (and asks its Site for the answer); false when it
// is not whole yet or net/http must read it (parse says which).
func Parse(raw []byte) (Request, bool) {
	req, verdict := parse(raw)
	return req, verdict == parsed
}

// parse reads the request at the start of buf. It accepts only a
// strict subset of HTTP/1.1 (RFC 9112) that net/http parses the same way,
// and says notFast for anything else, which net/http then reads from the
// same bytes: a request with a body or a body header, a Range, an Expect
// or an Upgrade, a Connection other than keep-alive, a header twice that
// the answer depends on, obsolete line folding, a byte outside printable
// ASCII, a path net/http would clean or decode, a query, HTTP/1.0.
func parse(buf []byte) (Request, parseVerdict) {
	var req Request
	end := bytes.Index(buf, crlfcrlf)
	if end < 0 {
		return req, unfinished(buf)
	}
	req.size = end + len(crlfcrlf)
	line, rest, _ := bytes.Cut(buf[:end+2], crlf)
	switch {
	case bytes.HasPrefix(line, []byte("GET ")):
		line = line[len("GET "):]
	case bytes.HasPrefix(line, []byte("HEAD ")):
		req.Head = true
		line = line[len("HEAD "):]
	default:
		return req, notFast
	}
	path, version, ok := bytes.Cut(line, []byte(" "))
	if !ok || !bytes.Equal(version, []byte("HTTP/1.1")) || !cleanPath(path) {
		return req, notFast
	}
	req.Path = path
	hosts := 0
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, crlf)
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !isToken(name) {
			return req, notFast // also a folded line, which starts with a space
		}
		value = bytes.Trim(value, " \t")
		if !printable(value) {
			return req, notFast
		}
		if i := onceHeader(name); i >= 0 {
			if !req.once(i, value) {
				return req, notFast
			}
			continue
		}
		switch {
		case asciiEqualFold(name, "Host"):
			hosts++
			if !plainHost(value) {
				return req, notFast
			}
		case asciiEqualFold(name, "Connection"):
			if !asciiEqualFold(value, "keep-alive") {
				return req, notFast
			}
		case asciiEqualFold(name, "Content-Length"), asciiEqualFold(name, "Transfer-Encoding"),
			asciiEqualFold(name, "Range"), asciiEqualFold(name, "If-Range"),
			asciiEqualFold(name, "Expect"), asciiEqualFold(name, "Upgrade"), asciiEqualFold(name, "Trailer"):
			return req, notFast
		}
	}
	if hosts != 1 {
		return req, notFast
	}
	return req, parsed
}

// unfinished is the verdict on the start of a request that has no blank
// line yet: incomplete while it may still become one the fast path
// answers, notFast as soon as it cannot (another method, or a line that
// ends in a bare LF, which net/http accepts and the fast path does not).
func unfinished(buf []byte) parseVerdict {
	n := min(len(buf), len("HEAD "))
	if !bytes.HasPrefix([]byte("GET "), buf[:min(n, len("GET "))]) && !bytes.HasPrefix([]byte("HEAD "), buf[:n]) {
		return notFast
	}
	for i := bytes.IndexByte(buf, '\n'); i >= 0; {
		if i == 0 || buf[i-1] != '\r' {
			return notFast
		}
		next := bytes.IndexByte(buf[i+1:], '\n')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return incomplete
}

var (
	crlf     = []byte("\r\n")
	crlfcrlf = []byte("\r\n\r\n")
)

// cleanPath reports whether p is an absolute path that net/http's mux
// takes as it is: unreserved characters and slashes only (so nothing to
// decode and no query), no empty segment and no segment starting with a
// dot (so nothing to clean or redirect).
func cleanPath(p []byte) bool {
	if len(p) == 0 || p[0] != '/' {
		return false
	}
	for i, c := range p {
		switch {
		case isAlnum(c), c == '-', c == '_', c == '~':
		case c == '.':
			if p[i-1] == '/' {
				return false
			}
		case c == '/':
			if i > 0 && p[i-1] == '/' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isToken reports whether b is a non-empty header field name (RFC 9110
// token).
func isToken(b []byte) bool { return alnumOr(b, "!#$%&'*+-.^_`|~") }

// printable reports whether a header value holds only visible ASCII,
// spaces and tabs.
func printable(b []byte) bool {
	for _, c := range b {
		if (c < ' ' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// plainHost reports whether a Host value is a name or address with an
// optional port: letters, digits, dots, hyphens, colons and brackets.
func plainHost(b []byte) bool { return alnumOr(b, ".-:[]") }

// alnumOr reports whether b is non-empty and holds only ASCII letters,
// digits and bytes of others.
func alnumOr(b []byte, others string) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isAlnum(c) && strings.IndexByte(others, c) < 0 {
			return false
		}
	}
	return true
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// asciiEqualFold reports whether b equals s, ignoring ASCII case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c, d := b[i], s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}
