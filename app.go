//go:build desktop || bindings

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/desktop"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/news"
)

// App is the Go side of the desktop window: the methods React calls through
// the Wails bindings, and the events Go pushes to it: "news" (the news
// list), "event" (the pit display's data), "tick" (each wall-clock second),
// "navigate" (page rotation) and "dim" (night dimming).
type App struct {
	hub    *news.Hub
	events *frcevent.Hub
	clock  clock.Clock
	logger *slog.Logger
	opts   desktop.Window

	violations   *desktop.ViolationLog // the page's policy violations, logged a few per load
	heartbeats   chan time.Time        // page heartbeats, for the watchdog
	interactions chan time.Time        // touches, clicks and keys, for the rotation
	holds        chan bool             // whether our match is queuing, for the rotation

	mu        sync.Mutex
	ctx       context.Context // the Wails context, once started
	page      PageState       // the last state the page reported
	reloading bool            // the watchdog reloaded the page; no heartbeat since
	failed    error           // why the window gave up, if it did
}

// NewApp returns the bindings of a window with the given options.
func NewApp(hub *news.Hub, events *frcevent.Hub, clk clock.Clock, logger *slog.Logger, opts desktop.Window) *App {
	return &App{
		hub: hub, events: events, clock: clk, logger: logger, opts: opts,
		violations:   desktop.NewViolationLog(logger),
		heartbeats:   make(chan time.Time, 1),
		interactions: make(chan time.Time, 1),
		holds:        make(chan bool, 1),
	}
}

// startup is Wails' OnStartup hook: it starts the event sources.
func (a *App) startup(ctx context.Context) {
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()
	go forward(ctx, a.hub.Subscribe, func() { runtime.EventsEmit(ctx, "news", a.hub.Current()) })
	// The pit display's data, and whether the rotation must hold on it.
	go forward(ctx, a.events.Subscribe, func() {
		status := a.events.Current()
		runtime.EventsEmit(ctx, "event", status)
		offer(a.holds, status.QueueHold(a.clock.Now()))
	})
	go a.forwardTicks(ctx)
	if r := a.opts.Rotation; r != nil {
		go r.Run(ctx, a.clock, a.interactions, a.holds, func(route string) {
			runtime.EventsEmit(ctx, "navigate", a.opts.WithDefaults(route))
		})
	}
	if w := a.opts.Watchdog; w != nil {
		go a.watch(ctx, *w)
	}
	if g := a.opts.MemoryGuard; g != nil {
		go a.guardMemory(ctx, *g)
	}
	if a.opts.Kiosk {
		go a.cover(ctx)
	}
}

// cover keeps the kiosk window covering its whole screen, also after the
// screen changes size. The fullscreen request at start (desktop.go) needs a
// window manager to act on it; on a bare X display (xinit behind a TV)
// nobody does, so the window is also placed at the screen's corner and held
// at the screen's size: minimum = maximum, because Wails' WindowSetSize
// calls GTK off its thread. Fitting does not ask for fullscreen again: with
// no window manager that leaves GTK reporting a stale size for seconds. The
// position is taken as relative to the screen: a kiosk has one.
func (a *App) cover(ctx context.Context) {
	c := desktop.Cover{Every: desktop.CoverEvery, MaxWait: desktop.CoverMaxWait}
	c.Run(ctx, a.clock, func() (desktop.Size, desktop.Placement, error) {
		all, err := runtime.ScreenGetAll(ctx)
		if err != nil {
			return desktop.Size{}, desktop.Placement{}, err
		}
		screens := make([]desktop.Screen, len(all))
		for i, s := range all {
			screens[i] = desktop.Screen{Size: desktop.Size{Width: s.Size.Width, Height: s.Size.Height}, Current: s.IsCurrent, Primary: s.IsPrimary}
		}
		screen, ok := desktop.PickScreen(screens)
		if !ok {
			return desktop.Size{}, desktop.Placement{}, errors.New("kiosk: the window system reports no screen")
		}
		x, y := runtime.WindowGetPosition(ctx)
		w, h := runtime.WindowGetSize(ctx)
		return screen, desktop.Placement{X: x, Y: y, Width: w, Height: h}, nil
	}, func(s desktop.Size, from desktop.Placement) {
		a.logger.Info("kiosk: covering the screen", "width", s.Width, "height", s.Height,
			"window", fmt.Sprintf("%dx%d%+d%+d", from.Width, from.Height, from.X, from.Y))
		runtime.WindowSetMaxSize(ctx, s.Width, s.Height)
		runtime.WindowSetMinSize(ctx, s.Width, s.Height)
		runtime.WindowSetPosition(ctx, 0, 0)
	})
}

// forward calls send after every change of a hub until ctx ends.
func forward(ctx context.Context, subscribe func() (<-chan struct{}, func()), send func()) {
	changed, stop := subscribe()
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
			send()
		}
	}
}

// forwardTicks sends each wall-clock second to the page, the dimming state
// whenever it changes, and whether the rotation must hold on the pit display
// (a queue time comes closer with every second).
func (a *App) forwardTicks(ctx context.Context) {
	dimmed := false
	for t := range clock.Seconds(ctx, a.clock) {
		runtime.EventsEmit(ctx, "tick", t.UnixMilli())
		offer(a.holds, a.events.Current().QueueHold(t))
		if d := a.opts.Dim.Active(t); d != dimmed {
			dimmed = d
			a.logger.Info("kiosk: dimming", "on", d)
			runtime.EventsEmit(ctx, "dim", d)
		}
	}
}

// watch reloads the page when its heartbeat stops, and closes the window
// when reloading does not help, so a supervisor can restart the program.
func (a *App) watch(ctx context.Context, w desktop.Watchdog) {
	err := w.Run(ctx, a.clock, a.heartbeats, func() {
		a.logger.Warn("watchdog: the page stopped answering; reloading", "silent_for", w.Timeout)
		a.mu.Lock()
		a.reloading = true
		a.mu.Unlock()
		runtime.WindowReloadApp(ctx)
	})
	if err == nil {
		return
	}
	a.logger.Error("watchdog: giving up", "err", err)
	a.mu.Lock()
	a.failed = err
	a.mu.Unlock()
	runtime.Quit(ctx)
}

// guardMemory reloads the page when the window's processes (this one and
// WebKit's) use more memory than the ceiling. After a reload the page's
// next report is logged again ("page"), so an operator sees it came back.
func (a *App) guardMemory(ctx context.Context, g desktop.MemoryGuard) {
	pid, pageSize := os.Getpid(), os.Getpagesize()
	proc := os.DirFS("/proc")
	mib := func(b int64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }
	err := g.Run(ctx, a.clock, func() (int64, error) { return desktop.GroupMemory(proc, pid, pageSize) },
		func(used int64) {
			a.logger.Warn("kiosk: memory guard: reloading the page", "used_mib", mib(used), "ceiling_mib", mib(g.Ceiling))
			a.mu.Lock()
			a.page = PageState{}
			a.mu.Unlock()
			runtime.WindowReloadApp(ctx)
		},
		func(used int64, reloads int) {
			a.logger.Warn("kiosk: memory guard: still above the ceiling after reloading; not reloading again until it falls below",
				"used_mib", mib(used), "ceiling_mib", mib(g.Ceiling), "reloads", reloads)
		})
	if err != nil {
		a.logger.Warn("kiosk: memory guard unavailable; --max-memory has no effect", "err", err)
	}
}

// bringToFront shows the window, for a second start of the program.
func (a *App) bringToFront() {
	a.logger.Info("kiosk: started again; bringing this window forward")
	a.mu.Lock()
	ctx := a.ctx
	a.mu.Unlock()
	if ctx != nil {
		runtime.WindowUnminimise(ctx)
		runtime.WindowShow(ctx)
	}
}

// failure returns why the window gave up, or nil.
func (a *App) failure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failed
}

// Settings is what the page needs to know of the window at start.
type Settings struct {
	// StartRoute is the route to open (--route), with its defaults.
	StartRoute string `json:"startRoute"`
	// Kiosk is true on an unattended screen (--kiosk).
	Kiosk bool `json:"kiosk"`
	// SiteURL is the public website's address (--site-url), for the pit
	// display's QR code; "" means none.
	SiteURL string `json:"siteUrl"`
}

// Settings returns the window's settings.
func (a *App) Settings() Settings {
	return Settings{StartRoute: a.opts.WithDefaults(a.opts.StartRoute), Kiosk: a.opts.Kiosk, SiteURL: a.opts.SiteURL}
}

// News returns the current news list; later changes arrive as "news" events.
func (a *App) News() news.Snapshot {
	return a.hub.Current()
}

// Event returns the pit display's data; later changes arrive as "event" events.
func (a *App) Event() frcevent.Status {
	return a.events.Current()
}

// PageState is what the page reports of itself: where it is, what it shows,
// and how late the clock ticks reach it.
type PageState struct {
	Route    string   `json:"route"`
	Title    string   `json:"title"`
	Headings []string `json:"headings"`
	// Ticks is how many of the last ticks the lateness figures cover.
	Ticks int `json:"ticks"`
	// TickLagP50Ms and TickLagP99Ms say how long after its wall-clock second
	// a tick reached the page: median and 99th percentile, in milliseconds.
	TickLagP50Ms float64 `json:"tickLagP50Ms"`
	TickLagP99Ms float64 `json:"tickLagP99Ms"`
	// TickSentP99Ms is the 99th percentile of how long after its second Go
	// sent a tick; the rest of the lateness is delivery to the page.
	TickSentP99Ms float64 `json:"tickSentP99Ms"`
}

// Report is the page's heartbeat: it is called after every navigation and
// every few seconds. It feeds the watchdog, and a change of state is logged
// ("page"), which is how an operator, and the desktop tests, see what the
// unattended window shows.
func (a *App) Report(s PageState) {
	offer(a.heartbeats, a.clock.Now())
	a.mu.Lock()
	changed := !slices.Equal(s.Headings, a.page.Headings) || s.Route != a.page.Route || s.Title != a.page.Title
	a.page = s
	recovered := a.reloading
	a.reloading = false
	a.mu.Unlock()
	if recovered {
		a.logger.Info("watchdog: the page is answering again", "route", s.Route)
	}
	if changed {
		a.logger.Info("page", "route", s.Route, "title", s.Title, "headings", strings.Join(s.Headings, " | "))
	}
	a.logger.Debug("heartbeat", "route", s.Route, "ticks", s.Ticks, "tick_lag_p50_ms", s.TickLagP50Ms, "tick_lag_p99_ms", s.TickLagP99Ms, "tick_sent_p99_ms", s.TickSentP99Ms)
}

// CSPViolation is called for each Content-Security-Policy violation the
// page sees. They are logged as warnings ("csp violation"), a few per page
// load, so an operator and the desktop tests see what the policy blocked.
func (a *App) CSPViolation(v desktop.Violation) {
	a.violations.Add(v)
}

// Interacted is called when a person touches, clicks or types; it pauses
// the page rotation.
func (a *App) Interacted() {
	offer(a.interactions, a.clock.Now())
}

// offer sends t, replacing a value the reader has not taken yet: the
// reader only needs the latest one.
func offer[T any](ch chan T, t T) {
	for {
		select {
		case ch <- t:
			return
		default:
		}
		select {
		case <-ch: // drop the stale value and try again
		default:
		}
	}
}

// quit closes the window.
func quit(ctx context.Context) { runtime.Quit(ctx) }
