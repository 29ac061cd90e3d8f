package desktop

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

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/news"
)

// The events the window sends its page.
const (
	// EventNews carries the news list (news.Snapshot) after each change.
	EventNews = "news"
	// EventStatus carries the pit display's data (board.Status) after each change.
	EventStatus = "event"
	// EventTick carries each wall-clock second, in epoch milliseconds.
	EventTick = "tick"
	// EventNavigate carries the next route of the page rotation.
	EventNavigate = "navigate"
	// EventDim carries whether the screen is dimmed (night schedule).
	EventDim = "dim"
	// EventNotice carries the pit notice (notice.Notice) after each change,
	// its expiry too; the page reads the first from GET /api/notice.
	EventNotice = "notice"
)

// Runtime is what the window asks of the window system. The program
// implements it with Wails' runtime; the tests with a fake.
type Runtime interface {
	// Emit sends the page an event with its data.
	Emit(event string, data any)
	// Reload loads the page afresh.
	Reload()
	// Quit closes the window.
	Quit()
	// Screens lists the screens of the window system.
	Screens() ([]Screen, error)
	// Placement is where the window is and how large.
	Placement() Placement
	// Hold places the window at the screen's corner and holds it at size s.
	Hold(s Size)
	// Show brings the window forward.
	Show()
}

// PageSettings is what the page needs to know of the window at start.
type PageSettings struct {
	// StartRoute is the route to open (--route), with its defaults.
	StartRoute string `json:"startRoute"`
	// Kiosk is true on an unattended screen (--kiosk).
	Kiosk bool `json:"kiosk"`
	// SiteURL is the public website's address (--site-url), for the pit
	// display's QR code; "" means none.
	SiteURL string `json:"siteUrl"`
}

// PageState is what the page reports of itself: where it is, what it shows,
// and how late the clock ticks reach it.
type PageState struct {
	// Route is the page's path.
	Route string `json:"route"`
	// Title is the document's title.
	Title string `json:"title"`
	// Headings are the texts of the page's main headings.
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

// App drives the desktop window: it forwards the news, the event data and
// the clock to the page, rotates pages, reloads a page that stopped
// answering or grew too large, and keeps a kiosk window covering its screen.
type App struct {
	news   *news.Hub
	events *frcevent.Hub
	clock  clock.Clock
	logger *slog.Logger
	cfg    Config

	violations   *ViolationLog  // the page's policy violations, logged a few per load
	heartbeats   chan time.Time // page heartbeats, for the watchdog
	interactions chan time.Time // touches, clicks and keys, for the rotation
	holds        chan bool      // whether our match is queuing, for the rotation

	mu        sync.Mutex
	rt        Runtime   // the window system, once started
	page      PageState // the last state the page reported
	reloading bool      // the watchdog reloaded the page; no heartbeat since
	failed    error     // why the window gave up, if it did
}

// NewApp returns the App of a window with the given configuration.
func NewApp(hub *news.Hub, events *frcevent.Hub, clk clock.Clock, logger *slog.Logger, cfg Config) *App {
	return &App{
		news: hub, events: events, clock: clk, logger: logger, cfg: cfg,
		violations:   NewViolationLog(logger),
		heartbeats:   make(chan time.Time, 1),
		interactions: make(chan time.Time, 1),
		holds:        make(chan bool, 1),
	}
}

// Start starts forwarding to the page of rt and the kiosk's duties; they
// end with ctx.
func (a *App) Start(ctx context.Context, rt Runtime) {
	a.mu.Lock()
	a.rt = rt
	a.mu.Unlock()
	go forward(ctx, a.news.Subscribe, func() { rt.Emit(EventNews, a.news.Current()) })
	// The pit display's data, and whether the rotation must hold on it.
	go forward(ctx, a.events.Subscribe, func() {
		status := a.events.Current()
		rt.Emit(EventStatus, status)
		offer(a.holds, status.QueueHold(a.clock.Now()))
	})
	if n := a.cfg.Notice; n != nil {
		go forward(ctx, n.Subscribe, func() { rt.Emit(EventNotice, n.Current()) })
	}
	go a.forwardTicks(ctx, rt)
	if r := a.cfg.Rotation; r != nil {
		go r.Run(ctx, a.clock, a.interactions, a.holds, func(route string) {
			rt.Emit(EventNavigate, a.cfg.WithDefaults(route))
		})
	}
	if w := a.cfg.Watchdog; w != nil {
		go a.watch(ctx, rt, *w)
	}
	if g := a.cfg.MemoryGuard; g != nil {
		go a.guardMemory(ctx, rt, *g)
	}
	if a.cfg.Kiosk {
		go a.cover(ctx, rt)
	}
}

// cover keeps the kiosk window covering its whole screen, also after the
// screen changes size. The fullscreen request at start needs a window
// manager to act on it; on a bare X display (xinit behind a TV) nobody
// does, so the window is also placed at the screen's corner and held at the
// screen's size. Fitting does not ask for fullscreen again: with no window
// manager that leaves GTK reporting a stale size for seconds. The position
// is taken as relative to the screen: a kiosk has one.
func (a *App) cover(ctx context.Context, rt Runtime) {
	c := Cover{Every: CoverEvery, MaxWait: CoverMaxWait}
	c.Run(ctx, a.clock, func() (Size, Placement, error) {
		screens, err := rt.Screens()
		if err != nil {
			return Size{}, Placement{}, err
		}
		screen, ok := PickScreen(screens)
		if !ok {
			return Size{}, Placement{}, errors.New("kiosk: the window system reports no screen")
		}
		return screen, rt.Placement(), nil
	}, func(s Size, from Placement) {
		a.logger.Info("kiosk: covering the screen", "width", s.Width, "height", s.Height,
			"window", fmt.Sprintf("%dx%d%+d%+d", from.Width, from.Height, from.X, from.Y))
		rt.Hold(s)
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
func (a *App) forwardTicks(ctx context.Context, rt Runtime) {
	dimmed := false
	for t := range clock.Seconds(ctx, a.clock) {
		rt.Emit(EventTick, t.UnixMilli())
		offer(a.holds, a.events.Current().QueueHold(t))
		if d := a.cfg.Dim.Active(t); d != dimmed {
			dimmed = d
			a.logger.Info("kiosk: dimming", "on", d)
			rt.Emit(EventDim, d)
		}
	}
}

// watch reloads the page when its heartbeat stops, and closes the window
// when reloading does not help, so a supervisor can restart the program.
func (a *App) watch(ctx context.Context, rt Runtime, w Watchdog) {
	err := w.Run(ctx, a.clock, a.heartbeats, func() {
		a.logger.Warn("watchdog: the page stopped answering; reloading", "silent_for", w.Timeout)
		a.mu.Lock()
		a.reloading = true
		a.mu.Unlock()
		rt.Reload()
	})
	if err == nil {
		return
	}
	a.logger.Error("watchdog: giving up", "err", err)
	a.mu.Lock()
	a.failed = err
	a.mu.Unlock()
	rt.Quit()
}

// guardMemory reloads the page when the window's processes (this one and
// WebKit's) use more memory than the ceiling. After a reload the page's
// next report is logged again ("page"), so an operator sees it came back.
func (a *App) guardMemory(ctx context.Context, rt Runtime, g MemoryGuard) {
	pid, pageSize := os.Getpid(), os.Getpagesize()
	proc := os.DirFS("/proc")
	mib := func(b int64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }
	err := g.Run(ctx, a.clock, func() (int64, error) { return GroupMemory(proc, pid, pageSize) },
		func(used int64) {
			a.logger.Warn("kiosk: memory guard: reloading the page", "used_mib", mib(used), "ceiling_mib", mib(g.Ceiling))
			a.mu.Lock()
			a.page = PageState{}
			a.mu.Unlock()
			rt.Reload()
		},
		func(used int64, reloads int) {
			a.logger.Warn("kiosk: memory guard: still above the ceiling after reloading; not reloading again until it falls below",
				"used_mib", mib(used), "ceiling_mib", mib(g.Ceiling), "reloads", reloads)
		})
	if err != nil {
		a.logger.Warn("kiosk: memory guard unavailable; --max-memory has no effect", "err", err)
	}
}

// BringToFront shows the window, for a second start of the program.
func (a *App) BringToFront() {
	a.logger.Info("kiosk: started again; bringing this window forward")
	a.mu.Lock()
	rt := a.rt
	a.mu.Unlock()
	if rt != nil {
		rt.Show()
	}
}

// Failure returns why the window gave up, or nil.
func (a *App) Failure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failed
}

// Settings returns what the page needs to know of the window.
func (a *App) Settings() PageSettings {
	return PageSettings{StartRoute: a.cfg.WithDefaults(a.cfg.StartRoute), Kiosk: a.cfg.Kiosk, SiteURL: a.cfg.SiteURL}
}

// News returns the current news list; later changes arrive as EventNews.
func (a *App) News() news.Snapshot { return a.news.Current() }

// Event returns the pit display's data; later changes arrive as EventStatus.
func (a *App) Event() board.Status { return a.events.Current() }

// Report takes the page's heartbeat: it is called after every navigation
// and every few seconds. It feeds the watchdog, and a change of state is
// logged ("page"), which is how an operator, and the desktop tests, see
// what the unattended window shows.
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

// CSPViolation takes a Content-Security-Policy violation the page saw.
// They are logged as warnings ("csp violation"), a few per page load, so an
// operator and the desktop tests see what the policy blocked.
func (a *App) CSPViolation(v Violation) { a.violations.Add(v) }

// Interacted is called when a person touches, clicks or types; it pauses
// the page rotation.
func (a *App) Interacted() { offer(a.interactions, a.clock.Now()) }

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
