//go:build desktop || bindings

package main

import (
	"context"
	_ "embed"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"github.com/robohornets/robohornets/internal/cli"
	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/desktop"
)

//go:embed build/appicon.png
var appIcon []byte

// The smallest window the pages are laid out for: a phone held upright.
const minWidth, minHeight = 360, 480

// windowOpener returns the Wails window of builds with the desktop tags.
func windowOpener() func(context.Context, cli.Window) error { return openWindow }

// openWindow runs the Wails window until it is closed or ctx ends. It
// returns an error when the watchdog gave up on the page.
func openWindow(ctx context.Context, w cli.Window) error {
	app := NewApp(w.News, w.Event, clock.Real{}, w.Logger, w.Settings)
	if w.Settings.Kiosk {
		release, err := desktop.InhibitScreenSaver("robohornets", "kiosk display")
		if err != nil {
			w.Logger.Warn("kiosk: the screen saver may blank the screen; turn it off in the system settings", "err", err)
		} else {
			defer release()
		}
	}
	w.Logger.Info("window: compositing", "gpu", w.Settings.Accelerated)
	width, height := 1280, 800
	if w.Settings.Kiosk {
		// Wails centres the window on the screen before anything else can
		// move it: a 1280×800 window sat 40 px above a 1280×720 screen and
		// 100 px left of a portrait 1080×1920 one. The kiosk window starts
		// at the smallest size, which fits any screen, and then covers its
		// screen (App.cover).
		width, height = minWidth, minHeight
	}
	err := wails.Run(&options.App{
		Title:            "RoboHornets · Team 1209",
		Width:            width,
		Height:           height,
		MinWidth:         minWidth,
		MinHeight:        minHeight,
		WindowStartState: startState(w.Settings.Kiosk),
		Frameless:        w.Settings.Kiosk,
		BackgroundColour: &options.RGBA{R: 17, G: 17, B: 17, A: 255},
		AssetServer:      &assetserver.Options{Handler: w.Site},
		OnStartup: func(c context.Context) {
			app.startup(c)
			go func() {
				<-ctx.Done()
				quit(c)
			}()
		},
		// A second start of the kiosk brings this window forward instead.
		SingleInstanceLock: singleInstance(w.Settings.Kiosk, app.bringToFront),
		Bind:               []any{app},
		Linux:              &linux.Options{ProgramName: "robohornets", Icon: appIcon, WebviewGpuPolicy: gpuPolicy(w.Settings.Accelerated)},
	})
	if err != nil {
		return err
	}
	return app.failure()
}

// startState asks for a fullscreen kiosk window. It is not the Fullscreen
// field of options.App: Wails' Linux window ignores that one. The request
// only works under a window manager, so the kiosk also places and sizes the
// window itself (App.cover), which overrides the sizes given to wails.Run.
func startState(kiosk bool) options.WindowStartState {
	if kiosk {
		return options.Fullscreen
	}
	return options.Normal
}

// gpuPolicy is WebKit's hardware acceleration policy for the window.
func gpuPolicy(accelerated bool) linux.WebviewGpuPolicy {
	if accelerated {
		return linux.WebviewGpuPolicyAlways
	}
	return linux.WebviewGpuPolicyNever
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
