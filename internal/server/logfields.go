package server

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fields of an access log line that Cloud Logging lifts from a JSON line
// into its log entry (its "special fields" of structured logging): the
// request, and the trace that ties the line to Cloud Run's own request log
// and to Cloud Trace.
const (
	httpRequestKey  = "httpRequest"
	traceKey        = "logging.googleapis.com/trace"
	spanIDKey       = "logging.googleapis.com/spanId"
	traceSampledKey = "logging.googleapis.com/trace_sampled"
	// bareTraceKey holds the trace id when the project is unknown: Cloud
	// Logging's trace field must be projects/PROJECT/traces/TRACE_ID.
	bareTraceKey = "trace"
)

// maxUserAgent bounds the User-Agent an access log line repeats, so that a
// client cannot make each of its requests cost 64 KiB of log.
const maxUserAgent = 512

// accessAttrs are the fields of the access log line of r: Cloud Logging's
// httpRequest (the URL is the path alone, never the query) and, when r
// carries a valid trace header, its trace. project is the Google Cloud
// project the trace belongs to; "" logs the bare trace id instead. Every
// request pays for this, so it makes one slice for all the fields and
// boxes none of them.
func accessAttrs(r *http.Request, status int, size int64, latency time.Duration, project string) []slog.Attr {
	const reqFields, lineFields = 8, 4 // httpRequest's fields; the group and the trace's three
	all := make([]slog.Attr, 0, reqFields+lineFields)
	all = append(all,
		slog.String("requestMethod", r.Method),
		slog.String("requestUrl", r.URL.Path),
		slog.Int("status", status),
		// int64 fields are strings in the JSON form of Google's APIs.
		slog.String("responseSize", strconv.FormatInt(size, 10)),
		slog.String("remoteIp", r.RemoteAddr),
		slog.String("latency", protoDuration(latency)),
		slog.String("protocol", r.Proto),
	)
	if ua := r.UserAgent(); ua != "" {
		if len(ua) > maxUserAgent {
			ua = strings.ToValidUTF8(ua[:maxUserAgent], "")
		}
		all = append(all, slog.String("userAgent", ua))
	}
	req := all[:len(all):len(all)]
	attrs := append(all[len(all):], slog.Attr{Key: httpRequestKey, Value: slog.GroupValue(req...)})
	tc, ok := requestTrace(r.Header)
	switch {
	case !ok:
	case project == "":
		attrs = append(attrs, slog.String(bareTraceKey, tc.traceID))
	default:
		attrs = append(attrs, slog.String(traceKey, "projects/"+project+"/traces/"+tc.traceID))
		if tc.spanID != "" {
			attrs = append(attrs, slog.String(spanIDKey, tc.spanID))
		}
		if tc.sampledKnown {
			attrs = append(attrs, slog.Bool(traceSampledKey, tc.sampled))
		}
	}
	return attrs
}

// protoDuration writes d as a google.protobuf.Duration in JSON: seconds
// with 0, 3, 6 or 9 fractional digits and an "s", like "0.001234s".
func protoDuration(d time.Duration) string {
	var b [32]byte // sign, 10 digits of seconds, point, 9 digits, "s"
	out := b[:0]
	if d < 0 {
		out, d = append(out, '-'), -d
	}
	out = strconv.AppendInt(out, int64(d/time.Second), 10)
	ns, digits := int64(d%time.Second), 9
	for ; digits > 0 && ns%1000 == 0; digits -= 3 {
		ns /= 1000
	}
	if digits > 0 {
		out = append(out, '.')
		var f [9]byte
		frac := strconv.AppendInt(f[:0], ns, 10) // at most digits long
		for range digits - len(frac) {
			out = append(out, '0')
		}
		out = append(out, frac...)
	}
	return string(append(out, 's'))
}
