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
	"github.com/robohornets/robohornets/internal/server"
)

//go:embed build/appicon.png
var appIcon []byte

// hasDesktop is true in builds with the Wails desktop tags.
const hasDesktop = true

// openWindow runs the Wails window until it is closed or ctx ends.
func openWindow(ctx context.Context, o desktopOptions) error {
	app := NewApp(o.hub, clock.Real{}, o.logger, o.route)
	site := server.New(server.Options{Assets: frontend(), Hub: o.hub, StoreName: "desktop", Version: version, Logger: o.logger})
	return wails.Run(&options.App{
		Title:            "RoboHornets · Team 1209",
		Width:            1280,
		Height:           800,
		MinWidth:         360,
		MinHeight:        480,
		Fullscreen:       o.kiosk,
		Frameless:        o.kiosk,
		BackgroundColour: &options.RGBA{R: 17, G: 17, B: 17, A: 255},
		AssetServer:      &assetserver.Options{Handler: site},
		OnStartup: func(wctx context.Context) {
			app.startup(wctx)
			go func() {
				<-ctx.Done()
				quit(wctx)
			}()
		},
		Bind:  []any{app},
		Linux: &linux.Options{ProgramName: "robohornets", Icon: appIcon},
	})
}
