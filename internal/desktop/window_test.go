package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWindowFlagsCheck(t *testing.T) {
	base := Flags{Route: "/", Every: 30 * time.Second, Watchdog: 30 * time.Second, CountdownAt: "12:09", CountdownDebug: "on", GPU: "auto"}
	with := func(change func(*Flags)) Flags {
		f := base
		change(&f)
		return f
	}
	tests := []struct {
		name    string
		flags   Flags
		wantErr string
		check   func(t *testing.T, w Config)
	}{
		{name: "defaults", flags: base, check: func(t *testing.T, w Config) {
			if w.Rotation != nil || w.Watchdog == nil || w.Watchdog.Timeout != 30*time.Second || w.Watchdog.MaxReloads != 3 {
				t.Errorf("rotation %v, watchdog %+v; want none and 30 s × 3", w.Rotation, w.Watchdog)
			}
			if w.CountdownQuery != "" {
				t.Errorf("countdownQuery = %q, want none for the spec's defaults", w.CountdownQuery)
			}
		}},
		{name: "countdown settings become the page's query", flags: with(func(f *Flags) {
			f.Route, f.CountdownAt, f.CountdownDebug = "/whattimeisit", "15:30", "off"
		}), check: func(t *testing.T, w Config) {
			if w.CountdownQuery != "at=15%3A30%3A00&debug=off" {
				t.Errorf("countdownQuery = %q", w.CountdownQuery)
			}
		}},
		{name: "rotation starts on its first route", flags: with(func(f *Flags) { f.Rotate = "/news, /about" }), check: func(t *testing.T, w Config) {
			if w.StartRoute != "/news" || w.Rotation == nil || len(w.Rotation.Routes) != 2 || w.Rotation.PauseFor != 60*time.Second {
				t.Errorf("start %q, rotation %+v", w.StartRoute, w.Rotation)
			}
		}},
		{name: "watchdog off", flags: with(func(f *Flags) { f.Watchdog = 0 }), check: func(t *testing.T, w Config) {
			if w.Watchdog != nil {
				t.Errorf("watchdog %+v, want none", w.Watchdog)
			}
		}},
		{name: "relative route", flags: with(func(f *Flags) { f.Route = "news" }), wantErr: "must start with /"},
		{name: "bad rotation route", flags: with(func(f *Flags) { f.Rotate = "/,news" }), wantErr: "--rotate"},
		{name: "zero interval", flags: with(func(f *Flags) { f.Rotate, f.Every = "/", 0 }), wantErr: "--every"},
		{name: "negative watchdog", flags: with(func(f *Flags) { f.Watchdog = -time.Second }), wantErr: "--watchdog"},
		{name: "bad dim", flags: with(func(f *Flags) { f.Dim = "late" }), wantErr: "--dim"},
		{name: "bad countdown time", flags: with(func(f *Flags) { f.CountdownAt = "25:00" }), wantErr: "--countdown-at"},
		{name: "gpu on", flags: with(func(f *Flags) { f.GPU = "on" }), check: func(t *testing.T, w Config) {
			if !w.Accelerated {
				t.Error("--gpu on: not accelerated")
			}
		}},
		{name: "gpu off", flags: with(func(f *Flags) { f.GPU = "off" }), check: func(t *testing.T, w Config) {
			if w.Accelerated {
				t.Error("--gpu off: accelerated")
			}
		}},
		{name: "bad gpu", flags: with(func(f *Flags) { f.GPU = "yes" }), wantErr: "--gpu"},
		{name: "bad debug", flags: with(func(f *Flags) { f.CountdownDebug = "maybe" }), wantErr: "--countdown-debug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := tt.flags.Check()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Check() error = %v, want an error about %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, w)
			}
		})
	}
}

func TestHasRenderNode(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "card0"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if hasRenderNode(dir) {
		t.Error("a display card without a render node counts as a GPU")
	}
	if err := os.WriteFile(filepath.Join(dir, "renderD128"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !hasRenderNode(dir) {
		t.Error("renderD128 is not seen as a GPU")
	}
	if hasRenderNode(filepath.Join(dir, "missing")) {
		t.Error("a missing directory counts as a GPU")
	}
}
