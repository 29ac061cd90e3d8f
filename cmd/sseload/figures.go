// The figures of a run: memory per viewer, the delivery percentiles, and
// how they are printed and handed to make bench.

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/robohornets/robohornets/bench/part"
	"io"
	"os"
	"slices"
	"strconv"
	"time"
)

type result struct {
	viewers, writes              int
	rssBefore, rssIdle, rssAfter int64 // bytes; -1 when not measured
	p50, p99, max                time.Duration
}

func (r result) perViewer() float64 {
	if r.rssBefore < 0 {
		return -1
	}
	return float64(max(r.rssIdle, r.rssAfter)-r.rssBefore) / float64(r.viewers)
}

func (r result) met(c config) bool {
	return (r.perViewer() < 0 || r.perViewer() <= c.goalBytes) && r.p99 <= c.goalP99
}

func (r result) appendGoals(c config) error {
	f, err := os.OpenFile(c.goals, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("goals: %w", err)
	}
	enc := json.NewEncoder(f)
	err1 := enc.Encode(part.Goal{
		What:   fmt.Sprintf("memory per live viewer, %d viewers, %s", r.viewers, c.label),
		Figure: fmt.Sprintf("%.1f KB", r.perViewer()/1000), Goal: fmt.Sprintf("≤ %g KB", c.goalBytes/1000),
		Met: r.perViewer() >= 0 && r.perViewer() <= c.goalBytes,
	})
	err2 := enc.Encode(part.Goal{
		What:   fmt.Sprintf("write → every viewer p99, %d viewers, %s", r.viewers, c.label),
		Figure: ms(r.p99), Goal: fmt.Sprintf("≤ %v", c.goalP99), Met: r.p99 <= c.goalP99,
	})
	if err := errors.Join(err1, err2, f.Close()); err != nil {
		return fmt.Errorf("goals: %w", err)
	}
	return nil
}

func (r result) print(w io.Writer, c config) error {
	mem := "not measured (no -pid)"
	if r.rssBefore >= 0 {
		mem = fmt.Sprintf("%.1f KB per viewer (RSS %s before, %s with the viewers idle, %s after the writes)",
			r.perViewer()/1000, mib(r.rssBefore), mib(r.rssIdle), mib(r.rssAfter))
	}
	goal := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	memOK := r.perViewer() < 0 || r.perViewer() <= c.goalBytes
	latOK := r.p99 <= c.goalP99
	if c.markdown {
		_, err := fmt.Fprintf(w, "| %s | %d | %s | %v / %v / %v | ≤ %g KB: %s; p99 ≤ %v: %s |\n",
			c.label, r.viewers, mem, ms(r.p50), ms(r.p99), ms(r.max), c.goalBytes/1000, goal(memOK), c.goalP99, goal(latOK))
		return err
	}
	_, err1 := fmt.Fprintf(w, "viewers:  %d on %s%s (%s store)\n", r.viewers, c.base, c.path, c.store.Kind)
	_, err2 := fmt.Fprintf(w, "memory:   %s; goal ≤ %g KB: %s\n", mem, c.goalBytes/1000, goal(memOK))
	_, err3 := fmt.Fprintf(w, "delivery: p50 %v, p99 %v, max %v from a write until a viewer has it (medians of %d writes); goal p99 ≤ %v: %s\n",
		ms(r.p50), ms(r.p99), ms(r.max), r.writes, c.goalP99, goal(latOK))
	return errors.Join(err1, err2, err3)
}

func percentile(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 0, 64) + " ms"
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
