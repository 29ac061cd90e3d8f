package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/robohornets/robohornets/internal/desktop"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
	"github.com/robohornets/robohornets/internal/spec"
)

// Window is what the desktop window needs: its settings, the news, the
// event data, and the website that serves its page.
type Window struct {
	Config desktop.Config
	News   *news.Hub
	Event  *frcevent.Hub
	// Site serves the window's page, so the page can also fall back to fetch
	// and server-sent events after a hard reload.
	Site   *server.Server
	Logger *slog.Logger
}

const windowUsage = `Usage: robohornets [flags]

Opens the desktop window: the site on the pit display, or /whattimeisit on the shop TV.
`

func (p Program) runWindow(args []string) error {
	fs := newFlagSet("robohornets", topUsage+"\n"+windowUsage, p.Stderr)
	var c commonFlags
	c.register(fs)
	var e eventFlags
	e.register(fs)
	var f desktop.Flags
	fs.StringVar(&f.Route, "route", "/", "`PATH` of the page to open, like /whattimeisit")
	fs.BoolVar(&f.Kiosk, "kiosk", false, "fullscreen and frameless, for unattended screens: hides the idle cursor, keeps the screen on, one instance")
	fs.StringVar(&f.Rotate, "rotate", "", "comma-separated `ROUTES` to cycle through, like \"/,/crescendo,/reefscape,/news\"")
	fs.DurationVar(&f.Every, "every", 30*time.Second, "how long each page of --rotate stays")
	fs.DurationVar(&f.Watchdog, "watchdog", 30*time.Second, "reload the page when it sends no heartbeat for this long; exit after 3 failed reloads (0 turns it off)")
	fs.StringVar(&f.MaxMemory, "max-memory", "", "reload the page when the window's processes use more than this `SIZE`, like 1.5GB or 800MB (KB/MB/GB decimal, KiB/MiB/GiB binary; checked 5 s after start, then every minute; Linux only; default off)")
	fs.StringVar(&f.GPU, "gpu", "auto", "composite the page with the GPU: on, off, or auto (on when the machine has a GPU render node in /dev/dri; software GL compositing slows the page)")
	fs.StringVar(&f.Dim, "dim", "", "dim the screen daily in this local time window, like 22:00-06:00")
	fs.StringVar(&f.CountdownAt, "countdown-at", spec.CountdownTargetTimeOfDay, "daily target of /whattimeisit, `HH:MM[:SS]`")
	fs.StringVar(&f.CountdownDebug, "countdown-debug", "on", "on: the first countdown target is 10 s after the page loads (the spec's debug mode); off: the daily target")
	fs.StringVar(&f.SiteURL, "site-url", "", "absolute `URL` of the public website, like https://robohornets.org: the pit display's QR code points there (default: no QR code)")
	tz := fs.String("tz", "", "time `ZONE` of the clock and the countdown, like America/Chicago (default: the system's)")
	if _, err := parseArgs(fs, args, 0, "takes only flags; a command comes first: robohornets COMMAND [flags]"); err != nil {
		return err
	}
	if err := c.checkStore(); err != nil {
		return err
	}
	if err := e.check(); err != nil {
		return err
	}
	if err := checkSiteURL(f.SiteURL); err != nil {
		return err
	}
	settings, err := f.Check()
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *tz != "" {
		loc, err := time.LoadLocation(*tz)
		if err != nil {
			return fmt.Errorf("%w: --tz %q: %v", errUsage, *tz, err)
		}
		// The page's clock is WebKit's, which follows TZ like any process;
		// its web process inherits this environment.
		if err := os.Setenv("TZ", *tz); err != nil {
			return fmt.Errorf("--tz %q: %w", *tz, err)
		}
		time.Local = loc
	}
	if p.OpenWindow == nil {
		return errNoDesktop
	}
	logger := c.textLogger(p.Stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal the window closes; a second one ends the
	// process at once, as it would without a handler.
	go func() {
		<-ctx.Done()
		stop()
	}()
	svc, err := start(c, e, logger, server.Options{Assets: p.Assets, StoreName: "desktop", Version: p.Version, Commit: p.Commit, Built: p.Built}, consoleConfig{})
	if err != nil {
		return err
	}
	defer svc.stop()
	settings.Notice = svc.notice
	return p.OpenWindow(ctx, Window{Config: settings, News: svc.news, Event: svc.event, Site: svc.site, Logger: logger})
}
