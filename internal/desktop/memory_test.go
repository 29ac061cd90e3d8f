package desktop

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int64
		err  bool
	}{
		{name: "empty is off", in: "", want: 0},
		{name: "zero is off", in: "0", want: 0},
		{name: "bare bytes", in: "4096", want: 4096},
		{name: "decimal MB", in: "800MB", want: 800_000_000},
		{name: "decimal GB with fraction", in: "1.5GB", want: 1_500_000_000},
		{name: "decimal KB lower case", in: "64kb", want: 64_000},
		{name: "binary MiB", in: "512MiB", want: 512 << 20},
		{name: "binary GiB with space", in: "2 GiB", want: 2 << 30},
		{name: "bytes suffix", in: "10B", want: 10},
		{name: "no number", in: "MB", err: true},
		{name: "unknown unit", in: "5TB", err: true},
		{name: "negative", in: "-1GB", err: true},
		{name: "too large", in: "1e30GB", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("ParseSize(%q) error = %v, want error %v", tt.in, err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("ParseSize(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestMemoryGuard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		begin := time.Now()
		const mb = 1_000_000
		used := make(chan int64)
		reloads := make(chan time.Duration, 8)
		stuck := make(chan int, 8)
		g := MemoryGuard{Ceiling: 500 * mb, First: 5 * time.Second, Every: time.Minute, Settle: 3 * time.Minute, MaxReloads: 2}
		ctx, cancel := context.WithCancel(context.Background())
		result := make(chan error, 1)
		go func() {
			result <- g.Run(ctx, clock.Real{}, func() (int64, error) { return <-used, nil },
				func(int64) { reloads <- time.Since(begin) },
				func(_ int64, n int) { stuck <- n })
		}()
		// check waits for the guard's next check, answers it with the figure
		// in MB, and returns how many reloads and warnings it caused.
		check := func(wait time.Duration, figure int64) (int, int) {
			t.Helper()
			time.Sleep(wait)
			synctest.Wait()
			select { // the guard is measuring now, not later
			case used <- figure * mb:
			default:
				t.Fatalf("no check %v after the last", wait)
			}
			synctest.Wait() // the guard is waiting again: it decided
			r, s := len(reloads), len(stuck)
			for range r {
				<-reloads
			}
			for range s {
				<-stuck
			}
			return r, s
		}
		steps := []struct {
			name          string
			wait          time.Duration
			mb            int64
			reload, stuck int
		}{
			{"first check at 5 s, below", 5 * time.Second, 400, 0, 0},
			{"at the ceiling is not above", time.Minute, 500, 0, 0},
			{"above: reload", time.Minute, 600, 1, 0},
			{"settling 1 min after", time.Minute, 600, 0, 0},
			{"settling 2 min after", time.Minute, 600, 0, 0},
			{"settled: reload again", time.Minute, 600, 1, 0},
			{"settling", time.Minute, 600, 0, 0},
			{"settling", time.Minute, 600, 0, 0},
			{"two reloads did not help: warn", time.Minute, 600, 0, 1},
			{"gave up: no reload, no new warning", time.Minute, 600, 0, 0},
			{"below again resets", time.Minute, 450, 0, 0},
			{"above again: reload", time.Minute, 700, 1, 0},
		}
		for _, s := range steps {
			r, w := check(s.wait, s.mb)
			if r != s.reload || w != s.stuck {
				t.Fatalf("%s: %d reloads and %d warnings, want %d and %d", s.name, r, w, s.reload, s.stuck)
			}
		}
		cancel()
		if err := <-result; err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
	})
}

func TestMemoryGuardStopsWhenMemoryIsUnreadable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		result := make(chan error, 1)
		go func() {
			g := MemoryGuard{Ceiling: 1, First: time.Second, Every: time.Minute}
			result <- g.Run(context.Background(), clock.Real{}, func() (int64, error) { return 0, ErrMemoryUnavailable },
				func(int64) { t.Error("reload without a figure") }, func(int64, int) {})
		}()
		time.Sleep(time.Second)
		if err := <-result; !errors.Is(err, ErrMemoryUnavailable) {
			t.Fatalf("Run = %v, want ErrMemoryUnavailable", err)
		}
	})
}

func TestGroupMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	proc := func(ppid, pgrp, resident string) map[string]*fstest.MapFile {
		return map[string]*fstest.MapFile{
			"stat":  {Data: []byte(" (Web Content (x)) S " + ppid + " " + pgrp + " 0 0\n")},
			"statm": {Data: []byte("9999 " + resident + " 0 0 0 0 0\n")},
		}
	}
	fsys := fstest.MapFS{}
	add := func(pid, ppid, pgrp, resident string) {
		for name, f := range proc(ppid, pgrp, resident) {
			fsys[pid+"/"+name] = f
		}
	}
	add("1", "0", "1", "1000")     // init: not ours
	add("100", "1", "100", "10")   // the window, its own group
	add("101", "100", "100", "20") // WebKit network process
	add("102", "100", "102", "30") // a child in another group: still ours
	add("103", "102", "103", "40") // its child: ours
	add("104", "1", "100", "5")    // reparented to init, but in our group
	add("200", "1", "200", "700")  // someone else
	fsys["self/stat"] = &fstest.MapFile{Data: []byte("x")}
	fsys["meminfo"] = &fstest.MapFile{Data: []byte("x")}
	got, err := GroupMemory(fsys, 100, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(10+20+30+40+5) * 4096; got != want {
		t.Fatalf("GroupMemory = %d, want %d", got, want)
	}
	if _, err := GroupMemory(fsys, 999, 4096); !errors.Is(err, ErrMemoryUnavailable) {
		t.Fatalf("GroupMemory of a missing process = %v, want ErrMemoryUnavailable", err)
	}
}

func TestWindowFlagsMaxMemory(t *testing.T) {
	base := Flags{Route: "/", Every: 30 * time.Second, CountdownAt: "12:09", CountdownDebug: "on", GPU: "auto"}
	tests := []struct {
		name    string
		in      string
		ceiling int64 // 0: no guard
		err     bool
	}{
		{name: "off by default", in: ""},
		{name: "zero is off", in: "0"},
		{name: "a ceiling", in: "1.5GB", ceiling: 1_500_000_000},
		{name: "not a size", in: "lots", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := base
			f.MaxMemory = tt.in
			w, err := f.Check()
			if (err != nil) != tt.err {
				t.Fatalf("Check() error = %v, want error %v", err, tt.err)
			}
			if tt.err {
				return
			}
			if tt.ceiling == 0 {
				if w.MemoryGuard != nil {
					t.Fatalf("guard %+v, want none", *w.MemoryGuard)
				}
				return
			}
			want := MemoryGuard{Ceiling: tt.ceiling, First: MemoryFirstCheck, Every: MemoryCheckEvery, Settle: MemorySettle, MaxReloads: MemoryMaxReloads}
			if w.MemoryGuard == nil || *w.MemoryGuard != want {
				t.Fatalf("guard %v, want %+v", w.MemoryGuard, want)
			}
		})
	}
}
