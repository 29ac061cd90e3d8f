//go:build desktop || bindings

package main

import (
	"context"
	_ "embed"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/kiosk"
	"github.com/robohornets/robohornets/internal/server"
)

//go:embed build/appicon.png
var appIcon []byte

// hasDesktop is true in builds with the Wails desktop tags.
const hasDesktop = true

// openWindow runs the Wails window until it is closed or ctx ends. It
// returns an error when the watchdog gave up on the page.
func openWindow(ctx context.Context, o desktopOptions) error {
	app := NewApp(o.hub, clock.Real{}, o.logger, o.window)
	// The window is served by the same handler as the website, so the page
	// can also fall back to fetch and server-sent events after a hard reload.
	site := server.New(server.Options{Assets: frontend(), Hub: o.hub, StoreName: "desktop", Version: version, Logger: o.logger})
	if o.window.kiosk {
		release, err := kiosk.InhibitScreenSaver("robohornets", "kiosk display")
		if err != nil {
			o.logger.Warn("kiosk: the screen saver may blank the screen; turn it off in the system settings", "err", err)
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
		Fullscreen:       o.window.kiosk,
		Frameless:        o.window.kiosk,
		BackgroundColour: &options.RGBA{R: 17, G: 17, B: 17, A: 255},
		AssetServer:      &assetserver.Options{Handler: site},
		OnStartup: func(c context.Context) {
			app.startup(c)
			go func() {
				<-ctx.Done()
				quit(c)
			}()
		},
		// A second start of the kiosk brings this window forward instead.
		SingleInstanceLock: singleInstance(o.window.kiosk, app.bringToFront),
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
