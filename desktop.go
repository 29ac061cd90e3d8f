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
	"github.com/robohornets/robohornets/internal/kiosk"
)

//go:embed build/appicon.png
var appIcon []byte

// windowOpener returns the Wails window of builds with the desktop tags.
func windowOpener() func(context.Context, cli.Window) error { return openWindow }

// openWindow runs the Wails window until it is closed or ctx ends. It
// returns an error when the watchdog gave up on the page.
func openWindow(ctx context.Context, w cli.Window) error {
	app := NewApp(w.News, w.Event, clock.Real{}, w.Logger, w.Settings)
	if w.Settings.Kiosk {
		release, err := kiosk.InhibitScreenSaver("robohornets", "kiosk display")
		if err != nil {
			w.Logger.Warn("kiosk: the screen saver may blank the screen; turn it off in the system settings", "err", err)
		} else {
			defer release()
		}
	}
	err := wails.Run(&options.App{
		Title:            "RoboHornets · Team 1209",
		Width:            1280,
		Height:           800,
		MinWidth:         360,
		MinHeight:        480,
		Fullscreen:       w.Settings.Kiosk,
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
		Linux:              &linux.Options{ProgramName: "robohornets", Icon: appIcon},
	})
	if err != nil {
		return err
	}
	return app.failure()
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
