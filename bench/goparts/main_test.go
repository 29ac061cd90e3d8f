package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/bench/part"
)

func TestMetric(t *testing.T) {
	line := "BenchmarkFirestoreReads1000Visitors-2   	       1	11947658056 ns/op	     30000 original-reads/op	        30.00 our-reads/op	      1000 x-fewer-reads"
	tests := []struct{ unit, want string }{
		{"x-fewer-reads", "1000"},
		{"original-reads/op", "30000"},
		{"absent", ""},
	}
	for _, tt := range tests {
		t.Run(tt.unit, func(t *testing.T) {
			if got := metric(line, tt.unit); got != tt.want {
				t.Errorf("metric(%q) = %q, want %q", tt.unit, got, tt.want)
			}
		})
	}
}

func TestAssemble(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(part.OutEnv, dir)
	goals := filepath.Join(dir, "goals.jsonl")
	lines := `{"what":"memory per live viewer","figure":"13.2 KB","goal":"≤ 20 KB","anchor":"","met":true}` + "\n" +
		`{"what":"write → every viewer p99","figure":"1.4 s","goal":"≤ 1s","anchor":"","met":false}` + "\n"
	if err := os.WriteFile(goals, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err := run([]string{"assemble", "-name", "streams", "-section", "Live fan-out", "-command", "bench/streams.sh", "-goals", goals},
		strings.NewReader("| store | viewers |\n"), &out)
	if err != errNotMet {
		t.Errorf("err = %v, want %v (a goal in the file is not met)", err, errNotMet)
	}
	if want := "## Live fan-out\n\nCommand: `bench/streams.sh`\n\n| store | viewers |\n\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	p, err := part.Read(dir, "streams")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Goals) != 2 || p.Goals[0].Figure != "13.2 KB" || p.Goals[1].Met {
		t.Errorf("goals = %+v, want the file's two", p.Goals)
	}
}
