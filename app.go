package main

import (
	"context"
	"log/slog"

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

// Ready is called by the page once a route has rendered. The log line is what
// the desktop smoke test waits for.
func (a *App) Ready(route string) {
	a.logger.Info("frontend ready", "route", route)
}

// quit closes the window.
func quit(ctx context.Context) { runtime.Quit(ctx) }
