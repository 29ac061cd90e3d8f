package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

func TestRequestTrace(t *testing.T) {
	const (
		trace = "4bf92f3577b34da6a3ce929d0e0e4736"
		span  = "00f067aa0ba902b7"
	)
	tests := []struct {
		name        string
		traceparent []string
		cloud       []string
		want        traceContext
		wantOK      bool
	}{
		{name: "no header"},
		{
			name:        "traceparent, sampled",
			traceparent: []string{"00-" + trace + "-" + span + "-01"},
			want:        traceContext{traceID: trace, spanID: span, sampled: true, sampledKnown: true}, wantOK: true,
		},
		{
			name:        "traceparent, not sampled",
			traceparent: []string{"00-" + trace + "-" + span + "-00"},
			want:        traceContext{traceID: trace, spanID: span, sampledKnown: true}, wantOK: true,
		},
		{
			name:        "traceparent of a later version with a field more",
			traceparent: []string{"01-" + trace + "-" + span + "-03-whatever"},
			want:        traceContext{traceID: trace, spanID: span, sampled: true, sampledKnown: true}, wantOK: true,
		},
		{
			name:  "X-Cloud-Trace-Context with span and options",
			cloud: []string{"105445aa7843bc8bf206b12000100000/74;o=1"},
			want:  traceContext{traceID: "105445aa7843bc8bf206b12000100000", spanID: "000000000000004a", sampled: true, sampledKnown: true}, wantOK: true,
		},
		{
			name:  "X-Cloud-Trace-Context, not traced",
			cloud: []string{trace + "/18446744073709551615;o=0"},
			want:  traceContext{traceID: trace, spanID: "ffffffffffffffff", sampledKnown: true}, wantOK: true,
		},
		{
			name:  "X-Cloud-Trace-Context without options",
			cloud: []string{trace + "/1"},
			want:  traceContext{traceID: trace, spanID: "0000000000000001"}, wantOK: true,
		},
		{
			name:  "X-Cloud-Trace-Context, the trace alone, in uppercase",
			cloud: []string{strings.ToUpper(trace)},
			want:  traceContext{traceID: trace}, wantOK: true,
		},
		{
			name:        "traceparent wins over X-Cloud-Trace-Context",
			traceparent: []string{"00-" + trace + "-" + span + "-01"},
			cloud:       []string{"105445aa7843bc8bf206b12000100000/74;o=1"},
			want:        traceContext{traceID: trace, spanID: span, sampled: true, sampledKnown: true}, wantOK: true,
		},
		{
			name:        "a malformed traceparent falls back on X-Cloud-Trace-Context",
			traceparent: []string{"00-" + trace + "-" + span},
			cloud:       []string{"105445aa7843bc8bf206b12000100000/74;o=1"},
			want:        traceContext{traceID: "105445aa7843bc8bf206b12000100000", spanID: "000000000000004a", sampled: true, sampledKnown: true}, wantOK: true,
		},
		// Malformed traceparent headers.
		{name: "traceparent too short", traceparent: []string{"00-" + trace + "-" + span + "-1"}},
		{name: "traceparent 00 too long", traceparent: []string{"00-" + trace + "-" + span + "-01-extra"}},
		{name: "traceparent of a later version with no dash after the flags", traceparent: []string{"01-" + trace + "-" + span + "-01x"}},
		{name: "traceparent version ff", traceparent: []string{"ff-" + trace + "-" + span + "-01"}},
		{name: "traceparent in uppercase", traceparent: []string{"00-" + strings.ToUpper(trace) + "-" + span + "-01"}},
		{name: "traceparent with a zero trace", traceparent: []string{"00-" + strings.Repeat("0", 32) + "-" + span + "-01"}},
		{name: "traceparent with a zero span", traceparent: []string{"00-" + trace + "-" + strings.Repeat("0", 16) + "-01"}},
		{name: "traceparent with a short trace", traceparent: []string{"00-" + trace[:31] + "x-" + span + "-01"}},
		{name: "traceparent with a quote", traceparent: []string{"00-" + trace[:31] + "\"-" + span + "-01"}},
		{name: "traceparent with other separators", traceparent: []string{"00_" + trace + "_" + span + "_01"}},
		{name: "traceparent sent twice", traceparent: []string{"00-" + trace + "-" + span + "-01", "00-" + trace + "-" + span + "-01"}},
		// Malformed X-Cloud-Trace-Context headers.
		{name: "cloud trace too short", cloud: []string{trace[:31] + "/1;o=1"}},
		{name: "cloud trace too long", cloud: []string{trace + "0/1;o=1"}},
		{name: "cloud trace not hex", cloud: []string{"g" + trace[1:] + "/1;o=1"}},
		{name: "cloud trace all zero", cloud: []string{strings.Repeat("0", 32) + "/1;o=1"}},
		{name: "cloud span empty", cloud: []string{trace + "/;o=1"}},
		{name: "cloud span zero", cloud: []string{trace + "/0;o=1"}},
		{name: "cloud span in hex", cloud: []string{trace + "/4a;o=1"}},
		{name: "cloud span negative", cloud: []string{trace + "/-1;o=1"}},
		{name: "cloud span over 64 bits", cloud: []string{trace + "/18446744073709551616;o=1"}},
		{name: "cloud options other than o=", cloud: []string{trace + "/1;x=1"}},
		{name: "cloud options empty", cloud: []string{trace + "/1;o="}},
		{name: "cloud options with text", cloud: []string{trace + "/1;o=1\n{\"severity\":\"ERROR\"}"}},
		{name: "cloud trace with a newline", cloud: []string{trace + "\n"}},
		{name: "cloud header too long", cloud: []string{trace + "/1;o=" + strings.Repeat("1", 200)}},
		{name: "cloud header empty", cloud: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.traceparent {
				h.Add("traceparent", v)
			}
			for _, v := range tt.cloud {
				h.Add("X-Cloud-Trace-Context", v)
			}
			got, ok := requestTrace(h)
			if ok != tt.wantOK || got != tt.want {
				t.Errorf("requestTrace = %+v, %v; want %+v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestProtoDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{3 * time.Second, "3s"},
		{1500 * time.Millisecond, "1.500s"},
		{1234 * time.Microsecond, "0.001234s"},
		{1234567 * time.Nanosecond, "0.001234567s"},
		{-2 * time.Millisecond, "-0.002s"},
		{-1500 * time.Millisecond, "-1.500s"},
		{time.Nanosecond, "0.000000001s"},
		{100 * time.Microsecond, "0.000100s"},
		{36*time.Hour + 7*time.Millisecond, "129600.007s"},
	}
	for _, tt := range tests {
		if got := protoDuration(tt.d); got != tt.want {
			t.Errorf("protoDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestAccessLogLine checks the fields of access log lines as a JSON
// handler writes them: Cloud Logging's httpRequest, and its trace fields
// from a valid trace header only.
func TestAccessLogLine(t *testing.T) {
	// httpRequest is the field every case logs for its GET, with the
	// User-Agent only when the request had one.
	httpRequest := func(userAgent string) map[string]any {
		r := map[string]any{
			"requestMethod": "GET", "requestUrl": "/api/news", "status": float64(200), "responseSize": "5",
			"remoteIp": "192.0.2.1:1234", "latency": "0.001234s", "protocol": "HTTP/1.1",
		}
		if userAgent != "" {
			r["userAgent"] = userAgent
		}
		return r
	}
	tests := []struct {
		name    string
		project string
		header  map[string]string
		want    map[string]any // the line's fields other than time, level and msg
	}{
		{
			name:    "X-Cloud-Trace-Context with a project",
			project: "robohornets-prod",
			header:  map[string]string{"X-Cloud-Trace-Context": "105445aa7843bc8bf206b12000100000/74;o=1", "User-Agent": "kiosk/1.0"},
			want: map[string]any{
				"httpRequest":                          httpRequest("kiosk/1.0"),
				"logging.googleapis.com/trace":         "projects/robohornets-prod/traces/105445aa7843bc8bf206b12000100000",
				"logging.googleapis.com/spanId":        "000000000000004a",
				"logging.googleapis.com/trace_sampled": true,
			},
		},
		{
			name:    "traceparent without a project",
			project: "",
			header:  map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"},
			want: map[string]any{
				"httpRequest": httpRequest(""),
				"trace":       "4bf92f3577b34da6a3ce929d0e0e4736",
			},
		},
		{
			name:    "a malformed header is left out",
			project: "robohornets-prod",
			header:  map[string]string{"X-Cloud-Trace-Context": "not-a-trace\"}/74;o=1"},
			want: map[string]any{
				"httpRequest": httpRequest(""),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			logger := slog.New(slog.NewJSONHandler(&buf, nil))
			clk := clock.NewFake(time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC))
			h := withAccessLog(logger, clk, tt.project, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				clk.Advance(1234 * time.Microsecond)
				_, _ = w.Write([]byte("hello"))
			}))
			r := httptest.NewRequest(http.MethodGet, "/api/news?secret=1", nil)
			r.RemoteAddr = "192.0.2.1:1234"
			for k, v := range tt.header {
				r.Header.Set(k, v)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)

			var line map[string]any
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
				t.Fatalf("the access log is not one JSON line: %v\n%s", err, buf.String())
			}
			for _, k := range []string{"time", "level", "msg"} {
				delete(line, k)
			}
			if !reflect.DeepEqual(line, tt.want) {
				t.Errorf("the access log line has\n%v\nwant\n%v", line, tt.want)
			}
		})
	}
}
