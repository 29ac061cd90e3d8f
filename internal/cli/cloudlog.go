package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
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
// field names and severities of Cloud Logging's structured logging. It
// writes what slog's JSON handler would with those names (the tests hold it
// to that), by hand: serve writes a line per request, and slog's general
// handler was a tenth of the CPU of a request for a build file.
func newCloudLogHandler(w io.Writer, level slog.Leveler) slog.Handler {
	return &cloudHandler{out: &cloudOut{w: w}, level: level, groups: []cloudGroup{{}}}
}

// cloudHandler writes log records as JSON lines for Cloud Logging.
type cloudHandler struct {
	out   *cloudOut
	level slog.Leveler
	// groups are the levels WithGroup opened, the top level first (its name
	// ""), each with the JSON of the attributes WithAttrs gave it, every
	// field followed by a comma. A group is written only when it has a
	// field, its own or a deeper one's.
	groups []cloudGroup
}

type cloudGroup struct {
	name  string
	attrs []byte
}

// cloudOut is where every handler derived from one writes, a line at once.
type cloudOut struct {
	mu sync.Mutex
	w  io.Writer
}

// lineBufs are the handlers' line buffers; one that grew past maxLineBuf
// (a huge line) is left to the collector.
var lineBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxLineBuf = 16 << 10

func (h *cloudHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level.Level() }

func (h *cloudHandler) Handle(_ context.Context, r slog.Record) error {
	bp := lineBufs.Get().(*[]byte)
	b := append((*bp)[:0], '{')
	if !r.Time.IsZero() {
		b = append(b, `"`+cloudTimeKey+`":"`...)
		b = r.Time.AppendFormat(b, cloudTimeFormat)
		b = append(b, `",`...)
	}
	b = append(b, `"`+cloudSeverityKey+`":"`...)
	b = append(b, severity(r.Level)...)
	b = append(b, `","`+cloudMessageKey+`":`...)
	b = appendJSONString(b, r.Message)
	b = append(b, ',')
	b = h.appendGroups(b, 0, func(b []byte) []byte {
		r.Attrs(func(a slog.Attr) bool {
			b = appendAttr(b, a)
			return true
		})
		return b
	})
	b = append(closeObject(b), '\n')
	h.out.mu.Lock()
	_, err := h.out.w.Write(b)
	h.out.mu.Unlock()
	if cap(b) <= maxLineBuf {
		*bp = b
		lineBufs.Put(bp)
	}
	return err
}

// appendGroups appends the fields of group i and of the groups inside it,
// the record's (record) in the innermost, leaving out a group with none.
func (h *cloudHandler) appendGroups(b []byte, i int, record func([]byte) []byte) []byte {
	g := h.groups[i]
	start := len(b)
	if g.name != "" {
		b = appendJSONString(b, g.name)
		b = append(b, ":{"...)
	}
	open := len(b)
	b = append(b, g.attrs...)
	if i+1 < len(h.groups) {
		b = h.appendGroups(b, i+1, record)
	} else {
		b = record(b)
	}
	switch {
	case g.name == "":
		return b
	case len(b) == open:
		return b[:start] // an empty group is left out, as slog does
	}
	return append(closeObject(b), ',')
}

func (h *cloudHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.groups = slices.Clone(h.groups)
	last := &c.groups[len(c.groups)-1]
	last.attrs = slices.Clone(last.attrs)
	for _, a := range attrs {
		last.attrs = appendAttr(last.attrs, a)
	}
	return &c
}

func (h *cloudHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.groups = append(slices.Clone(h.groups), cloudGroup{name: name})
	return &c
}

// appendAttr appends a's "key":value and a comma, as slog's JSON handler
// writes it: nothing for an empty attribute or an empty group, the fields
// of a group with no key inline.
func appendAttr(b []byte, a slog.Attr) []byte {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return b
	}
	if a.Value.Kind() == slog.KindGroup {
		attrs := a.Value.Group()
		if len(attrs) == 0 {
			return b
		}
		if a.Key != "" {
			b = appendJSONString(b, a.Key)
			b = append(b, ":{"...)
		}
		for _, g := range attrs {
			b = appendAttr(b, g)
		}
		if a.Key != "" {
			b = append(closeObject(b), ',')
		}
		return b
	}
	b = appendJSONString(b, a.Key)
	b = append(b, ':')
	return append(appendValue(b, a.Value), ',')
}

// closeObject ends an object whose last field left a comma (or that is
// empty after its brace).
func closeObject(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == ',' {
		b = b[:len(b)-1]
	}
	return append(b, '}')
}

func appendValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendJSONString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		return strconv.AppendInt(b, int64(v.Duration()), 10)
	case slog.KindTime:
		b = append(b, '"')
		return append(v.Time().AppendFormat(b, time.RFC3339Nano), '"')
	}
	// Floats, errors and other values: as encoding/json has them, like slog.
	a := v.Any()
	if err, ok := a.(error); ok && !isJSONMarshaler(a) {
		return appendJSONString(b, err.Error())
	}
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false) // as slog writes them
	if err := enc.Encode(a); err != nil {
		return appendJSONString(b, "!ERROR:"+err.Error())
	}
	return append(b, bytes.TrimSuffix(data.Bytes(), []byte("\n"))...)
}

func isJSONMarshaler(a any) bool {
	_, ok := a.(json.Marshaler)
	return ok
}

// appendJSONString appends s as a JSON string, escaped as slog escapes it:
// quotes, backslashes, control characters, U+2028 and U+2029; invalid
// UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			case '\u2028':
				b = append(b, `\u2028`...)
			default:
				b = append(b, `\u2029`...)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}

const hexDigits = "0123456789abcdef"

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
