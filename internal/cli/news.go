package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/news"
)

const newsUsage = `Usage: robohornets news [flags] COMMAND [args]

Commands:
  list                                     list the articles, newest first
  show ID                                  print one article as a markdown file with front matter
  add --title T [--date D] [--id ID] FILE  add an article; FILE is markdown, or - for standard input
  edit ID [--title T] [--date D] [FILE]    change an article's title, date or content
  rm ID                                    remove an article
  import DIR                               add or replace every DIR/<id>.md (all are checked first)
  export DIR                               write every article to DIR/<id>.md

Flags may come before or after the arguments. Dates are RFC 3339, like
2026-01-10T12:00:00-06:00; the default is now.
`

func (p Program) runNews(args []string) error {
	c, do, rest, err := subcommand(p, args, "news", newsUsage, "list, show, add, edit, rm, import, export", newsCommands)
	if err != nil {
		return err
	}
	c.news.Logger = c.textLogger(p.Stderr)
	return runOnStore(func(ctx context.Context) (news.Store, error) { return news.Open(ctx, c.news) },
		func(ctx context.Context, open func() (news.Store, error)) error {
			return do(newsCommand{open: open, stdin: p.Stdin, stdout: p.Stdout, stderr: p.Stderr, now: clock.Real{}.Now}, ctx, rest)
		})
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

// oneArg parses the arguments of a command that takes no flags and exactly
// one operand, what, and returns the operand. A flag-less flag set still
// reads -h, so that it prints help instead of being taken for an id or a
// directory.
func (c newsCommand) oneArg(name string, args []string, what string) (string, error) {
	args, err := parseArgs(newFlagSet("news "+name, newsUsage, c.stderr), args, 1, "takes one "+what)
	if err != nil {
		return "", err
	}
	if len(args) == 0 {
		return "", fmt.Errorf("%w: news %s wants one %s", errUsage, name, what)
	}
	return args[0], nil
}

// oneArgThenStore parses the one operand of a command, then opens the store:
// a bad command line never creates or seeds a store.
func (c newsCommand) oneArgThenStore(name string, args []string, what string) (string, news.Store, error) {
	arg, err := c.oneArg(name, args, what)
	if err != nil {
		return "", nil, err
	}
	store, err := c.open()
	return arg, store, err
}

func (c newsCommand) list(ctx context.Context, args []string) error {
	if err := parse(newFlagSet("news list", newsUsage, c.stderr), args); err != nil {
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
	news.SortNewestFirst(articles)
	for _, a := range articles {
		if _, err := fmt.Fprintf(c.stdout, "%s  %-40s  %s\n", a.Date.Format("2006-01-02 15:04"), a.ID, a.Title); err != nil {
			return err
		}
	}
	return nil
}

func (c newsCommand) show(ctx context.Context, args []string) error {
	id, store, err := c.oneArgThenStore("show", args, "article id")
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

// parseArticleFlags parses the flags and at most max operands of add
// (withID) or edit, which takes says.
func (c newsCommand) parseArticleFlags(name string, args []string, withID bool, max int, takes string) (articleFlags, []string, error) {
	fs := newFlagSet("news "+name, newsUsage, c.stderr)
	var af articleFlags
	fs.StringVar(&af.title, "title", "", "the article's `TITLE`")
	fs.StringVar(&af.date, "date", "", "the article's `DATE`, RFC 3339; a date still to come schedules it: the site shows it from then")
	if withID {
		fs.StringVar(&af.id, "id", "", "the article's `ID` (default: made from the title)")
	}
	rest, err := parseArgs(fs, args, max, takes)
	return af, rest, err
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
	af, rest, err := c.parseArticleFlags("add", args, true, 1, "takes one content file (or - for standard input)")
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: news add wants one content file (or - for standard input)", errUsage)
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
	if _, err := fmt.Fprintln(c.stdout, a.ID); err != nil {
		return err
	}
	return c.sayScheduled(a)
}

// sayScheduled tells, on stderr (stdout is the id, for scripts), that an
// article dated in the future is scheduled, not on the site yet.
func (c newsCommand) sayScheduled(a news.Article) error {
	if !a.Date.After(c.now()) {
		return nil
	}
	_, err := fmt.Fprintf(c.stderr, "scheduled: the site shows %q from %s\n", a.ID, a.Date.Format(time.RFC3339))
	return err
}

func (c newsCommand) edit(ctx context.Context, args []string) error {
	af, rest, err := c.parseArticleFlags("edit", args, false, 2, "takes an article id and at most one content file")
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return fmt.Errorf("%w: news edit needs an article id", errUsage)
	}
	id, rest := rest[0], rest[1:]
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
	if err := store.Put(ctx, a); err != nil {
		return err
	}
	return c.sayScheduled(a)
}

func (c newsCommand) remove(ctx context.Context, args []string) error {
	id, store, err := c.oneArgThenStore("rm", args, "article id")
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
	_, err = fmt.Fprintf(c.stdout, "imported %d articles\n", len(articles))
	return err
}

func (c newsCommand) exportDir(ctx context.Context, args []string) error {
	dir, store, err := c.oneArgThenStore("export", args, "directory")
	if err != nil {
		return err
	}
	articles, err := store.List(ctx)
	if err != nil {
		return err
	}
	names := make([]string, len(articles))
	for i, a := range articles {
		if names[i], err = news.FileName(a.ID); err != nil {
			return fmt.Errorf("export: %w (nothing was exported)", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for i, a := range articles {
		if err := os.WriteFile(filepath.Join(dir, names[i]), news.FormatFile(a), 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	_, err = fmt.Fprintf(c.stdout, "exported %d articles to %s\n", len(articles), dir)
	return err
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
