package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"
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
