package server

import (
	"context"
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

// access is what the access log line of one request says, whether net/http
// or the fast path served it.
type access struct {
	method, path, proto, remote, userAgent string
	status                                 int
	size                                   int64
	latency                                time.Duration
	trace                                  traceContext
	traced                                 bool // trace holds the request's valid trace header
}

// accessOf is the access line of r, answered with status and size bytes of
// body after latency.
func accessOf(r *http.Request, status int, size int64, latency time.Duration) access {
	a := access{method: r.Method, path: r.URL.Path, proto: r.Proto, remote: r.RemoteAddr, userAgent: r.UserAgent(), status: status, size: size, latency: latency}
	a.trace, a.traced = requestTrace(r.Header)
	return a
}

// logAccess writes a's line: Cloud Logging's httpRequest (the URL is the
// path alone, never the query) and, when the request carried a valid trace
// header, its trace. project is the Google Cloud project the trace belongs
// to; "" logs the bare trace id instead. Every request pays for this, so
// it makes one slice for all the fields and boxes none of them.
func logAccess(ctx context.Context, logger *slog.Logger, a access, project string) {
	if !logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	const reqFields, lineFields = 8, 4 // httpRequest's fields; the group and the trace's three
	all := make([]slog.Attr, 0, reqFields+lineFields)
	all = append(all,
		slog.String("requestMethod", a.method),
		slog.String("requestUrl", a.path),
		slog.Int("status", a.status),
		// int64 fields are strings in the JSON form of Google's APIs.
		slog.String("responseSize", strconv.FormatInt(a.size, 10)),
		slog.String("remoteIp", a.remote),
		slog.String("latency", protoDuration(a.latency)),
		slog.String("protocol", a.proto),
	)
	if ua := a.userAgent; ua != "" {
		if len(ua) > maxUserAgent {
			ua = strings.ToValidUTF8(ua[:maxUserAgent], "")
		}
		all = append(all, slog.String("userAgent", ua))
	}
	req := all[:len(all):len(all)]
	attrs := append(all[len(all):], slog.Attr{Key: httpRequestKey, Value: slog.GroupValue(req...)})
	switch {
	case !a.traced:
	case project == "":
		attrs = append(attrs, slog.String(bareTraceKey, a.trace.traceID))
	default:
		attrs = append(attrs, slog.String(traceKey, "projects/"+project+"/traces/"+a.trace.traceID))
		if a.trace.spanID != "" {
			attrs = append(attrs, slog.String(spanIDKey, a.trace.spanID))
		}
		if a.trace.sampledKnown {
			attrs = append(attrs, slog.Bool(traceSampledKey, a.trace.sampled))
		}
	}
	// Straight to the handler: Logger.LogAttrs would also look up its
	// caller, which no handler of this program prints.
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "http", 0)
	r.AddAttrs(attrs...)
	_ = logger.Handler().Handle(ctx, r) // as Logger.LogAttrs: a log that cannot be written has no one to tell

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
