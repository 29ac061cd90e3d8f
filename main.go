// Command robohornets is the website and kiosk app of FRC Team 1209, the
// RoboHornets: a desktop window (the default), the public website (serve),
// and the tool that posts news (news). main.go reads the flags and the
// environment, wires the parts together and owns the process lifetime.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/kiosk"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
	"github.com/robohornets/robohornets/internal/spec"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

//go:embed all:frontend/dist
var dist embed.FS

// errNoDesktop is returned by openWindow in a build without the desktop tags.
var errNoDesktop = errors.New("no desktop window in this build")

// errUsage marks a command-line mistake: the message is printed with a hint
// to use -h, and the exit status is 2.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd, rest := "", args
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, rest = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "":
		err = runDesktop(rest, stderr)
	case "serve":
		err = runServe(rest, stderr)
	case "news":
		err = runNews(rest, os.Stdin, stdout, stderr)
	case "version":
		fmt.Fprintf(stdout, "robohornets %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	case "help":
		fmt.Fprint(stdout, topUsage)
	default:
		err = fmt.Errorf("%w: unknown command %q", errUsage, cmd)
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "robohornets: %v\nRun 'robohornets -h' for help.\n", err)
		return 2
	case errors.Is(err, errNoDesktop):
		fmt.Fprintln(stderr, "robohornets: this build has no desktop window; use `robohornets serve`")
		return 2
	default:
		fmt.Fprintf(stderr, "robohornets: %v\n", err)
		return 1
	}
}

const topUsage = `robohornets: the website and kiosk app of FRC Team 1209, the RoboHornets.

Usage:
  robohornets [flags]          open the desktop window (pit display, shop TV)
  robohornets serve [flags]    serve the public website over HTTP
  robohornets news CMD ...     list, show, add, edit, remove, import or export news
  robohornets version          print the version

Run 'robohornets COMMAND -h' for the flags of a command.
`

// newFlagSet returns a flag set whose -h prints usage and the flags to stderr.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and turns a flag error into errUsage (the flag package
// has already printed it).
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

// storeFlags are the flags every command shares: the news store, and the log level.
type storeFlags struct {
	data     string
	store    string
	project  string
	logLevel slog.Level
}

func (s *storeFlags) register(fs *flag.FlagSet) {
	fs.TextVar(&s.logLevel, "log-level", slog.LevelInfo, "least important log messages to print: debug, info, warn or error")
	fs.StringVar(&s.data, "data", defaultDataDir(), "`DIR` where the app keeps its files (news, cache)")
	fs.StringVar(&s.store, "store", "local", "news store: local (files in DIR/news) or firestore")
	fs.StringVar(&s.project, "project", os.Getenv("GOOGLE_CLOUD_PROJECT"), "Firestore project `ID` (default $GOOGLE_CLOUD_PROJECT)")
}

// open opens the chosen store.
func (s *storeFlags) open(ctx context.Context, logger *slog.Logger) (news.Store, error) {
	switch s.store {
	case "local":
		return news.OpenLocal(filepath.Join(s.data, "news"), logger)
	case "firestore":
		return news.OpenFirestore(ctx, s.project)
	default:
		return nil, fmt.Errorf("%w: --store %q: want local or firestore", errUsage, s.store)
	}
}

// startNews opens the store and runs a hub over it, with its cache in the
// data dir, until the returned stop function is called; stop waits for the
// hub to end and closes the store.
func (s *storeFlags) startNews(logger *slog.Logger) (hub *news.Hub, stop func(), err error) {
	store, err := s.open(context.Background(), logger)
	if err != nil {
		return nil, nil, err
	}
	hub = news.NewHub(news.HubOptions{
		Store:     store,
		CacheFile: filepath.Join(s.data, "cache", "news.json"),
		Logger:    logger,
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hub.Run(ctx)
	}()
	return hub, func() {
		cancel()
		<-done
		store.Close()
	}, nil
}

// defaultDataDir is the per-user data directory, like ~/.local/share/robohornets.
func defaultDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "robohornets")
	}
	if runtime.GOOS == "windows" {
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "robohornets")
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "robohornets")
	}
	return "robohornets-data"
}

// frontend returns the embedded React build.
func frontend() fs.FS {
	sub, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}

const serveUsage = `Usage: robohornets serve [flags]

Serves the public website over HTTP. Put it behind any reverse proxy for TLS.
`

func runServe(args []string, stderr io.Writer) error {
	fs := newFlagSet("serve", serveUsage, stderr)
	var sf storeFlags
	sf.register(fs)
	listen := fs.String("listen", "", "`ADDR` to listen on (default 127.0.0.1:8080, or :$PORT when PORT is set)")
	siteURL := fs.String("site-url", "", "absolute `URL` of the site for feeds and link previews (default: the request's host)")
	if err := parse(fs, args); err != nil {
		return err
	}
	addr := *listen
	if addr == "" {
		addr = "127.0.0.1:8080"
		if port := os.Getenv("PORT"); port != "" {
			addr = ":" + port
		}
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: sf.logLevel}))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hub, stopNews, err := sf.startNews(logger)
	if err != nil {
		return err
	}
	defer stopNews()

	// Streams watch this context: Shutdown does not cancel the requests it
	// waits for, so it is cancelled as shutdown begins.
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	srv := &http.Server{
		Addr: addr,
		Handler: server.New(server.Options{
			Assets:    frontend(),
			Hub:       hub,
			StoreName: sf.store,
			Version:   version,
			Logger:    logger,
			SiteURL:   *siteURL,
		}),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return streams },
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(endStreams)

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("serving", "url", "http://"+ln.Addr().String(), "store", sf.store, "version", version)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	return nil
}

const desktopUsage = `Usage: robohornets [flags]

Opens the desktop window: the site on the pit display, or /whattimeisit on the shop TV.
`

// desktopOptions is what the desktop window needs from the command line.
type desktopOptions struct {
	window windowSettings
	hub    *news.Hub
	logger *slog.Logger
}

func runDesktop(args []string, stderr io.Writer) error {
	fs := newFlagSet("robohornets", topUsage+"\n"+desktopUsage, stderr)
	var sf storeFlags
	sf.register(fs)
	route := fs.String("route", "/", "`PATH` of the page to open, like /whattimeisit")
	kioskMode := fs.Bool("kiosk", false, "fullscreen and frameless, for unattended screens: hides the idle cursor, keeps the screen on, one instance")
	rotate := fs.String("rotate", "", "comma-separated `ROUTES` to cycle through, like \"/,/crescendo,/reefscape,/news\"")
	every := fs.Duration("every", 30*time.Second, "how long each page of --rotate stays")
	watchdog := fs.Duration("watchdog", 30*time.Second, "reload the page when it sends no heartbeat for this long; exit after 3 failed reloads (0 turns it off)")
	dim := fs.String("dim", "", "dim the screen daily in this local time window, like 22:00-06:00")
	countdownAt := fs.String("countdown-at", spec.CountdownTargetTimeOfDay, "daily target of /whattimeisit, `HH:MM[:SS]`")
	countdownDebug := fs.String("countdown-debug", "on", "on: the first countdown target is 10 s after the page loads (the spec's debug mode); off: the daily target")
	tz := fs.String("tz", "", "time `ZONE` of the clock and the countdown, like America/Chicago (default: the system's)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	w, err := windowFlags{route: *route, kiosk: *kioskMode, rotate: *rotate, every: *every, watchdog: *watchdog,
		dim: *dim, countdownAt: *countdownAt, countdownDebug: *countdownDebug}.settings()
	if err != nil {
		return err
	}
	if *tz != "" {
		if _, err := time.LoadLocation(*tz); err != nil {
			return fmt.Errorf("%w: --tz %q: %v", errUsage, *tz, err)
		}
		// The page's clock is WebKit's, which follows TZ like any process;
		// its web process inherits this environment.
		os.Setenv("TZ", *tz)
		time.Local, _ = time.LoadLocation(*tz)
	}
	if !hasDesktop {
		return errNoDesktop
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: sf.logLevel}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hub, stopNews, err := sf.startNews(logger)
	if err != nil {
		return err
	}
	defer stopNews()
	return openWindow(ctx, desktopOptions{window: w, hub: hub, logger: logger})
}

// windowFlags are the desktop flags as given, before they are checked.
type windowFlags struct {
	route, rotate, dim, countdownAt, countdownDebug string
	kiosk                                           bool
	every, watchdog                                 time.Duration
}

// windowSettings are the checked settings of the desktop window.
type windowSettings struct {
	startRoute string
	// countdownQuery is added to /whattimeisit routes, like "at=12:09:00&debug=off".
	countdownQuery string
	kiosk          bool
	rotation       *kiosk.Rotation // nil: no rotation
	watchdog       *kiosk.Watchdog // nil: no watchdog
	dim            kiosk.Schedule
}

// Watchdog and rotation settings of the kiosk issue that are not the spec's.
const (
	watchdogMaxReloads = 3
	rotationPause      = 60 * time.Second
)

func (f windowFlags) settings() (windowSettings, error) {
	var w windowSettings
	if !strings.HasPrefix(f.route, "/") {
		return w, fmt.Errorf("%w: --route %q must start with /", errUsage, f.route)
	}
	w.startRoute, w.kiosk = f.route, f.kiosk
	if f.rotate != "" {
		routes, err := kiosk.ParseRoutes(f.rotate)
		if err != nil {
			return w, fmt.Errorf("%w: --rotate: %v", errUsage, err)
		}
		if f.every <= 0 {
			return w, fmt.Errorf("%w: --every %v must be positive", errUsage, f.every)
		}
		w.rotation = &kiosk.Rotation{Routes: routes, Every: f.every, PauseFor: rotationPause}
		if f.route == "/" {
			w.startRoute = routes[0]
		}
	}
	if f.watchdog < 0 {
		return w, fmt.Errorf("%w: --watchdog %v must not be negative", errUsage, f.watchdog)
	}
	if f.watchdog > 0 {
		w.watchdog = &kiosk.Watchdog{Timeout: f.watchdog, MaxReloads: watchdogMaxReloads}
	}
	dim, err := kiosk.ParseSchedule(f.dim)
	if err != nil {
		return w, fmt.Errorf("%w: --dim: %v", errUsage, err)
	}
	w.dim = dim
	at, err := kiosk.ParseTimeOfDay(f.countdownAt)
	if err != nil {
		return w, fmt.Errorf("%w: --countdown-at: %v", errUsage, err)
	}
	q := url.Values{}
	if at != mustTimeOfDay(spec.CountdownTargetTimeOfDay) {
		q.Set("at", formatTimeOfDay(at))
	}
	switch f.countdownDebug {
	case "on":
	case "off":
		q.Set("debug", "off")
	default:
		return w, fmt.Errorf("%w: --countdown-debug %q: want on or off", errUsage, f.countdownDebug)
	}
	w.countdownQuery = q.Encode()
	return w, nil
}

func mustTimeOfDay(s string) time.Duration {
	d, err := kiosk.ParseTimeOfDay(s)
	if err != nil {
		panic(err) // a constant of package spec
	}
	return d
}

func formatTimeOfDay(d time.Duration) string {
	return fmt.Sprintf("%02d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}

const newsUsage = `Usage: robohornets news [flags] COMMAND [args]

Commands:
  list                                     list the articles, newest first
  show ID                                  print one article as a markdown file with front matter
  add --title T [--date D] [--id ID] FILE  add an article; FILE is markdown, or - for standard input
  edit ID [--title T] [--date D] [FILE]    change an article's title, date or content
  rm ID                                    remove an article
  import DIR                               add or replace every DIR/<id>.md (all are checked first)
  export DIR                               write every article to DIR/<id>.md

Dates are RFC 3339, like 2026-01-10T12:00:00-06:00; the default is now.
`

func runNews(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("news", newsUsage, stderr)
	var sf storeFlags
	sf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: news needs a command (list, show, add, edit, rm, import, export)", errUsage)
	}
	cmd, rest := fs.Arg(0), fs.Args()[1:]
	do, ok := newsCommands[cmd]
	if !ok {
		return fmt.Errorf("%w: unknown news command %q", errUsage, cmd)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: sf.logLevel}))
	var store news.Store
	defer func() {
		if store != nil {
			store.Close()
		}
	}()
	open := func() (news.Store, error) {
		if store == nil {
			s, err := sf.open(ctx, logger)
			if err != nil {
				return nil, err
			}
			store = s
		}
		return store, nil
	}
	nc := newsCommand{open: open, stdin: stdin, stdout: stdout, stderr: stderr, now: clock.Real{}.Now}
	return do(nc, ctx, rest)
}

// newsCommands are the news sub-commands by name.
var newsCommands = map[string]func(newsCommand, context.Context, []string) error{
	"list":   newsCommand.list,
	"show":   newsCommand.show,
	"add":    newsCommand.add,
	"edit":   newsCommand.edit,
	"rm":     newsCommand.remove,
	"import": newsCommand.importDir,
	"export": newsCommand.exportDir,
}

// newsCommand runs the news sub-commands against one store.
type newsCommand struct {
	// open opens the store on first use. The commands check their arguments
	// first: opening a new local store creates and seeds it, and bad input
	// must leave nothing behind.
	open           func() (news.Store, error)
	stdin          io.Reader
	stdout, stderr io.Writer
	now            func() time.Time
}

// plainArgs parses the arguments of a command without flags, so that -h
// prints help instead of being taken for an id or a directory.
func (c newsCommand) plainArgs(name string, args []string) ([]string, error) {
	fs := newFlagSet("news "+name, newsUsage, c.stderr)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	return fs.Args(), nil
}

// oneArg parses the arguments of a command that takes no flags and exactly
// one operand, and returns the operand.
func (c newsCommand) oneArg(name string, args []string, what string) (string, error) {
	args, err := c.plainArgs(name, args)
	if err != nil {
		return "", err
	}
	if len(args) != 1 {
		return "", fmt.Errorf("%w: want exactly one %s, got %d arguments", errUsage, what, len(args))
	}
	return args[0], nil
}

func (c newsCommand) list(ctx context.Context, args []string) error {
	args, err := c.plainArgs("list", args)
	if err != nil {
		return err
	}
	if len(args) != 0 {
		return fmt.Errorf("%w: list takes no arguments", errUsage)
	}
	store, err := c.open()
	if err != nil {
		return err
	}
	articles, err := store.List(ctx)
	if err != nil {
		return err
	}
	for _, a := range articles {
		fmt.Fprintf(c.stdout, "%s  %-40s  %s\n", a.Date.Format("2006-01-02 15:04"), a.ID, a.Title)
	}
	return nil
}

func (c newsCommand) show(ctx context.Context, args []string) error {
	id, err := c.oneArg("show", args, "article id")
	if err != nil {
		return err
	}
	store, err := c.open()
	if err != nil {
		return err
	}
	a, err := store.Get(ctx, id)
	if err != nil {
		return err
	}
	_, err = c.stdout.Write(news.FormatFile(a))
	return err
}

// articleFlags are the fields add and edit may set.
type articleFlags struct {
	title, date, id string
}

func (c newsCommand) parseArticleFlags(name string, args []string, withID bool) (articleFlags, []string, error) {
	fs := newFlagSet("news "+name, newsUsage, c.stderr)
	var af articleFlags
	fs.StringVar(&af.title, "title", "", "the article's `TITLE`")
	fs.StringVar(&af.date, "date", "", "the article's `DATE`, RFC 3339")
	if withID {
		fs.StringVar(&af.id, "id", "", "the article's `ID` (default: made from the title)")
	}
	if err := parse(fs, args); err != nil {
		return af, nil, err
	}
	return af, fs.Args(), nil
}

// readContent reads markdown from a file, or standard input for "-".
func (c newsCommand) readContent(name string) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(c.stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return "", fmt.Errorf("read content: %w", err)
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("read content: %s is not UTF-8 text", name)
	}
	return string(data), nil
}

func parseDate(s string) (time.Time, error) {
	d, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: --date %q is not RFC 3339 (like 2026-01-10T12:00:00-06:00)", errUsage, s)
	}
	return d, nil
}

func (c newsCommand) add(ctx context.Context, args []string) error {
	af, rest, err := c.parseArticleFlags("add", args, true)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: add wants one content file (or -), got %d arguments", errUsage, len(rest))
	}
	file := rest[0]
	if strings.TrimSpace(af.title) == "" {
		return fmt.Errorf("%w: add needs --title", errUsage)
	}
	a := news.Article{ID: af.id, Title: strings.TrimSpace(af.title), Date: c.now()}
	if af.date != "" {
		if a.Date, err = parseDate(af.date); err != nil {
			return err
		}
	}
	if a.Content, err = c.readContent(file); err != nil {
		return err
	}
	store, err := c.open()
	if err != nil {
		return err
	}
	if a.ID == "" {
		if a.ID, err = freeSlug(ctx, store, a.Title); err != nil {
			return err
		}
	} else if _, err := store.Get(ctx, a.ID); err == nil {
		return fmt.Errorf("article %q already exists: use edit", a.ID)
	} else if !errors.Is(err, news.ErrNotFound) {
		return err
	}
	if err := store.Put(ctx, a); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, a.ID)
	return nil
}

func (c newsCommand) edit(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: edit needs an article id", errUsage)
	}
	id := args[0]
	if strings.HasPrefix(id, "-") { // -h, or a flag before the id
		if _, _, err := c.parseArticleFlags("edit", args, false); err != nil {
			return err
		}
		return fmt.Errorf("%w: edit wants the article id first: edit ID [flags] [FILE]", errUsage)
	}
	af, rest, err := c.parseArticleFlags("edit", args[1:], false)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return fmt.Errorf("%w: edit takes at most one content file", errUsage)
	}
	var date time.Time
	if af.date != "" {
		if date, err = parseDate(af.date); err != nil {
			return err
		}
	}
	var content string
	if len(rest) == 1 {
		if content, err = c.readContent(rest[0]); err != nil {
			return err
		}
	}
	store, err := c.open()
	if err != nil {
		return err
	}
	a, err := store.Get(ctx, id)
	if err != nil {
		return err
	}
	if af.title != "" {
		a.Title = strings.TrimSpace(af.title)
	}
	if af.date != "" {
		a.Date = date
	}
	if len(rest) == 1 {
		a.Content = content
	}
	return store.Put(ctx, a)
}

func (c newsCommand) remove(ctx context.Context, args []string) error {
	id, err := c.oneArg("rm", args, "article id")
	if err != nil {
		return err
	}
	store, err := c.open()
	if err != nil {
		return err
	}
	return store.Delete(ctx, id)
}

// importDir reads and checks every article file first and writes only when
// all are good, so a bad file never leaves half an import behind.
func (c newsCommand) importDir(ctx context.Context, args []string) error {
	dir, err := c.oneArg("import", args, "directory")
	if err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("import: no .md files in %s", dir)
	}
	articles := make([]news.Article, 0, len(names))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		a, err := news.ParseFile(strings.TrimSuffix(filepath.Base(name), ".md"), data)
		if err == nil {
			err = a.Validate()
		}
		if err != nil {
			return fmt.Errorf("import: %s: %w (nothing was imported)", name, err)
		}
		articles = append(articles, a)
	}
	store, err := c.open()
	if err != nil {
		return err
	}
	// A store may refuse more ids than Validate does (the local store: a
	// leading dot, a backslash); ask it about every one before any write.
	for i, a := range articles {
		if _, err := store.Get(ctx, a.ID); errors.Is(err, news.ErrInvalidID) {
			return fmt.Errorf("import: %s: %w (nothing was imported)", names[i], err)
		}
	}
	for _, a := range articles {
		if err := store.Put(ctx, a); err != nil {
			return fmt.Errorf("import: %w", err)
		}
	}
	fmt.Fprintf(c.stdout, "imported %d articles\n", len(articles))
	return nil
}

func (c newsCommand) exportDir(ctx context.Context, args []string) error {
	dir, err := c.oneArg("export", args, "directory")
	if err != nil {
		return err
	}
	store, err := c.open()
	if err != nil {
		return err
	}
	articles, err := store.List(ctx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, a := range articles {
		if strings.ContainsAny(a.ID, `\`) || strings.HasPrefix(a.ID, ".") {
			return fmt.Errorf("export: article id %q cannot be a file name", a.ID)
		}
		if err := os.WriteFile(filepath.Join(dir, a.ID+".md"), news.FormatFile(a), 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	fmt.Fprintf(c.stdout, "exported %d articles to %s\n", len(articles), dir)
	return nil
}

// freeSlug makes an id from a title that no article in store has yet.
func freeSlug(ctx context.Context, store news.Store, title string) (string, error) {
	base := news.Slug(title)
	for n := 1; ; n++ {
		id := base
		if n > 1 {
			id = fmt.Sprintf("%s-%d", base, n)
		}
		_, err := store.Get(ctx, id)
		if errors.Is(err, news.ErrNotFound) {
			return id, nil
		}
		if err != nil {
			return "", err
		}
	}
}
