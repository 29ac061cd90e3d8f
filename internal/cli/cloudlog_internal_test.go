package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"testing/slogtest"
	"time"
)

// TestCloudLogLine checks a line of serve's log as Cloud Logging reads it:
// severity, message and time (RFC 3339 with nanoseconds) in place of
// slog's level, msg and time, every other field as it was.
func TestCloudLogLine(t *testing.T) {
	tests := []struct {
		name  string
		level slog.Level
		want  string
	}{
		{"debug", slog.LevelDebug, "DEBUG"},
		{"below debug", slog.LevelDebug - 4, "DEBUG"},
		{"info", slog.LevelInfo, "INFO"},
		{"between info and warn", slog.LevelInfo + 2, "INFO"},
		{"warn", slog.LevelWarn, "WARNING"},
		{"error", slog.LevelError, "ERROR"},
		{"above error", slog.LevelError + 4, "ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			logger := slog.New(newCloudLogHandler(&buf, slog.LevelDebug-4))
			r := slog.NewRecord(time.Date(2026, 11, 25, 12, 9, 0, 1500, time.UTC), tt.level, "serving", 0)
			r.AddAttrs(slog.String("url", "http://[::]:8080"), slog.Group("httpRequest", slog.Int("status", 200)))
			if err := logger.Handler().Handle(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			var line map[string]any
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
				t.Fatalf("not one JSON line: %v\n%s", err, buf.String())
			}
			want := map[string]any{
				"time":        "2026-11-25T12:09:00.000001500Z",
				"severity":    tt.want,
				"message":     "serving",
				"url":         "http://[::]:8080",
				"httpRequest": map[string]any{"status": float64(200)},
			}
			if !reflect.DeepEqual(line, want) {
				t.Errorf("the line is\n%v\nwant\n%v", line, want)
			}
			// The fields come in this order, so a person reading the raw log
			// sees the time, the severity and the message first.
			prefix := `{"time":"2026-11-25T12:09:00.000001500Z","severity":"` + tt.want + `","message":"serving",`
			if got := buf.String(); !strings.HasPrefix(got, prefix) {
				t.Errorf("the line is %s, want it to start %s", got, prefix)
			}
		})
	}
}

// cloudNames is the oracle of the hand-written handler: slog's own JSON
// handler, with slog's field names replaced by Cloud Logging's.
func cloudNames(groups []string, a slog.Attr) slog.Attr {
	if len(groups) > 0 {
		return a
	}
	switch a.Key {
	case slog.TimeKey:
		return slog.String(cloudTimeKey, a.Value.Time().Format(cloudTimeFormat))
	case slog.LevelKey:
		return slog.String(cloudSeverityKey, severity(a.Value.Any().(slog.Level)))
	case slog.MessageKey:
		return slog.String(cloudMessageKey, a.Value.String())
	}
	return a
}

type valuer struct{}

func (valuer) LogValue() slog.Value { return slog.GroupValue(slog.Int("resolved", 1)) }

// TestCloudLogMatchesSlog writes the same records through the handler and
// through slog's JSON handler (with Cloud Logging's names) and compares the
// decoded lines: every kind of value, escapes, groups (empty, inline and
// nested), With and WithGroup.
func TestCloudLogMatchesSlog(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 9, 0, 1500, time.UTC)
	records := [][]slog.Attr{
		{slog.String("s", "plain"), slog.Int("i", -7), slog.Uint64("u", 1<<63), slog.Bool("b", true), slog.Float64("f", 0.1)},
		{slog.Duration("d", 1500*time.Millisecond), slog.Time("t", at), slog.Any("err", io.ErrUnexpectedEOF), slog.Any("list", []int{1, 2})},
		{slog.String("escapes", "quote \" back \\ nl \n tab \t nul \x00 html <a>&amp; ls \u2028 bad \xff end")},
		{slog.Group("httpRequest", slog.String("requestMethod", "GET"), slog.Group("empty"), slog.Group("deep", slog.Int("x", 1))), slog.Group("", slog.Int("inline", 2))},
		{slog.Any("valuer", valuer{}), slog.Attr{}, slog.String("", "no key")},
		{slog.Any("json", json.RawMessage(`{"raw":true}`)), slog.Any("map", map[string]int{"a": 1})},
	}
	derive := []struct {
		name string
		fn   func(slog.Handler) slog.Handler
	}{
		{"plain", func(h slog.Handler) slog.Handler { return h }},
		{"with", func(h slog.Handler) slog.Handler {
			return h.WithAttrs([]slog.Attr{slog.String("service", "serve"), {Key: "nothing", Value: slog.GroupValue()}})
		}},
		{"group", func(h slog.Handler) slog.Handler {
			return h.WithAttrs([]slog.Attr{slog.Int("a", 1)}).WithGroup("g").WithAttrs([]slog.Attr{slog.Int("b", 2)}).WithGroup("h")
		}},
	}
	for _, d := range derive {
		for i, attrs := range records {
			var got, want bytes.Buffer
			r := slog.NewRecord(at, slog.LevelWarn, "message <with> \"quotes\"", 0)
			r.AddAttrs(attrs...)
			if err := d.fn(newCloudLogHandler(&got, slog.LevelDebug)).Handle(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			oracle := slog.NewJSONHandler(&want, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: cloudNames})
			if err := d.fn(oracle).Handle(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got.Bytes(), &g); err != nil {
				t.Fatalf("%s record %d: not JSON: %v\n%s", d.name, i, err, got.String())
			}
			if err := json.Unmarshal(want.Bytes(), &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) || strings.Count(got.String(), "\n") != 1 {
				t.Errorf("%s record %d:\n got %s\nwant %s", d.name, i, got.String(), want.String())
			}
		}
	}
}

// TestCloudLogHandlerContract runs slog's own test of a handler against it,
// reading Cloud Logging's names back as slog's.
func TestCloudLogHandlerContract(t *testing.T) {
	var buf bytes.Buffer
	slogtest.Run(t, func(*testing.T) slog.Handler {
		buf.Reset()
		return newCloudLogHandler(&buf, slog.LevelDebug)
	}, func(t *testing.T) map[string]any {
		var line map[string]any
		if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
			t.Fatalf("not one JSON line: %v\n%s", err, buf.String())
		}
		for cloud, slogKey := range map[string]string{cloudSeverityKey: slog.LevelKey, cloudMessageKey: slog.MessageKey} {
			if v, ok := line[cloud]; ok {
				line[slogKey] = v
				delete(line, cloud)
			}
		}
		return line
	})
}
