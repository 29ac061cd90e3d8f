// Command sseload measures the live fan-out of one serve process: it opens
// N concurrent news streams, reads the server's resident memory before and
// with them, then writes an article to the news store and times, for every
// viewer, how long the news list with that article takes to reach it.
//
//	sseload -url http://127.0.0.1:8080 -pid 1234 -n 10000 -store local -data DIR
//	FIRESTORE_EMULATOR_HOST=127.0.0.1:8681 sseload -url … -pid 1234 -store firestore -project bench
//
// The store flags name the store serve reads, as serve's own do. It raises
// its open-file limit itself and, against a loopback server, spreads its
// connections over several source addresses (127.0.0.1, 127.0.0.2, …) so
// ephemeral ports never run short. It prints one summary (a markdown table
// row with -markdown) and exits 1 when the run failed or missed a goal.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/robohornets/robohornets/cmd/internal/cmdmain"
	"github.com/robohornets/robohornets/internal/news"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"slices"
	"sync"
	"time"
)

// main exits 0 after -h, flag's usage being the answer asked for.

func main() { os.Exit(cmdmain.Run("sseload", run, flag.ErrHelp)) }

// config is the command line.

type config struct {
	base      *url.URL
	path      string
	n         int
	pid       int
	store     news.Config
	sources   int
	dialers   int
	writes    int
	settle    time.Duration
	timeout   time.Duration
	goalBytes float64
	goalP99   time.Duration
	markdown  bool
	goals     string
	label     string
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("sseload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	base := fs.String("url", "", "base `URL` of the serve process, like http://127.0.0.1:8080 (required)")
	fs.StringVar(&c.path, "path", "/api/news/stream", "the stream to open")
	fs.IntVar(&c.n, "n", 10000, "`number` of concurrent viewers")
	fs.IntVar(&c.pid, "pid", 0, "process id of serve, whose VmRSS is read (0: no memory figures)")
	fs.StringVar(&c.store.Kind, "store", news.StoreLocal, "the store serve reads, to write to: local or firestore")
	fs.StringVar(&c.store.Dir, "data", "", "serve's data `DIR` (local store: the articles are DIR/news/*.md)")
	fs.StringVar(&c.store.Project, "project", os.Getenv("GOOGLE_CLOUD_PROJECT"), "Firestore project `ID`; the emulator is $FIRESTORE_EMULATOR_HOST")
	fs.IntVar(&c.sources, "sources", 0, "loopback source addresses to spread connections over (0: one per 5,000 viewers against a loopback server, else the system's choice)")
	fs.IntVar(&c.dialers, "dialers", 128, "connections opened at once while connecting")
	fs.IntVar(&c.writes, "writes", 5, "writes to time, one after the other; the figures are their medians")
	fs.DurationVar(&c.settle, "settle", 3*time.Second, "wait after every viewer has its first event before reading the memory")
	fs.DurationVar(&c.timeout, "timeout", 2*time.Minute, "give up connecting, or waiting for one write to reach every viewer, after this long")
	goalKB := fs.Float64("goal-kb", 20, "goal: at most this many KB (1000 bytes) of serve's memory per viewer")
	fs.DurationVar(&c.goalP99, "goal-p99", time.Second, "goal: the 99th percentile from a write until a viewer has it")
	fs.BoolVar(&c.markdown, "markdown", false, "print the summary as a markdown table row: label, viewers, memory, delivery, goals")
	fs.StringVar(&c.goals, "goals", "", "append the figures as goals of make bench's summary, one JSON object a line (bench/part.Goal), to this `FILE`")
	fs.StringVar(&c.label, "label", "", "first cell of the -markdown row (default: the store)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	u, err := url.Parse(*base)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return c, fmt.Errorf("-url %q: want http://HOST:PORT", *base)
	}
	c.base = u
	if c.n < 1 || c.writes < 1 || c.dialers < 1 || c.sources < 0 {
		return c, errors.New("-n, -writes and -dialers must be at least 1, -sources at least 0")
	}
	switch c.store.Kind {
	case "", news.StoreLocal:
		if c.store.Dir == "" {
			return c, errors.New("-store local needs -data, serve's data directory")
		}
	case news.StoreFirestore:
		if c.store.Project == "" {
			return c, errors.New("-store firestore needs -project")
		}
	default:
		return c, fmt.Errorf("-store: %w", news.CheckKind(c.store.Kind))
	}
	c.goalBytes = *goalKB * 1000
	if c.label == "" {
		c.label = c.store.Kind
	}
	return c, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) { _, _ = fmt.Fprintf(stderr, "sseload: "+format+"\n", a...) } // a log line: stderr is the only place for it
	if err := raiseFileLimit(uint64(c.n) + 256); err != nil {
		return err
	}
	store, err := news.Open(ctx, news.Config{Kind: c.store.Kind, Dir: c.store.Dir, Project: c.store.Project, Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	if err != nil {
		return err
	}
	defer func() { _ = store.Close() }() // teardown: a close error changes nothing here

	rssBefore, err := rss(c.pid)
	if err != nil {
		return err
	}
	sources := sourceAddrs(c)
	logf("opening %d streams to %s%s from %d source address(es)", c.n, c.base, c.path, max(1, len(sources)))
	v := newViewers(c.n)
	connectStart := time.Now()
	connectCtx, cancelConnect := context.WithTimeout(ctx, c.timeout)
	defer cancelConnect()
	streamsCtx, closeStreams := context.WithCancel(ctx)
	var wg sync.WaitGroup
	dialing := make(chan struct{}, c.dialers)
	for i := range c.n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local net.Addr
			if len(sources) > 0 {
				local = &net.TCPAddr{IP: sources[i%len(sources)]}
			}
			v.watch(streamsCtx, connectCtx, i, c, local, dialing)
		}()
	}
	defer func() { closeStreams(); wg.Wait() }()

	if err := v.waitReady(connectCtx); err != nil {
		return err
	}
	if failed := v.failures(); len(failed) > 0 {
		return fmt.Errorf("%d of %d viewers got no stream; the first: %v", len(failed), c.n, failed[0])
	}
	logf("%d viewers have their first event after %v", c.n, time.Since(connectStart).Round(time.Millisecond))
	if err := sleep(ctx, c.settle); err != nil {
		return err
	}
	rssIdle, err := rss(c.pid)
	if err != nil {
		return err
	}

	id := "sseload-" + nonce()
	var p50s, p99s, maxes []time.Duration
	for w := range c.writes {
		marker := nonce()
		a := news.Article{ID: id, Title: "Load test " + marker, Date: time.Now().Truncate(time.Second), Content: "Written by sseload to time the live news.\n"}
		v.expect([]byte(marker))
		start := time.Now()
		v.startClock(start)
		if err := store.Put(ctx, a); err != nil {
			return fmt.Errorf("write %d: %w", w+1, err)
		}
		if err := v.waitDelivered(ctx, c.timeout); err != nil {
			return fmt.Errorf("write %d: %w", w+1, err)
		}
		if failed := v.failures(); len(failed) > 0 {
			return fmt.Errorf("write %d: %d viewers lost their stream; the first: %v", w+1, len(failed), failed[0])
		}
		d := v.delays()
		slices.Sort(d)
		p50, p99, worst := percentile(d, 50), percentile(d, 99), d[len(d)-1]
		logf("write %d: reached %d viewers: p50 %v, p99 %v, max %v", w+1, len(d), ms(p50), ms(p99), ms(worst))
		p50s, p99s, maxes = append(p50s, p50), append(p99s, p99), append(maxes, worst)
		if w+1 < c.writes {
			if err := sleep(ctx, time.Second); err != nil {
				return err
			}
		}
	}
	rssAfter, err := rss(c.pid)
	if err != nil {
		return err
	}
	closeStreams()
	wg.Wait()
	// Leave the store as it was, once no viewer is left to be told.
	delCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := store.Delete(delCtx, id); err != nil {
		logf("cannot remove the test article %s: %v", id, err)
	}

	r := result{
		viewers: c.n, writes: c.writes,
		rssBefore: rssBefore, rssIdle: rssIdle, rssAfter: rssAfter,
		p50: median(p50s), p99: median(p99s), max: median(maxes),
	}
	if err := r.print(stdout, c); err != nil {
		return err
	}
	if c.goals != "" {
		if err := r.appendGoals(c); err != nil {
			return err
		}
	}
	if !r.met(c) {
		return errors.New("a goal was not met")
	}
	return nil
}

// result is what one run measured.

// perViewer is serve's memory per viewer: the growth from before the

// streams to the larger of its size with them idle and after the writes.

// appendGoals adds the run's two figures to the goals of make bench's

// summary, one JSON object a line; bench/streams.sh hands the file to

// goparts assemble.

// viewers are the streams and what each has seen.

// waitReady waits until every viewer has its first event or has failed.

// expect starts timing a new write whose list contains marker.

// delivered notes that viewer i has the marked list now.

// watch runs viewer i: one connection, the request, then the events until

// ctx ends. It does not parse events fully: a blank line ends one (JSON

// data has no raw newlines), the first after the retry block is the first

// news event, and the first that ends after the marker is the timed one.

// eventScanner follows a stream of server-sent events without parsing it:

// a blank line ends a block (JSON data has no raw newlines), the block

// after the retry block is the first event, and the first block that ends

// after the marker is the one being timed. It keeps no more than a few

// bytes of the stream.

// expect starts looking for marker (at most 64 bytes) in what comes next.

// feed takes the next bytes of the stream. It reports whether the first

// event has arrived, and whether the block holding the marker has just

// ended (true once per marker).

// sourceAddrs are the local addresses to dial from: several loopback ones

// against a loopback server, as each gives its own range of ports.

// raiseFileLimit makes room for need open files: the soft limit up to the

// hard one (Go does that at start too), and the hard one when allowed.

// rss returns the resident memory of process pid in bytes, or -1 for pid 0.

// sleep waits for d, or returns ctx's error when it ends first.
