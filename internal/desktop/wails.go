//go:build desktop || bindings

package desktop

import (
	"context"
	"net/http"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/robohornets/robohornets/internal/spec"
)

// The smallest window the pages are laid out for: a phone held upright.
const minWidth, minHeight = 360, 480

// Window is what Open needs besides the App.
type Window struct {
	// Site serves the window's page.
	Site http.Handler
	// Bind is the value whose methods the page calls through the bindings.
	Bind any
	// Icon is the window's icon, a PNG.
	Icon []byte
}

// Open runs the Wails window of app until it is closed or ctx ends. It
// returns an error when the watchdog gave up on the page.
func Open(ctx context.Context, app *App, w Window) error {
	cfg := app.cfg
	if cfg.Kiosk {
		release, err := InhibitScreenSaver("robohornets", "kiosk display")
		if err != nil {
			app.logger.Warn("kiosk: the screen saver may blank the screen; turn it off in the system settings", "err", err)
		} else {
			defer release()
		}
	}
	app.logger.Info("window: compositing", "gpu", cfg.Accelerated)
	width, height := 1280, 800
	if cfg.Kiosk {
		// Wails centres the window on the screen before anything else can
		// move it, and a larger window would hang over a smaller screen's
		// edges. The kiosk window starts at the smallest size, which fits
		// any screen, and then covers its screen (App.cover).
		width, height = minWidth, minHeight
	}
	err := wails.Run(&options.App{
		Title:     spec.SiteName,
		Width:     width,
		Height:    height,
		MinWidth:  minWidth,
		MinHeight: minHeight,
		// Not the Fullscreen field of options.App: Wails' Linux window
		// ignores that one. The request only works under a window manager,
		// so the kiosk also places and sizes the window itself (App.cover).
		WindowStartState: map[bool]options.WindowStartState{true: options.Fullscreen, false: options.Normal}[cfg.Kiosk],
		Frameless:        cfg.Kiosk,
		BackgroundColour: &options.RGBA{R: 17, G: 17, B: 17, A: 255},
		AssetServer:      &assetserver.Options{Handler: w.Site},
		OnStartup: func(c context.Context) {
			app.Start(c, wailsRuntime{c})
			go func() {
				<-ctx.Done()
				runtime.Quit(c)
			}()
		},
		// A second start of the kiosk brings this window forward instead.
		SingleInstanceLock: singleInstance(cfg.Kiosk, app.BringToFront),
		Bind:               []any{w.Bind},
		Linux: &linux.Options{ProgramName: "robohornets", Icon: w.Icon,
			WebviewGpuPolicy: map[bool]linux.WebviewGpuPolicy{true: linux.WebviewGpuPolicyAlways, false: linux.WebviewGpuPolicyNever}[cfg.Accelerated]},
	})
	if err != nil {
		return err
	}
	return app.Failure()
}

func singleInstance(on bool, focus func()) *options.SingleInstanceLock {
	if !on {
		return nil
	}
	return &options.SingleInstanceLock{
		UniqueId:               "org.robohornets.kiosk",
		OnSecondInstanceLaunch: func(options.SecondInstanceData) { focus() },
	}
}

// wailsRuntime is the Runtime of a Wails window.
type wailsRuntime struct{ ctx context.Context }

func (r wailsRuntime) Emit(event string, data any) { runtime.EventsEmit(r.ctx, event, data) }
func (r wailsRuntime) Reload()                     { runtime.WindowReloadApp(r.ctx) }
func (r wailsRuntime) Quit()                       { runtime.Quit(r.ctx) }

func (r wailsRuntime) Screens() ([]Screen, error) {
	all, err := runtime.ScreenGetAll(r.ctx)
	if err != nil {
		return nil, err
	}
	screens := make([]Screen, len(all))
	for i, s := range all {
		screens[i] = Screen{Size: Size{Width: s.Size.Width, Height: s.Size.Height}, Current: s.IsCurrent, Primary: s.IsPrimary}
	}
	return screens, nil
}

func (r wailsRuntime) Placement() Placement {
	x, y := runtime.WindowGetPosition(r.ctx)
	w, h := runtime.WindowGetSize(r.ctx)
	return Placement{X: x, Y: y, Width: w, Height: h}
}

// Hold sets minimum = maximum rather than the size: Wails' WindowSetSize
// calls GTK off its thread.
func (r wailsRuntime) Hold(s Size) {
	runtime.WindowSetMaxSize(r.ctx, s.Width, s.Height)
	runtime.WindowSetMinSize(r.ctx, s.Width, s.Height)
	runtime.WindowSetPosition(r.ctx, 0, 0)
}

func (r wailsRuntime) Show() {
	runtime.WindowUnminimise(r.ctx)
	runtime.WindowShow(r.ctx)
}
