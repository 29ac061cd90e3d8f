//go:build desktop || bindings

package main

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/news"
)

// App is the Go side of the desktop window: the methods React calls through
// the Wails bindings, and the events Go pushes to it ("news", "tick").
type App struct {
	hub        *news.Hub
	clock      clock.Clock
	logger     *slog.Logger
	startRoute string

	mu   sync.Mutex
	page PageState // the last state the page reported
}

// NewApp returns the bindings for a window that opens on startRoute.
func NewApp(hub *news.Hub, clk clock.Clock, logger *slog.Logger, startRoute string) *App {
	return &App{hub: hub, clock: clk, logger: logger, startRoute: startRoute}
}

// startup is Wails' OnStartup hook: it starts pushing news and clock ticks.
func (a *App) startup(ctx context.Context) {
	go a.forwardNews(ctx)
	go a.forwardTicks(ctx)
}

func (a *App) forwardNews(ctx context.Context) {
	changed, stop := a.hub.Subscribe()
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
			runtime.EventsEmit(ctx, "news", a.hub.Current())
		}
	}
}

func (a *App) forwardTicks(ctx context.Context) {
	for t := range clock.Seconds(ctx, a.clock) {
		runtime.EventsEmit(ctx, "tick", t.UnixMilli())
	}
}

// News returns the current news list; later changes arrive as "news" events.
func (a *App) News() news.Snapshot {
	return a.hub.Current()
}

// StartRoute returns the route the window was opened on (--route).
func (a *App) StartRoute() string {
	return a.startRoute
}

// PageState is what the page reports of itself: where it is and what it shows.
type PageState struct {
	Route    string   `json:"route"`
	Title    string   `json:"title"`
	Headings []string `json:"headings"`
}

// Report is the page's heartbeat: it is called after every navigation and
// periodically. A change of state is logged ("page"), which is how an
// operator, and the desktop tests, see what the unattended window shows.
func (a *App) Report(s PageState) {
	a.mu.Lock()
	changed := !slices.Equal(s.Headings, a.page.Headings) || s.Route != a.page.Route || s.Title != a.page.Title
	a.page = s
	a.mu.Unlock()
	if changed {
		a.logger.Info("page", "route", s.Route, "title", s.Title, "headings", strings.Join(s.Headings, " | "))
	}
}

// quit closes the window.
func quit(ctx context.Context) { runtime.Quit(ctx) }
