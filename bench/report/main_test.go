package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/bench/part"
)

func TestWrite(t *testing.T) {
	h := header{time.Date(2026, 11, 28, 6, 5, 0, 0, time.UTC), 2, "go1.26.8"}
	met := part.Goal{What: "10,000 forecast runs", Figure: "0.41 s", Goal: "< 1 s", Met: true}
	missed := part.Goal{What: "serve on /", Figure: "0.93× nginx", Goal: "≥ 1×", Anchor: "nginx 56767/s", Met: false}
	tests := []struct {
		name    string
		parts   []part.Part
		wantMet bool
		want    string
	}{
		{
			name:    "every goal met",
			parts:   []part.Part{{Section: "Rank forecast", Command: "go test -run TestX", Goals: []part.Goal{met}, Body: "figures\n"}},
			wantMet: true,
			want: "# Benchmarks\n\nWritten by `make bench` on 2026-11-28 06:05 UTC, 2 cores, go1.26.8.\n" +
				"Every figure below comes from the command named with it; rerun it to refresh this file.\n\n" +
				"## Summary\n\n| figure | value | goal | anchor | goal met |\n|---|---|---|---|---|\n" +
				"| 10,000 forecast runs | 0.41 s | < 1 s |  | met |\n" +
				"\n## Rank forecast\n\nCommand: `go test -run TestX`\n\nfigures\n" +
				"\n## Reading the figures\n",
		},
		{
			name: "one goal missed, sections in the order given, a part without goals",
			parts: []part.Part{
				{Section: "B", Command: "b", Goals: []part.Goal{met, missed}, Body: "b's body"},
				{Section: "A", Command: "a", Body: "a's body"},
			},
			wantMet: false,
			want: "# Benchmarks\n\nWritten by `make bench` on 2026-11-28 06:05 UTC, 2 cores, go1.26.8.\n" +
				"Every figure below comes from the command named with it; rerun it to refresh this file.\n\n" +
				"## Summary\n\n| figure | value | goal | anchor | goal met |\n|---|---|---|---|---|\n" +
				"| 10,000 forecast runs | 0.41 s | < 1 s |  | met |\n" +
				"| serve on / | 0.93× nginx | ≥ 1× | nginx 56767/s | **not met** |\n" +
				"\n## B\n\nCommand: `b`\n\nb's body\n" +
				"\n## A\n\nCommand: `a`\n\na's body\n" +
				"\n## Reading the figures\n",
		},
		{
			name:    "a | in a cell is escaped",
			parts:   []part.Part{{Section: "S", Command: "c", Goals: []part.Goal{{What: "a | b", Figure: "1", Goal: "2", Met: true}}}},
			wantMet: true,
			want: "# Benchmarks\n\nWritten by `make bench` on 2026-11-28 06:05 UTC, 2 cores, go1.26.8.\n" +
				"Every figure below comes from the command named with it; rerun it to refresh this file.\n\n" +
				"## Summary\n\n| figure | value | goal | anchor | goal met |\n|---|---|---|---|---|\n" +
				"| a \\| b | 1 | 2 |  | met |\n" +
				"\n## S\n\nCommand: `c`\n\n\n" +
				"\n## Reading the figures\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if got := write(&b, h, tt.parts, "## Reading the figures\n"); got != tt.wantMet {
				t.Errorf("met = %v, want %v", got, tt.wantMet)
			}
			if b.String() != tt.want {
				t.Errorf("report:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
}

// TestRun runs the command on parts written by part.Write, as make bench does.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(part.OutEnv, dir)
	reading := filepath.Join(dir, "reading.md")
	if err := os.WriteFile(reading, []byte("## Reading the figures\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := part.Part{Section: "Fine", Command: "fine", Goals: []part.Goal{{What: "w", Figure: "1", Goal: "≤ 1", Met: true}}}
	notOK := part.Part{Section: "Slow", Command: "slow", Goals: []part.Goal{{What: "v", Figure: "2", Goal: "≤ 1"}}}
	for name, p := range map[string]part.Part{"fine": ok, "slow": notOK} {
		if err := part.Write(name, p); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "BENCHMARKS.md")
	report := func(parts ...string) error {
		args := append([]string{"-dir", dir, "-reading", reading, "-out", out}, parts...)
		return run(context.Background(), args, io.Discard, io.Discard)
	}

	if err := report("fine"); err != nil {
		t.Fatalf("every goal met: %v", err)
	}
	if err := report("fine", "slow"); !errors.Is(err, errNotMet) {
		t.Errorf("a goal missed: err = %v, want %v", err, errNotMet)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "| v | 2 | ≤ 1 |  | **not met** |") {
		t.Errorf("the report written with a goal missed lacks its row:\n%s", b)
	}

	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	err = report("fine", "streams")
	if err == nil || !strings.Contains(err.Error(), "part streams:") || !strings.Contains(err.Error(), "did its benchmark run") {
		t.Errorf("a part missing: err = %v, want one naming the part", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a report was written although a part is missing (stat: %v)", err)
	}
}
