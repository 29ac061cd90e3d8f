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

// version, commit and date are set at build time (make):
// -ldflags "-X main.version=1.2.3 -X main.commit=<git rev-parse HEAD>
// -X main.date=<UTC, RFC 3339>". A plain go build reports "dev", and
// "unknown" for the other two.
var (
	version = "dev"
	commit  = ""
	date    = ""
)

//go:embed all:frontend/dist
var dist embed.FS

func main() {
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	os.Exit(cli.Program{
		Version:    version,
		Commit:     commit,
		Built:      date,
		Assets:     assets,
		OpenWindow: windowOpener(),
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
	}.Run(os.Args[1:]))
}
