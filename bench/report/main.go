// Command report writes docs/BENCHMARKS.md from the parts make bench ran:
// a header (date, cores, Go version), one summary table of every part's
// goals, each part's section in the order named, then the hand-written
// reading of the figures. It exits 1 when a goal is not met, after writing
// the report, and fails without writing it when a named part is missing.
//
//	report -dir build/bench -reading docs/benchmarks-reading.md -out docs/BENCHMARKS.md go-bench calibration …
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/robohornets/robohornets/bench/part"
)

// main exits 0 after -h, flag's usage being the answer asked for.
func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// errNotMet is the report's answer when it was written but a goal is missed.
var errNotMet = errors.New("a goal was not met (see the summary)")

func run(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "build/bench", "the `DIR` the parts wrote their JSON to")
	reading := fs.String("reading", "docs/benchmarks-reading.md", "the hand-written `FILE` appended after the figures")
	out := fs.String("out", "docs/BENCHMARKS.md", "the report `FILE` to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: report [-dir DIR] [-reading FILE] [-out FILE] PART…")
	}
	parts := make([]part.Part, 0, fs.NArg())
	var errs []error
	for _, name := range fs.Args() {
		p, err := part.Read(*dir, name)
		errs = append(errs, err)
		parts = append(parts, p)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	tail, err := os.ReadFile(*reading)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	h := header{time.Now().UTC(), runtime.NumCPU(), runtime.Version()}
	met := write(&b, h, parts, string(tail))
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		return err
	}
	if _, err := stdout.Write(b.Bytes()); err != nil {
		return err
	}
	if !met {
		return errNotMet
	}
	return nil
}

// header is what the report says of the run: when, and on what.
type header struct {
	at    time.Time
	cores int
	goVer string
}

// write writes the report to w and reports whether every goal is met.
func write(w *bytes.Buffer, h header, parts []part.Part, reading string) bool {
	fmt.Fprintf(w, "# Benchmarks\n\nWritten by `make bench` on %s, %d cores, %s.\n",
		h.at.Format("2006-01-02 15:04 UTC"), h.cores, h.goVer)
	w.WriteString("Every figure below comes from the command named with it; rerun it to refresh this file.\n\n")
	w.WriteString("## Summary\n\n| figure | value | goal | anchor | goal met |\n|---|---|---|---|---|\n")
	met := true
	for _, p := range parts {
		for _, g := range p.Goals {
			verdict := "met"
			if !g.Met {
				verdict, met = "**not met**", false
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", cell(g.What), cell(g.Figure), cell(g.Goal), cell(g.Anchor), verdict)
		}
	}
	for _, p := range parts {
		w.WriteString("\n")
		w.WriteString(p.Markdown())
	}
	w.WriteString("\n")
	w.WriteString(reading)
	return met
}

// cell keeps a table cell on its row: a | inside it would start a new cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
