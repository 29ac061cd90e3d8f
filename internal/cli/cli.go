// Package cli is the command line of robohornets: one file per command
// (window, serve, news) with its flags and wiring. It is the only package
// that reads flags and the environment, and it owns the process lifetime:
// signals, start-up and shutdown.
package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/robohornets/robohornets/internal/datadir"
	"github.com/robohornets/robohornets/internal/news"
)

// Program is one run of the command line with what it needs from main.
type Program struct {
	// Version is the build's version, like a git description.
	Version string
	// Commit is the source's git commit and Built the build's date (UTC,
	// RFC 3339); "" when the build did not say (shown as "unknown").
	Commit, Built string
	// Assets is the built frontend with index.html at its root.
	Assets fs.FS
	// OpenWindow opens the desktop window and returns when it closes; nil
	// in a build without one (the static serve-only binary).
	OpenWindow func(context.Context, Window) error
	// Stdin, Stdout and Stderr are the process's standard streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// errNoDesktop is returned by the window command in a build without one.
var errNoDesktop = errors.New("no desktop window in this build")

// errUsage marks a command-line mistake: the message is printed with a hint
// to use -h, and the exit status is 2.
var errUsage = errors.New("usage")

// Run executes one command line and returns the exit status: 0 done, 1
// failed, 2 a bad command line or no desktop window in this build.
func (p Program) Run(args []string) int {
	cmd, rest := "", args
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, rest = args[0], args[1:]
	}
	var err error
	help := "robohornets -h" // where a usage error sends the reader
	switch cmd {
	case "":
		err = p.runWindow(rest)
	case "serve":
		help, err = "robohornets serve -h", p.runServe(rest)
	case "news":
		help, err = "robohornets news -h", p.runNews(rest)
	case "admin":
		help, err = "robohornets admin -h", p.runAdmin(rest)
	case "push":
		help, err = "robohornets push -h", p.runPush(rest)
	case "healthcheck":
		help, err = "robohornets healthcheck -h", p.runHealthcheck(rest, healthcheckTimeout)
	case "version":
		if err = parse(newFlagSet("version", versionUsage, p.Stderr), rest); err == nil {
			_, err = fmt.Fprintln(p.Stdout, p.versionLine())
		}
	case "help":
		if err = parse(newFlagSet("help", topUsage, p.Stderr), rest); err == nil {
			_, err = fmt.Fprint(p.Stdout, topUsage)
		}
	default:
		err = fmt.Errorf("%w: unknown command %q", errUsage, cmd)
	}
	// The messages below go to stderr, the one place to report a failure;
	// when it fails too, the exit status still tells.
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		// One line, for every command: a bad command line is the caller's
		// mistake, whatever the command. The healthcheck's too: a container
		// runtime takes any status but 0 for unhealthy (Docker reserves 2
		// but counts it as a failure), so a HEALTHCHECK with a mistake in
		// it fails loudly rather than passing.
		_, _ = fmt.Fprintf(p.Stderr, "robohornets: %v; run '%s' for help\n", err, help)
		return 2
	case errors.Is(err, errNoDesktop):
		_, _ = fmt.Fprintln(p.Stderr, "robohornets: this build has no desktop window; use `robohornets serve`")
		return 2
	default:
		_, _ = fmt.Fprintf(p.Stderr, "robohornets: %v\n", err)
		return 1
	}
}

const topUsage = `robohornets: the website and kiosk app of FRC Team 1209, the RoboHornets.

Usage:
  robohornets [flags]          open the desktop window (pit display, shop TV)
  robohornets serve [flags]    serve the public website over HTTP
  robohornets news CMD ...     list, show, add, edit, remove, import or export news
  robohornets admin CMD ...    invite, list or revoke members, list or cancel invitations
                               of the team console, verify its audit log
  robohornets push rotate-keys replace the key that signs the notifications to followers
  robohornets healthcheck [URL]  exit 0 when serve is ready (URL answers 200), else 1
                               (default URL http://127.0.0.1:$PORT/readyz, PORT 8080)
  robohornets version          print the version, commit and build date

Run 'robohornets COMMAND -h' for the flags of a command. Flags may come
before or after a command's arguments; a word after "--" is an argument
even if it starts with a dash. A word or flag a command does not take
stops it with exit status 2.
`

const versionUsage = `Usage: robohornets version

Prints the version, the commit and the build date.
`

// versionLine is what the version command prints, like "robohornets 1.2.3
// (commit abc123, built 2026-11-25T12:00:00Z, go1.26.8, linux/amd64)".
func (p Program) versionLine() string {
	unknown := func(s string) string { return cmp.Or(s, "unknown") }
	return fmt.Sprintf("robohornets %s (commit %s, built %s, %s, %s/%s)",
		unknown(p.Version), unknown(p.Commit), unknown(p.Built), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// newFlagSet returns the flag set of the command name, as it is typed
// ("news add"), whose -h prints usage and the flags to stderr. It prints
// nothing else: Run reports a mistake, on one line.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		// Help on stderr, as the flag package prints it: nowhere else to
		// report its failing.
		_, _ = fmt.Fprint(stderr, usage)
		_, _ = fmt.Fprintln(stderr, "\nFlags:")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseFlags parses the flags at the start of args, up to the first word
// that is not one (the flag package's way, for the flags of news and admin
// before their sub-command), and turns a flag error into errUsage. The
// help is printed for -h only, not after an error, which Run reports.
func parseFlags(fs *flag.FlagSet, args []string) error {
	help := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = help
	switch {
	case errors.Is(err, flag.ErrHelp):
		help()
		return err
	case err != nil:
		return fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
	}
	return nil
}

// parseArgs parses args as a person types them, flags before, between or
// after the arguments (news add post.md --title T), and returns the
// arguments; a word after "--" is an argument even if it starts with a
// dash. A word past the max a command takes is a usage error that names
// it, before any flag after it is read: a stray word never lets the flags
// after it be dropped. takes says what the command takes, like "takes one
// article id"; "" says "takes only flags" or "takes no arguments".
func parseArgs(fs *flag.FlagSet, args []string, max int, takes string) ([]string, error) {
	var operands []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			operands = append(operands, rest...) // the flag package ate the "--"
			rest = nil
		} else {
			operands = append(operands, rest[0])
			rest = rest[1:]
		}
		if len(operands) > max {
			return nil, unexpected(fs, operands[max], takes)
		}
		if len(rest) == 0 {
			return operands, nil
		}
		args = rest
	}
}

// unexpected is the usage error of a word that the command of fs does not
// take.
func unexpected(fs *flag.FlagSet, word, takes string) error {
	if takes == "" {
		takes = "takes no arguments"
		fs.VisitAll(func(*flag.Flag) { takes = "takes only flags" })
	}
	return fmt.Errorf("%w: unexpected argument %q: %s %s", errUsage, word, fs.Name(), takes)
}

// parse parses the args of a command that takes only flags, in any order,
// and refuses any other word.
func parse(fs *flag.FlagSet, args []string) error {
	_, err := parseArgs(fs, args, 0, "")
	return err
}

// commonFlags are the flags every command shares: where the news is, and
// the log level.
type commonFlags struct {
	news     news.Config
	logLevel slog.Level
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.TextVar(&c.logLevel, "log-level", slog.LevelInfo, "least important log messages to print: debug, info, warn or error")
	fs.StringVar(&c.news.Dir, "data", string(defaultDataDir()), "`DIR` where the app keeps its files (news, cache)")
	fs.StringVar(&c.news.Kind, "store", news.StoreLocal, "news store: local (files in DIR/news) or firestore")
	fs.StringVar(&c.news.Project, "project", os.Getenv("GOOGLE_CLOUD_PROJECT"), "Firestore project `ID` (default $GOOGLE_CLOUD_PROJECT)")
}

// subcommand parses the common flags of a command made of sub-commands
// (news, admin) and returns them with the sub-command named next and its
// arguments; names lists the sub-commands for the error of a missing one.
func subcommand[C any](p Program, args []string, name, usage, names string, commands map[string]C) (commonFlags, C, []string, error) {
	var c commonFlags
	var do C
	fs := newFlagSet(name, usage, p.Stderr)
	c.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return c, do, nil, err
	}
	if fs.NArg() == 0 {
		return c, do, nil, fmt.Errorf("%w: %s needs a command (%s)", errUsage, name, names)
	}
	do, ok := commands[fs.Arg(0)]
	if !ok {
		return c, do, nil, fmt.Errorf("%w: unknown %s command %q", errUsage, name, fs.Arg(0))
	}
	if err := c.checkStore(); err != nil {
		return c, do, nil, err
	}
	return c, do, fs.Args()[1:], nil
}

// runOnStore runs a sub-command (of news, admin) on a context that SIGINT
// and SIGTERM end, with open, which opens its store with openStore on first
// use, once the sub-command has checked its arguments. The store is closed
// when the sub-command returns.
func runOnStore[S io.Closer](openStore func(context.Context) (S, error), run func(ctx context.Context, open func() (S, error)) error) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var store S
	opened := false
	defer func() {
		if opened {
			_ = store.Close() // the sub-command's writes have succeeded or failed by now
		}
	}()
	return run(ctx, func() (S, error) {
		if !opened {
			s, err := openStore(ctx)
			if err != nil {
				return store, err
			}
			store, opened = s, true
		}
		return store, nil
	})
}

// siteURLFlag registers --site-url, the public address of the website.
func siteURLFlag(fs *flag.FlagSet, usage string) *string {
	return fs.String("site-url", "", "absolute `URL` of the public website, like https://robohornets.org: "+usage)
}

// checkSiteURL accepts "" or an absolute http(s) URL.
func checkSiteURL(u string) error {
	if u == "" {
		return nil
	}
	parsed, err := url.Parse(u)
	if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
		return fmt.Errorf("%w: --site-url %q: want an absolute http or https URL", errUsage, u)
	}
	return nil
}

// checkStore rejects an unknown --store before anything is opened.
func (c *commonFlags) checkStore() error {
	if news.CheckKind(c.news.Kind) != nil {
		return fmt.Errorf("%w: --store %q: want %s or %s", errUsage, c.news.Kind, news.StoreLocal, news.StoreFirestore)
	}
	return nil
}

// textLogger logs as text to stderr, for a person at a terminal or a journal.
func (c *commonFlags) textLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.logLevel}))
}

// defaultDataDir is the per-user data directory (datadir.Default).
func defaultDataDir() datadir.Dir {
	home, _ := os.UserHomeDir() // none: the data stays in the working directory
	return datadir.Default(os.Getenv, home)
}
