package server

import (
	"net/http"
	"strconv"
	"strings"
)

// traceContext is the trace a request belongs to, as the caller's trace
// header names it: W3C's traceparent or Google's older
// X-Cloud-Trace-Context, which Cloud Run's front end sets on every request.
type traceContext struct {
	// traceID is 32 lowercase hex digits, not all zero.
	traceID string
	// spanID is the caller's span, 16 lowercase hex digits, not all zero;
	// "" when the header has none.
	spanID string
	// sampled is the caller's sampling decision; known says whether the
	// header gave one.
	sampled, sampledKnown bool
}

// maxTraceHeader bounds a trace header worth parsing: the longest valid
// X-Cloud-Trace-Context (32 + 1 + 20 + 3 + 10 characters) is well below.
const maxTraceHeader = 128

// requestTrace returns the trace of r from its traceparent header or, when
// that is missing or malformed, its X-Cloud-Trace-Context: Google's trace
// documentation says to prefer traceparent and fall back on the other. A
// header that does not match its format exactly (lengths, hex digits, no
// all-zero ids) is ignored, so nothing a client sends reaches the log
// unchecked. A header sent twice is ignored too.
func requestTrace(h http.Header) (traceContext, bool) {
	once := func(name string) string {
		if v := h.Values(name); len(v) == 1 {
			return v[0]
		}
		return ""
	}
	return traceOf(once("Traceparent"), once("X-Cloud-Trace-Context"))
}

// traceOf is requestTrace of the values of the two headers ("" when absent).
func traceOf(traceparent, cloudTraceContext string) (traceContext, bool) {
	if traceparent != "" {
		if tc, ok := parseTraceparent(traceparent); ok {
			return tc, true
		}
	}
	if cloudTraceContext != "" {
		return parseCloudTraceContext(cloudTraceContext)
	}
	return traceContext{}, false
}

// parseTraceparent parses a W3C Trace Context traceparent header,
// VERSION-TRACEID-PARENTID-FLAGS, like
// 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01. Version 00 is
// exactly that; a later version may add fields after a dash, which are
// ignored; version ff is invalid.
func parseTraceparent(v string) (traceContext, bool) {
	const size = 55 // 2 + 1 + 32 + 1 + 16 + 1 + 2
	if len(v) < size || len(v) > maxTraceHeader || v[2] != '-' || v[35] != '-' || v[52] != '-' {
		return traceContext{}, false
	}
	version, trace, parent, flags := v[:2], v[3:35], v[36:52], v[53:55]
	switch {
	case !isLowerHex(version) || version == "ff":
		return traceContext{}, false
	case version == "00" && len(v) != size:
		return traceContext{}, false
	case len(v) > size && v[size] != '-':
		return traceContext{}, false
	case !isTraceID(trace) || !isLowerHex(parent) || allZero(parent) || !isLowerHex(flags):
		return traceContext{}, false
	}
	f, _ := strconv.ParseUint(flags, 16, 8) // two hex digits, checked above
	return traceContext{traceID: trace, spanID: parent, sampled: f&1 == 1, sampledKnown: true}, true
}

// parseCloudTraceContext parses Google's X-Cloud-Trace-Context header,
// TRACE_ID/SPAN_ID;o=OPTIONS, where TRACE_ID is 32 hex digits, SPAN_ID an
// unsigned 64-bit decimal and OPTIONS 1 when the request is traced; the
// span and the options may be left out. Uppercase hex is accepted and
// lowercased, as Cloud Trace writes ids.
func parseCloudTraceContext(v string) (traceContext, bool) {
	if len(v) > maxTraceHeader {
		return traceContext{}, false
	}
	head, options, hasOptions := strings.Cut(v, ";")
	trace, span, hasSpan := strings.Cut(head, "/")
	trace = strings.ToLower(trace)
	if !isTraceID(trace) {
		return traceContext{}, false
	}
	tc := traceContext{traceID: trace}
	if hasSpan {
		// Decimal, at most 20 digits (2^64 - 1); 0 is no span.
		if span == "" || len(span) > 20 || strings.TrimLeft(span, "0123456789") != "" {
			return traceContext{}, false
		}
		id, err := strconv.ParseUint(span, 10, 64)
		if err != nil || id == 0 {
			return traceContext{}, false
		}
		var hex [16]byte
		for i := range hex {
			hex[len(hex)-1-i] = "0123456789abcdef"[id>>(4*i)&0xf]
		}
		tc.spanID = string(hex[:])
	}
	if hasOptions {
		o, ok := strings.CutPrefix(options, "o=")
		if !ok || o == "" || len(o) > 10 || strings.TrimLeft(o, "0123456789") != "" {
			return traceContext{}, false
		}
		n, _ := strconv.ParseUint(o, 10, 64) // at most 10 digits, checked above
		tc.sampled, tc.sampledKnown = n&1 == 1, true
	}
	return tc, true
}

// isTraceID reports whether s is a trace id: 32 lowercase hex digits, not
// all zero.
func isTraceID(s string) bool { return len(s) == 32 && isLowerHex(s) && !allZero(s) }

func isLowerHex(s string) bool {
	for i := range len(s) {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return s != ""
}

func allZero(s string) bool { return strings.TrimLeft(s, "0") == "" }
