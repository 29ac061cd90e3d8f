package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// Memory guard settings of the kiosk (--max-memory).
const (
	// MemoryFirstCheck is how long after start the guard first reads the
	// memory: soon, so a ceiling set too low shows at once.
	MemoryFirstCheck = 5 * time.Second
	// MemoryCheckEvery is how often the guard reads the memory after that.
	MemoryCheckEvery = time.Minute
	// MemorySettle is how long the guard waits after a reload before it may
	// reload again, so WebKit can give memory back.
	MemorySettle = 5 * time.Minute
	// MemoryMaxReloads is how many reloads in a row may leave the memory
	// above the ceiling before the guard warns and stops reloading.
	MemoryMaxReloads = 3
)

// ErrMemoryUnavailable is returned when this system does not let the guard
// read the process group's memory (only Linux does).
var ErrMemoryUnavailable = errors.New("kiosk: reading the process group's memory needs Linux /proc")

// ParseSize reads a memory size like "800MB", "1.5GB" or "512MiB" as bytes.
// KB, MB and GB are decimal (1 MB = 1,000,000 bytes), as disk and memory
// sizes are printed on packaging; KiB, MiB and GiB are binary (1 MiB =
// 1,048,576 bytes). Units are case-insensitive; a bare number is bytes.
// "" and "0" give 0, which means no ceiling.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	units := []struct {
		suffix string
		factor float64
	}{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"b", 1},
	}
	num, factor := t, 1.0
	lower := strings.ToLower(t)
	for _, u := range units {
		if strings.HasSuffix(lower, u.suffix) {
			num, factor = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.factor
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("kiosk: size %q: want a number and KB, MB, GB (decimal) or KiB, MiB, GiB (binary), like 800MB", s)
	}
	b := v * factor
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("kiosk: size %q is too large", s)
	}
	return int64(b), nil
}

// MemoryGuard reloads the page when the window's processes use more memory
// than a ceiling: a last resort against WebKit's own growth on a screen that
// runs for weeks.
type MemoryGuard struct {
	// Ceiling is the most resident memory, in bytes, of the whole process
	// group before a reload; must be positive.
	Ceiling int64
	// First is when the first check happens after Run starts; Every is the
	// time between checks after that. Both must be positive.
	First, Every time.Duration
	// Settle is how long after a reload no other reload happens; 0 means
	// the next check may reload again.
	Settle time.Duration
	// MaxReloads is how many reloads in a row may leave the memory above
	// the ceiling before Run calls stuck and stops reloading until the
	// memory has been below the ceiling once; 0 means no limit.
	MaxReloads int
}

// Run reads the memory with read at g.First and then every g.Every until
// ctx ends. Above the ceiling it calls reload with the figure, unless a
// reload happened less than g.Settle ago. After g.MaxReloads reloads in a
// row that left the memory above the ceiling, it calls stuck once with the
// figure and the count and reloads no more until the memory is below the
// ceiling again. Run returns nil when ctx ends, or read's error: the guard
// cannot work without the figure.
func (g MemoryGuard) Run(ctx context.Context, clk clock.Clock, read func() (int64, error), reload func(used int64), stuck func(used int64, reloads int)) error {
	var lastReload time.Time
	reloads, gaveUp := 0, false
	wait := clk.After(g.First)
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-wait:
			used, err := read()
			if err != nil {
				return err
			}
			switch {
			case used <= g.Ceiling:
				reloads, gaveUp = 0, false
			case gaveUp:
			case !lastReload.IsZero() && now.Sub(lastReload) < g.Settle:
			case g.MaxReloads > 0 && reloads >= g.MaxReloads:
				gaveUp = true
				stuck(used, reloads)
			default:
				reloads++
				lastReload = now
				reload(used)
			}
			// After deciding, so a test that sees the guard wait again
			// knows the decision is made.
			wait = clk.After(g.Every)
		}
	}
}

// GroupMemory returns the resident memory, in bytes, of process pid and
// every process that descends from it or shares its process group: the
// window and WebKit's web and network processes. proc is the /proc file
// system, like os.DirFS("/proc"). On other systems than Linux it returns
// ErrMemoryUnavailable.
func GroupMemory(proc fs.FS, pid, pageSize int) (int64, error) {
	if runtime.GOOS != "linux" {
		return 0, ErrMemoryUnavailable
	}
	return groupMemory(proc, pid, pageSize)
}

type procInfo struct {
	ppid, pgrp int
	resident   int64 // pages
}

func groupMemory(proc fs.FS, pid, pageSize int) (int64, error) {
	entries, err := fs.ReadDir(proc, ".")
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrMemoryUnavailable, err)
	}
	procs := map[int]procInfo{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		info, err := readProc(proc, e.Name())
		if err != nil {
			continue // it ended while we looked
		}
		procs[p] = info
	}
	self, ok := procs[pid]
	if !ok {
		return 0, fmt.Errorf("%w: no process %d", ErrMemoryUnavailable, pid)
	}
	var pages int64
	for p, info := range procs {
		if info.pgrp == self.pgrp || descends(procs, p, pid) {
			pages += info.resident
		}
	}
	return pages * int64(pageSize), nil
}

// descends reports whether p is root or has root among its ancestors.
func descends(procs map[int]procInfo, p, root int) bool {
	for range len(procs) + 1 { // a bound, against a cycle in a racy read
		if p == root {
			return true
		}
		info, ok := procs[p]
		if !ok || p <= 1 {
			return false
		}
		p = info.ppid
	}
	return false
}

// readProc reads the parent and group of /proc/<dir>/stat and the resident
// pages of /proc/<dir>/statm.
func readProc(proc fs.FS, dir string) (procInfo, error) {
	var info procInfo
	stat, err := fs.ReadFile(proc, dir+"/stat")
	if err != nil {
		return info, err
	}
	// The command name, in parentheses, may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return info, fmt.Errorf("kiosk: /proc/%s/stat: no command name", dir)
	}
	f := strings.Fields(string(stat[i+1:])) // state ppid pgrp …
	if len(f) < 3 {
		return info, fmt.Errorf("kiosk: /proc/%s/stat: too short", dir)
	}
	if info.ppid, err = strconv.Atoi(f[1]); err != nil {
		return info, fmt.Errorf("kiosk: /proc/%s/stat: ppid: %w", dir, err)
	}
	if info.pgrp, err = strconv.Atoi(f[2]); err != nil {
		return info, fmt.Errorf("kiosk: /proc/%s/stat: pgrp: %w", dir, err)
	}
	statm, err := fs.ReadFile(proc, dir+"/statm")
	if err != nil {
		return info, err
	}
	m := strings.Fields(string(statm)) // size resident …
	if len(m) < 2 {
		return info, fmt.Errorf("kiosk: /proc/%s/statm: too short", dir)
	}
	if info.resident, err = strconv.ParseInt(m[1], 10, 64); err != nil {
		return info, fmt.Errorf("kiosk: /proc/%s/statm: %w", dir, err)
	}
	return info, nil
}
