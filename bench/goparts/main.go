// Command goparts runs the parts of make bench that other tools measure and
// turns their output into parts (bench/part): each mode prints its section
// and, with $ROBOHORNETS_BENCH_OUT set, writes <mode>.json there. It exits 1
// when the measuring command failed or a goal was missed.
//
//	goparts go-bench      the Go package benchmarks (news, server, frcevent)
//	goparts calibration   the win chance's calibration on real past events
//	goparts bundle        the weight of the first load (frontend/scripts/bundle-budget.mjs)
//	goparts assemble -name NAME -section S -command C [-goals FILE] < BODY
//
// assemble is for a part written by a shell script (bench/streams.sh): the
// body on stdin, the goals as JSON lines (one part.Goal each) in FILE.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/robohornets/robohornets/bench/part"
)

// main exits 0 after -h, flag's usage being the answer asked for.
func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "goparts:", err)
		os.Exit(1)
	}
}

var errNotMet = errors.New("a goal was not met")

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: goparts go-bench|calibration|bundle|assemble …")
	}
	name := args[0]
	var p part.Part
	var err error
	switch name {
	case "go-bench":
		p, err = goBench()
	case "calibration":
		p, err = calibration()
	case "bundle":
		p, err = bundle()
	case "assemble":
		name, p, err = assemble(args[1:], stdin)
	default:
		return fmt.Errorf("unknown part %q", name)
	}
	if p.Section == "" {
		return err
	}
	if _, werr := io.WriteString(stdout, p.Markdown()+"\n"); werr != nil {
		return werr
	}
	if werr := part.Write(name, p); werr != nil {
		return werr
	}
	if err == nil && !p.Met() {
		err = errNotMet
	}
	return err
}

// command runs name with args (in dir when not "") and returns its standard
// output; its standard error goes to ours.
func command(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		err = fmt.Errorf("%s: %w", strings.Join(cmd.Args, " "), err)
	}
	return out, err
}

// goBench runs the Go package benchmarks; its goal is the Firestore reads
// of 1,000 visitors against the original design's.
func goBench() (part.Part, error) {
	p := part.Part{
		Section: "Go: rendering, fan-out, HTTP handlers, event data and Firestore cost",
		Command: "go test -tags emulator -run '^$' -bench . -benchmem ./internal/news ./internal/server ./internal/frcevent",
	}
	out, err := command("", "go", "test", "-tags", "emulator", "-run", "^$", "-bench", ".", "-benchmem",
		"./internal/news", "./internal/server", "./internal/frcevent")
	var kept []string
	for _, line := range lines(out) {
		for _, prefix := range []string{"Benchmark", "ok", "FAIL", "goos", "goarch", "cpu"} {
			if strings.HasPrefix(line, prefix) {
				kept = append(kept, line)
				break
			}
		}
	}
	p.Body = "```\n" + strings.Join(kept, "\n") + "\n```\n"
	for _, line := range kept {
		if strings.HasPrefix(line, "BenchmarkFirestoreReads1000Visitors") {
			fewer, original := metric(line, "x-fewer-reads"), metric(line, "original-reads/op")
			n, perr := strconv.ParseFloat(fewer, 64)
			p.Goals = []part.Goal{{
				What:   "Firestore document reads, 1,000 visitors and 10 writes",
				Figure: fewer + "× fewer", Goal: "≥ 100×",
				Anchor: "the original design: " + original + " reads",
				Met:    perr == nil && n >= 100,
			}}
		}
	}
	if len(p.Goals) == 0 {
		err = errors.Join(err, errors.New("go-bench: no BenchmarkFirestoreReads1000Visitors line"))
	}
	return p, err
}

// metric is the value before unit in a benchmark line ("1000 x-fewer-reads").
func metric(line, unit string) string {
	f := strings.Fields(line)
	for i := 1; i < len(f); i++ {
		if f[i] == unit {
			return f[i-1]
		}
	}
	return ""
}

// calibration runs TestCalibration; its goal is the held-out events' Brier
// score below the coin flip's.
func calibration() (part.Part, error) {
	p := part.Part{
		Section: "Win chance: calibration on real past events",
		Command: "go test -count=1 -run TestCalibration -v ./internal/frcstats",
	}
	out, err := command("", "go", "test", "-count=1", "-run", "TestCalibration", "-v", "./internal/frcstats")
	var kept []string
	held, header := false, []string(nil)
	for _, line := range lines(out) {
		if strings.HasPrefix(line, "=== RUN") || strings.HasPrefix(line, "--- PASS") || line == "PASS" || strings.HasPrefix(line, "ok ") {
			continue
		}
		kept = append(kept, line)
		switch {
		case line == "Held-out events":
			held = true
		case held && header == nil && strings.HasPrefix(line, "| event |"):
			header = cells(line)
		case held && strings.HasPrefix(line, "| **all** |"):
			f := cells(strings.ReplaceAll(line, "*", ""))
			model, _ := strconv.ParseFloat(f[2], 64)
			coin, cerr := strconv.ParseFloat(f[3], 64)
			p.Goals = []part.Goal{{
				What:   "Brier score of the win chance, held-out real events",
				Figure: f[2], Goal: "< the coin flip",
				Anchor: fmt.Sprintf("coin flip %s; %s %s", f[3], header[4], f[4]),
				Met:    cerr == nil && model < coin,
			}}
			held = false
		}
	}
	p.Body = "The model: docs/win-chance.md.\n\n" + strings.Join(kept, "\n") + "\n"
	if len(p.Goals) == 0 {
		err = errors.Join(err, errors.New("calibration: no held-out **all** row"))
	}
	return p, err
}

// cells splits a markdown table row into its trimmed cells.
func cells(row string) []string {
	f := strings.Split(strings.Trim(row, "|"), "|")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return append(f, "", "", "", "", "") // short rows read as empty cells
}

// bundle runs the bundle budget script; its goal is the gzip weight of /.
func bundle() (part.Part, error) {
	p := part.Part{
		Section: "Weight of the first load",
		Command: "cd frontend && node scripts/bundle-budget.mjs",
	}
	out, err := command("frontend", "node", "scripts/bundle-budget.mjs")
	p.Body = "```\n" + strings.TrimRight(string(out), "\n") + "\n```\n"
	for _, line := range lines(out) {
		if strings.Contains(line, "total for /") {
			kb := strings.Fields(line)[0]
			n, perr := strconv.ParseFloat(kb, 64)
			p.Goals = []part.Goal{{What: "initial JS + CSS of / (gzip)", Figure: kb + " KB", Goal: "≤ 100 KB", Met: perr == nil && n <= 100}}
		}
	}
	if len(p.Goals) == 0 {
		err = errors.Join(err, errors.New("bundle: no \"total for /\" line"))
	}
	return p, err
}

// assemble makes a part of a body on stdin and goals in a JSON lines file.
func assemble(args []string, stdin io.Reader) (string, part.Part, error) {
	fs := flag.NewFlagSet("assemble", flag.ContinueOnError)
	name := fs.String("name", "", "the part's `NAME` (its file is NAME.json)")
	var p part.Part
	fs.StringVar(&p.Section, "section", "", "the section's `HEADING`")
	fs.StringVar(&p.Command, "command", "", "the `COMMAND` that reproduces it")
	goals := fs.String("goals", "", "a `FILE` of goals, one JSON object a line")
	if err := fs.Parse(args); err != nil {
		return "", part.Part{}, err
	}
	if *name == "" || p.Section == "" || p.Command == "" {
		return "", part.Part{}, errors.New("assemble: -name, -section and -command are needed")
	}
	body, err := io.ReadAll(stdin)
	if err != nil {
		return "", part.Part{}, err
	}
	p.Body = string(body)
	if *goals != "" {
		b, err := os.ReadFile(*goals)
		if err != nil {
			return "", part.Part{}, err
		}
		for _, line := range lines(b) {
			if line == "" {
				continue
			}
			var g part.Goal
			if err := json.Unmarshal([]byte(line), &g); err != nil {
				return "", part.Part{}, fmt.Errorf("assemble: %s: %w", *goals, err)
			}
			p.Goals = append(p.Goals, g)
		}
	}
	return *name, p, nil
}

// lines splits b into lines, the empty ones kept (the sections' blank lines).
func lines(b []byte) []string {
	var out []string
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out
}
