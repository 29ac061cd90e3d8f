// Command robohornets is the website and kiosk app of FRC Team 1209, the
// RoboHornets: a desktop window (the default), the public website (serve),
// and the tool that posts news (news). main only hands the command line,
// the embedded React build and the desktop window to internal/cli.
package main

import (
	"embed"
	"io/fs"
	"os"

	"github.com/robohornets/robohornets/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

//go:embed all:frontend/dist
var dist embed.FS

func main() {
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	os.Exit(cli.Program{
		Version:    version,
		Assets:     assets,
		OpenWindow: windowOpener(),
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
	}.Run(os.Args[1:]))
}
