package desktop

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// logLines returns a logger that writes text lines without times, and the
// lines written so far.
func logLines() (*slog.Logger, func() []string) {
	var mu sync.Mutex
	var buf bytes.Buffer
	h := slog.NewTextHandler(lockedWriter{&mu, &buf}, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})
	return slog.New(h), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	}
}

type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// styleViolation is what an inline style attribute on /about gives.
func styleViolation(load string) Violation {
	return Violation{Load: load, Route: "/about", Directive: "style-src-attr", Blocked: "inline", Source: "wails://wails/assets/index.js:1:200"}
}

func TestViolationLogLogsAFewPerPageLoad(t *testing.T) {
	first := `level=WARN msg="csp violation" route=/about directive=style-src-attr blocked=inline source=wails://wails/assets/index.js:1:200`
	more := `level=WARN msg="csp violations: more in this page load; only counting them now" route=/about logged=10`
	count := func(n int) string {
		return fmt.Sprintf(`level=WARN msg="csp violations: still more in this page load" route=/about count=%d`, n)
	}
	repeat := func(line string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = line
		}
		return out
	}
	tests := []struct {
		name  string
		loads []string // the page load of each violation, in order
		want  []string
	}{
		{name: "one", loads: repeat("1", 1), want: []string{first}},
		{name: "the first ten one by one", loads: repeat("1", 10), want: repeat(first, 10)},
		{
			name:  "then a notice",
			loads: repeat("1", 99),
			want:  append(repeat(first, 10), more),
		},
		{
			name:  "then the count at each power of ten",
			loads: repeat("1", 1500),
			want:  append(repeat(first, 10), more, count(100), count(1000)),
		},
		{
			name:  "a new page load starts over",
			loads: append(repeat("1", 12), "2", "2"),
			want:  append(repeat(first, 10), more, first, first),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, lines := logLines()
			l := NewViolationLog(logger)
			for _, load := range tt.loads {
				l.Add(styleViolation(load))
			}
			got := lines()
			if len(got) != len(tt.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("line %d:\n got %s\nwant %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestViolationLogAddsTheSampleWhenThereIsOne(t *testing.T) {
	logger, lines := logLines()
	NewViolationLog(logger).Add(Violation{Load: "1", Route: "/", Directive: "script-src-elem", Blocked: "inline", Sample: "alert(1)"})
	want := `level=WARN msg="csp violation" route=/ directive=script-src-elem blocked=inline source="" sample=alert(1)`
	if got := lines(); len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestViolationLogCountsConcurrentReports(t *testing.T) {
	logger, lines := logLines()
	l := NewViolationLog(logger)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 125 {
				l.Add(styleViolation("1"))
			}
		}()
	}
	wg.Wait()
	// 1000 in all: ten lines, the notice, and the counts at 100 and 1000.
	if got := lines(); len(got) != 13 {
		t.Errorf("%d lines, want 13:\n%s", len(got), strings.Join(got, "\n"))
	}
}

func TestPowerOfTen(t *testing.T) {
	tests := []struct {
		n    int
		want bool
	}{
		{1, true}, {10, true}, {100, true}, {1_000_000, true},
		{0, false}, {2, false}, {20, false}, {110, false}, {1001, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			if got := powerOfTen(tt.n); got != tt.want {
				t.Errorf("powerOfTen(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}
