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
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/robohornets/robohornets/bench/part"
	"github.com/robohornets/robohornets/cmd/internal/cmdmain"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
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
type result struct {
	viewers, writes              int
	rssBefore, rssIdle, rssAfter int64 // bytes; -1 when not measured
	p50, p99, max                time.Duration
}

// perViewer is serve's memory per viewer: the growth from before the
// streams to the larger of its size with them idle and after the writes.
func (r result) perViewer() float64 {
	if r.rssBefore < 0 {
		return -1
	}
	return float64(max(r.rssIdle, r.rssAfter)-r.rssBefore) / float64(r.viewers)
}

func (r result) met(c config) bool {
	return (r.perViewer() < 0 || r.perViewer() <= c.goalBytes) && r.p99 <= c.goalP99
}

// appendGoals adds the run's two figures to the goals of make bench's
// summary, one JSON object a line; bench/streams.sh hands the file to
// goparts assemble.
func (r result) appendGoals(c config) error {
	f, err := os.OpenFile(c.goals, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("goals: %w", err)
	}
	enc := json.NewEncoder(f)
	err1 := enc.Encode(part.Goal{
		What:   fmt.Sprintf("memory per live viewer, %d viewers, %s", r.viewers, c.label),
		Figure: fmt.Sprintf("%.1f KB", r.perViewer()/1000), Goal: fmt.Sprintf("≤ %g KB", c.goalBytes/1000),
		Met: r.perViewer() >= 0 && r.perViewer() <= c.goalBytes,
	})
	err2 := enc.Encode(part.Goal{
		What:   fmt.Sprintf("write → every viewer p99, %d viewers, %s", r.viewers, c.label),
		Figure: ms(r.p99), Goal: fmt.Sprintf("≤ %v", c.goalP99), Met: r.p99 <= c.goalP99,
	})
	if err := errors.Join(err1, err2, f.Close()); err != nil {
		return fmt.Errorf("goals: %w", err)
	}
	return nil
}

func (r result) print(w io.Writer, c config) error {
	mem := "not measured (no -pid)"
	if r.rssBefore >= 0 {
		mem = fmt.Sprintf("%.1f KB per viewer (RSS %s before, %s with the viewers idle, %s after the writes)",
			r.perViewer()/1000, mib(r.rssBefore), mib(r.rssIdle), mib(r.rssAfter))
	}
	goal := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	memOK := r.perViewer() < 0 || r.perViewer() <= c.goalBytes
	latOK := r.p99 <= c.goalP99
	if c.markdown {
		_, err := fmt.Fprintf(w, "| %s | %d | %s | %v / %v / %v | ≤ %g KB: %s; p99 ≤ %v: %s |\n",
			c.label, r.viewers, mem, ms(r.p50), ms(r.p99), ms(r.max), c.goalBytes/1000, goal(memOK), c.goalP99, goal(latOK))
		return err
	}
	_, err1 := fmt.Fprintf(w, "viewers:  %d on %s%s (%s store)\n", r.viewers, c.base, c.path, c.store.Kind)
	_, err2 := fmt.Fprintf(w, "memory:   %s; goal ≤ %g KB: %s\n", mem, c.goalBytes/1000, goal(memOK))
	_, err3 := fmt.Fprintf(w, "delivery: p50 %v, p99 %v, max %v from a write until a viewer has it (medians of %d writes); goal p99 ≤ %v: %s\n",
		ms(r.p50), ms(r.p99), ms(r.max), r.writes, c.goalP99, goal(latOK))
	return errors.Join(err1, err2, err3)
}

// viewers are the streams and what each has seen.
type viewers struct {
	readyFlag []atomic.Bool // per viewer: has its first event, or failed
	readyN    atomic.Int64
	errs      []atomic.Pointer[error]

	// marker is the text of the write being timed; start is its time.
	marker atomic.Pointer[[]byte]
	start  atomic.Int64   // UnixNano
	got    []atomic.Int64 // per viewer: nanoseconds from start, 0 until it has the marker
	gotN   atomic.Int64
	wake   chan struct{}
}

func newViewers(n int) *viewers {
	return &viewers{readyFlag: make([]atomic.Bool, n), errs: make([]atomic.Pointer[error], n), got: make([]atomic.Int64, n), wake: make(chan struct{}, 1)}
}

func (v *viewers) markReady(i int) {
	if v.readyFlag[i].CompareAndSwap(false, true) && v.readyN.Add(1) == int64(len(v.readyFlag)) {
		v.notify()
	}
}

func (v *viewers) fail(i int, err error) {
	v.errs[i].CompareAndSwap(nil, &err)
	v.markReady(i)
	v.notify()
}

func (v *viewers) notify() {
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

func (v *viewers) failures() []error {
	var out []error
	for i := range v.errs {
		if e := v.errs[i].Load(); e != nil {
			out = append(out, *e)
		}
	}
	return out
}

// waitReady waits until every viewer has its first event or has failed.
func (v *viewers) waitReady(ctx context.Context) error {
	for v.readyN.Load() < int64(len(v.readyFlag)) {
		select {
		case <-v.wake:
		case <-ctx.Done():
			return fmt.Errorf("%d of %d viewers had their first event in time: %w", v.readyN.Load(), len(v.readyFlag), ctx.Err())
		}
	}
	return nil
}

// expect starts timing a new write whose list contains marker.
func (v *viewers) expect(marker []byte) {
	for i := range v.got {
		v.got[i].Store(0)
	}
	v.gotN.Store(0)
	v.marker.Store(&marker)
}

func (v *viewers) startClock(t time.Time) { v.start.Store(t.UnixNano()) }

// delivered notes that viewer i has the marked list now.
func (v *viewers) delivered(i int, at time.Time) {
	d := max(at.UnixNano()-v.start.Load(), 1)
	if v.got[i].CompareAndSwap(0, d) {
		if v.gotN.Add(1) == int64(len(v.got)) {
			v.notify()
		}
	}
}

func (v *viewers) waitDelivered(ctx context.Context, timeout time.Duration) error {
	deadline := time.After(timeout)
	for v.gotN.Load() < int64(len(v.got)) {
		if len(v.failures()) > 0 {
			return nil
		}
		select {
		case <-v.wake:
		case <-deadline:
			return fmt.Errorf("%d of %d viewers got the write within %v", v.gotN.Load(), len(v.got), timeout)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (v *viewers) delays() []time.Duration {
	out := make([]time.Duration, len(v.got))
	for i := range v.got {
		out[i] = time.Duration(v.got[i].Load())
	}
	return out
}

// watch runs viewer i: one connection, the request, then the events until
// ctx ends. It does not parse events fully: a blank line ends one (JSON
// data has no raw newlines), the first after the retry block is the first
// news event, and the first that ends after the marker is the timed one.
func (v *viewers) watch(ctx, connectCtx context.Context, i int, c config, local net.Addr, dialing chan struct{}) {
	select {
	case dialing <- struct{}{}:
	case <-connectCtx.Done():
		v.fail(i, connectCtx.Err())
		return
	}
	d := net.Dialer{LocalAddr: local, Timeout: 30 * time.Second}
	conn, err := d.DialContext(connectCtx, "tcp", c.base.Host)
	if err == nil {
		_, err = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nUser-Agent: sseload\r\n\r\n", c.path, c.base.Host)
	}
	<-dialing
	if err != nil {
		v.fail(i, err)
		return
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() }) // unblocks the reader, which reports what matters
	defer stop()
	defer func() { _ = conn.Close() }() // teardown: a close error changes nothing here
	br := bufio.NewReaderSize(conn, 4<<10)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		v.fail(i, err)
		return
	}
	defer func() { _ = res.Body.Close() }() // closing a read body cannot lose data
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		v.fail(i, fmt.Errorf("%s: %s", res.Status, bytes.TrimSpace(body)))
		return
	}
	buf := make([]byte, 4<<10)
	var sc eventScanner
	var marker *[]byte
	for {
		n, err := res.Body.Read(buf)
		if n > 0 {
			now := time.Now()
			if m := v.marker.Load(); m != marker {
				marker = m
				sc.expect(*m)
			}
			first, got := sc.feed(buf[:n])
			if first {
				v.markReady(i)
			}
			if got {
				v.delivered(i, now)
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				v.fail(i, fmt.Errorf("stream ended: %w", err))
			}
			return
		}
	}
}

// eventScanner follows a stream of server-sent events without parsing it:
// a blank line ends a block (JSON data has no raw newlines), the block
// after the retry block is the first event, and the first block that ends
// after the marker is the one being timed. It keeps no more than a few
// bytes of the stream.
type eventScanner struct {
	ends   int      // blank lines seen
	lastNL bool     // the last chunk ended with a newline
	carry  [64]byte // the last bytes read, for a marker split between chunks
	nCarry int
	marker []byte
	seen   bool // the marker has been seen
	done   bool // and its block has ended
}

// expect starts looking for marker (at most 64 bytes) in what comes next.
func (s *eventScanner) expect(marker []byte) {
	s.marker, s.seen, s.done, s.nCarry = marker, false, false, 0
}

// feed takes the next bytes of the stream. It reports whether the first
// event has arrived, and whether the block holding the marker has just
// ended (true once per marker).
func (s *eventScanner) feed(chunk []byte) (first, delivered bool) {
	if len(chunk) == 0 {
		return s.ends >= 2, false
	}
	from := -1 // where the end of the marker's block may be in chunk
	switch {
	case s.marker == nil || s.done:
	case s.seen:
		from = 0
	default:
		mk := s.marker
		var joined [128]byte
		j := copy(joined[:], s.carry[:s.nCarry])
		j += copy(joined[j:], chunk[:min(len(chunk), len(mk)-1)])
		if k := bytes.Index(joined[:j], mk); k >= 0 {
			s.seen, from = true, max(0, k+len(mk)-s.nCarry)
		} else if k := bytes.Index(chunk, mk); k >= 0 {
			s.seen, from = true, k+len(mk)
		}
		// Keep the last len(mk)-1 bytes of everything read so far.
		keep := len(mk) - 1
		if len(chunk) >= keep {
			s.nCarry = copy(s.carry[:], chunk[len(chunk)-keep:])
		} else {
			all := append(s.carry[:s.nCarry:s.nCarry], chunk...)
			s.nCarry = copy(s.carry[:], all[max(0, len(all)-keep):])
		}
	}
	splitEnd := s.lastNL && chunk[0] == '\n' // a blank line across two chunks
	blank := bytes.Count(chunk, []byte("\n\n"))
	if splitEnd {
		blank++
	}

	s.lastNL = chunk[len(chunk)-1] == '\n'
	s.ends += blank
	if from >= 0 && (bytes.Contains(chunk[from:], []byte("\n\n")) || (from == 0 && splitEnd)) {
		s.done, delivered = true, true
	}
	return s.ends >= 2, delivered
}

// sourceAddrs are the local addresses to dial from: several loopback ones
// against a loopback server, as each gives its own range of ports.
func sourceAddrs(c config) []net.IP {
	host := c.base.Hostname()
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() || ip.To4() == nil {
		return nil
	}
	k := c.sources
	if k == 0 {
		k = (c.n + 4999) / 5000
	}
	out := make([]net.IP, min(k, 250))
	for j := range out {
		out[j] = net.IPv4(127, 0, 0, byte(j+1))
	}
	return out
}

// raiseFileLimit makes room for need open files: the soft limit up to the
// hard one (Go does that at start too), and the hard one when allowed.
func raiseFileLimit(need uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("read the open-file limit: %w", err)
	}
	if lim.Cur >= need {
		return nil
	}
	want := syscall.Rlimit{Cur: max(need, lim.Cur), Max: max(need, lim.Max)}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
		want = syscall.Rlimit{Cur: lim.Max, Max: lim.Max}
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want)
		if lim.Max < need {
			return fmt.Errorf("the open-file limit is %d, and %d viewers need %d: raise it (ulimit -n) or lower -n", lim.Max, need-256, need)
		}
	}
	return nil
}

// rss returns the resident memory of process pid in bytes, or -1 for pid 0.
func rss(pid int) (int64, error) {
	if pid == 0 {
		return -1, nil
	}
	now, _, err := servetest.Memory(pid)
	if err != nil {
		return 0, fmt.Errorf("read the memory of process %d: %w", pid, err)
	}
	return now, nil
}

func percentile(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 0, 64) + " ms"
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func nonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// sleep waits for d, or returns ctx's error when it ends first.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
