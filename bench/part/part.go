// Package part is the file each part of make bench writes: one JSON document
// per part, named <name>.json, in the directory $ROBOHORNETS_BENCH_OUT. The
// report program (bench/report) reads them and writes docs/BENCHMARKS.md;
// the JavaScript parts write the same shape (bench/part.mjs).
package part

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OutEnv names the directory the parts write to; unset, a part writes no
// file and only prints its section.
const OutEnv = "ROBOHORNETS_BENCH_OUT"

// Goal is one row of the report's summary table.
type Goal struct {
	What   string `json:"what"`   // the figure, e.g. "10,000 forecast runs"
	Figure string `json:"figure"` // its measured value, e.g. "0.41 s"
	Goal   string `json:"goal"`   // what it must be, e.g. "< 1 s"
	Anchor string `json:"anchor"` // what it is measured against, or ""
	Met    bool   `json:"met"`
}

// Part is one section of the report.
type Part struct {
	Section string `json:"section"` // the heading of the section
	Command string `json:"command"` // the command that reproduces it
	Goals   []Goal `json:"goals"`   // may be empty
	Body    string `json:"body"`    // markdown: the figures and what limits them
}

// Met reports whether every goal of p is met.
func (p Part) Met() bool {
	for _, g := range p.Goals {
		if !g.Met {
			return false
		}
	}
	return true
}

// Markdown is p as a section of docs/BENCHMARKS.md, the same text a part
// prints when it runs on its own.
func (p Part) Markdown() string {
	return fmt.Sprintf("## %s\n\nCommand: `%s`\n\n%s\n", p.Section, p.Command, strings.TrimRight(p.Body, "\n"))
}

// Write saves p as name.json in $ROBOHORNETS_BENCH_OUT; with the variable
// unset it does nothing.
func Write(name string, p Part) error {
	dir := os.Getenv(OutEnv)
	if dir == "" {
		return nil
	}
	if p.Goals == nil {
		p.Goals = []Goal{}
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("part %s: %w", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("part %s: %w", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("part %s: %w", name, err)
	}
	return nil
}

// Read loads the part called name from dir.
func Read(dir, name string) (Part, error) {
	var p Part
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		return p, fmt.Errorf("part %s: %w (did its benchmark run and finish?)", name, err)
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("part %s: %w", name, err)
	}
	if p.Section == "" {
		return p, fmt.Errorf("part %s: no section", name)
	}
	return p, nil
}
