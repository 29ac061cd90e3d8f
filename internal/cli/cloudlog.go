package cli

import (
	"io"
	"log/slog"
	"time"
)

// Cloud Logging's names for the three fields every line of serve's log
// has: a JSON line written to stdout on Cloud Run (or read by the Ops
// Agent) becomes a log entry whose severity, message and timestamp come
// from these fields.
const (
	cloudTimeKey     = "time"
	cloudSeverityKey = "severity"
	cloudMessageKey  = "message"
)

// cloudTimeFormat is RFC 3339 with all nine digits of the nanoseconds, so
// lines sort as text.
const cloudTimeFormat = "2006-01-02T15:04:05.000000000Z07:00"

// newCloudLogHandler is serve's log: one JSON object a line on w, with the
// field names and severities of Cloud Logging's structured logging.
func newCloudLogHandler(w io.Writer, level slog.Leveler) slog.Handler {
	return slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: cloudLogAttr})
}

// cloudLogAttr renames slog's built-in fields (time, level, msg) to Cloud
// Logging's and writes their values as Cloud Logging reads them. (An
// attribute of a record with one of those keys would be renamed too; serve
// logs none.)
func cloudLogAttr(groups []string, a slog.Attr) slog.Attr {
	if len(groups) > 0 {
		return a
	}
	switch a.Key {
	case slog.TimeKey:
		if t, ok := a.Value.Any().(time.Time); ok {
			return slog.String(cloudTimeKey, t.Format(cloudTimeFormat))
		}
	case slog.LevelKey:
		if l, ok := a.Value.Any().(slog.Level); ok {
			return slog.String(cloudSeverityKey, severity(l))
		}
	case slog.MessageKey:
		if a.Value.Kind() == slog.KindString {
			return slog.String(cloudMessageKey, a.Value.String())
		}
	}
	return a
}

// severity is Cloud Logging's LogSeverity for a slog level; a level between
// two of slog's takes the lower one's, as slog names it (INFO+2 is INFO).
func severity(l slog.Level) string {
	switch {
	case l < slog.LevelInfo:
		return "DEBUG"
	case l < slog.LevelWarn:
		return "INFO"
	case l < slog.LevelError:
		return "WARNING"
	default:
		return "ERROR"
	}
}
