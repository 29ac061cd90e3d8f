//go:build desktop || bindings

package main

import (
	"context"
	_ "embed"

	"github.com/robohornets/robohornets/internal/cli"
	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/desktop"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/news"
)

//go:embed build/appicon.png
var appIcon []byte

// App is what the page of the desktop window calls through the Wails
// bindings (frontend/wailsjs/go/main/App); internal/desktop does the work.
type App struct{ app *desktop.App }

// Settings returns what the page needs to know of the window at start.
func (a *App) Settings() desktop.PageSettings { return a.app.Settings() }

// News returns the current news list; later changes arrive as "news" events.
func (a *App) News() news.Snapshot { return a.app.News() }

// Event returns the pit display's data; later changes arrive as "event" events.
func (a *App) Event() board.Status { return a.app.Event() }

// Report is the page's heartbeat, with what it shows.
func (a *App) Report(s desktop.PageState) { a.app.Report(s) }

// CSPViolation is called for each Content-Security-Policy violation the page sees.
func (a *App) CSPViolation(v desktop.Violation) { a.app.CSPViolation(v) }

// Interacted is called when a person touches, clicks or types.
func (a *App) Interacted() { a.app.Interacted() }

// windowOpener returns the Wails window of builds with the desktop tags.
func windowOpener() func(context.Context, cli.Window) error {
	return func(ctx context.Context, w cli.Window) error {
		app := desktop.NewApp(w.News, w.Event, clock.Real{}, w.Logger, w.Config)
		return desktop.Open(ctx, app, desktop.Window{Site: w.Site, Bind: &App{app}, Icon: appIcon})
	}
}
