package server

import (
	"fmt"
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
// project the trace belongs to; "" logs the bare trace id instead.
func accessAttrs(r *http.Request, status int, size int64, latency time.Duration, project string) []slog.Attr {
	req := []any{
		slog.String("requestMethod", r.Method),
		slog.String("requestUrl", r.URL.Path),
		slog.Int("status", status),
		// int64 fields are strings in the JSON form of Google's APIs.
		slog.String("responseSize", strconv.FormatInt(size, 10)),
		slog.String("remoteIp", r.RemoteAddr),
		slog.String("latency", protoDuration(latency)),
		slog.String("protocol", r.Proto),
	}
	if ua := r.UserAgent(); ua != "" {
		if len(ua) > maxUserAgent {
			ua = strings.ToValidUTF8(ua[:maxUserAgent], "")
		}
		req = append(req, slog.String("userAgent", ua))
	}
	attrs := []slog.Attr{slog.Group(httpRequestKey, req...)}
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
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	sec, ns := int64(d/time.Second), int64(d%time.Second)
	switch {
	case ns == 0:
		return fmt.Sprintf("%s%ds", sign, sec)
	case ns%1e6 == 0:
		return fmt.Sprintf("%s%d.%03ds", sign, sec, ns/1e6)
	case ns%1e3 == 0:
		return fmt.Sprintf("%s%d.%06ds", sign, sec, ns/1e3)
	default:
		return fmt.Sprintf("%s%d.%09ds", sign, sec, ns)
	}
}
