//go:build reliability

package reliability

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	// readHeaderTimeout is serve's (readHeaderTimeout in
	// internal/server/server.go): a connection that has not sent a whole
	// request head by then is closed. Change both together.
	readHeaderTimeout = 5 * time.Second
	// closeSlack is how late after readHeaderTimeout serve may close a slow
	// connection: timers on two busy cores run late by milliseconds, not
	// by a second.
	closeSlack = time.Second
	// slowClients is how many connections the slow clients keep open.
	slowClients = 500
	// trickleEvery is how often a slow client sends one more header byte.
	trickleEvery = time.Second
	// rounds and window: the normal clients are timed in alternating
	// windows without and with the slow clients, so that whatever else the
	// machine does weighs on both alike. A window outlasts readHeaderTimeout
	// and closeSlack: serve closes every slow connection in it and the
	// slow clients open new ones, as an attacker does.
	rounds = 5
	window = readHeaderTimeout + 2*closeSlack
	// probeEvery is the pause between two requests of the normal client.
	probeEvery = 5 * time.Millisecond
	// latencyFloor is added to the allowance of twice the unloaded p99:
	// that p99 is one to five milliseconds, and on two cores shared with
	// other work a single scheduling delay moves it by as much. A server
	// that starves its clients adds seconds, not milliseconds.
	latencyFloor = 3 * time.Millisecond
)

// TestSlowClientsDoNotStarveOthers keeps hundreds of connections open that
// send a request head one byte a second and never finish it (slowloris),
// and checks that normal clients, each request on a new connection, are
// answered about as fast as without them: their p99 within twice the
// unloaded p99 (or latencyFloor more). It also checks that serve closes
// each slow connection once its ReadHeaderTimeout has passed.
//
// The p99s compared are the medians over the rounds of each window's p99:
// another process's burst of work on these shared cores spoils one window's
// tail, not the median of five.
func TestSlowClientsDoNotStarveOthers(t *testing.T) {
	s := startServe(t)
	// A new connection for every request: what slow clients would starve
	// is accepting connections and reading their requests.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	paths := []string{"/", "/api/news"}
	mark := s.mark()
	idleFiles := s.files(t)

	probe(t, client, s.url, paths, time.Second) // warm up both ends
	var quiet, loaded [rounds][]time.Duration
	var held, outlived []time.Duration
	var openSeen []int
	for i := range rounds {
		quiet[i] = probe(t, client, s.url, paths, window)

		attack := startSlowloris(t, s.addr, slowClients)
		attack.waitOpen(t)
		// Count serve's connections halfway through the window: the slow
		// ones are held by serve, not queued in the kernel's backlog.
		files := make(chan int, 1)
		go func() {
			time.Sleep(window / 2)
			n, _ := s.Files()
			files <- n
		}()
		loaded[i] = probe(t, client, s.url, paths, window)
		openSeen = append(openSeen, <-files-idleFiles)
		h, o, err := attack.halt()
		if err != nil {
			t.Errorf("a slow client could not connect or send: %v", err)
		}
		held, outlived = append(held, h...), append(outlived, o...)
	}
	s.alive(t)

	q, l := summarize(quiet[:]), summarize(loaded[:])
	allowed := max(2*q.p99, q.p99+latencyFloor)
	slices.Sort(held)
	t.Logf("figures for docs/RELIABILITY.md:\n"+
		"| slow clients | %d connections sending a header byte every %s; %d rounds of %s without and %s with them | normal clients (GET %v, a new connection each) without: %s | with: %s; allowed p99 %s |\n"+
		"| serve's ReadHeaderTimeout %s | slow connections serve closed: %d, held min %s, median %s, max %s (bound %s); still open past it: %d | serve's connections halfway through each window with them, over idle: %v |",
		slowClients, trickleEvery, rounds, window, window, paths, q, l, ms(allowed),
		readHeaderTimeout, len(held), heldAt(held, 0), heldAt(held, 50), heldAt(held, 100), readHeaderTimeout+closeSlack, len(outlived), openSeen)

	if l.p99 > allowed {
		t.Errorf("with slow clients the normal clients' p99 is %s, without %s: want at most %s (twice, or %s more)", ms(l.p99), ms(q.p99), ms(allowed), ms(latencyFloor))
	}
	if len(outlived) > 0 {
		slices.Sort(outlived)
		t.Errorf("%d slow connections were still open %s after their first byte (the longest %s): serve must close them after its ReadHeaderTimeout %s",
			len(outlived), readHeaderTimeout+closeSlack, outlived[len(outlived)-1].Round(time.Millisecond), readHeaderTimeout)
	}
	if n := len(held); n < rounds*slowClients {
		t.Errorf("serve closed %d slow connections, want at least %d (each of the %d, once a round)", n, rounds*slowClients, slowClients)
	} else if worst := held[n-1]; worst > readHeaderTimeout+closeSlack {
		t.Errorf("serve held a slow connection %s, want at most %s (its ReadHeaderTimeout %s and %s)", worst.Round(time.Millisecond), readHeaderTimeout+closeSlack, readHeaderTimeout, closeSlack)
	}
	for i, n := range openSeen {
		if n < slowClients*9/10 {
			t.Errorf("round %d: serve held %d more connections than when idle, want about %d: the slow clients did not reach it", i+1, n, slowClients)
		}
	}
	if w := s.warnings(mark); w != "" {
		t.Errorf("serve logged warnings:\n%s", w)
	}
}

// latencies sums up the windows of one condition: p50 and p99 are the
// medians over the windows of each window's own.
type latencies struct {
	requests   int
	p50, p99   time.Duration
	windowP99s []time.Duration
	pooledP99  time.Duration // over every request of every window
}

func summarize(windows [][]time.Duration) latencies {
	var l latencies
	var p50s, all []time.Duration
	for _, w := range windows {
		l.requests += len(w)
		p50s = append(p50s, percentile(w, 50))
		l.windowP99s = append(l.windowP99s, percentile(w, 99))
		all = append(all, w...)
	}
	l.p50, l.p99 = percentile(p50s, 50), percentile(l.windowP99s, 50)
	l.pooledP99 = percentile(all, 99)
	return l
}

func (l latencies) String() string {
	p99s := make([]string, len(l.windowP99s))
	for i, d := range l.windowP99s {
		p99s[i] = ms(d)
	}
	return fmt.Sprintf("%d requests, p50 %s, p99 %s (windows' p99s %s; pooled %s)", l.requests, ms(l.p50), ms(l.p99), strings.Join(p99s, ", "), ms(l.pooledP99))
}

// probe requests paths in turn from one client for d, pausing probeEvery
// between requests, and returns how long each took to its last byte. An
// error or a status other than 200 fails the test.
func probe(t *testing.T, c *http.Client, base string, paths []string, d time.Duration) []time.Duration {
	t.Helper()
	var took []time.Duration
	for end, i := time.Now().Add(d), 0; time.Now().Before(end); i++ {
		path := paths[i%len(paths)]
		start := time.Now()
		res, err := c.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		_, err = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close() // closing a read body cannot lose data
		took = append(took, time.Since(start))
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s, %v", path, res.Status, err)
		}
		time.Sleep(probeEvery)
	}
	return took
}

// percentile is the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Sorted(slices.Values(ds))
	i := (len(sorted)*p + 99) / 100
	return sorted[max(i-1, 0)]
}

// heldAt is the p-th percentile of the sorted durations, for the report.
func heldAt(sorted []time.Duration, p int) string {
	if len(sorted) == 0 {
		return "-"
	}
	return sorted[(len(sorted)-1)*p/100].Round(time.Millisecond).String()
}

// slowloris keeps n connections open to a server, each sending a request
// head one byte every trickleEvery without ever ending it, and opens a new
// one whenever the server closes one.
type slowloris struct {
	addr    string
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	started atomic.Int64 // slow clients that have had a connection open

	mu       sync.Mutex
	held     []time.Duration // how long the server kept each connection it closed
	outlived []time.Duration // connections still open past the bound when halted
	err      error           // the first failure to connect or write
}

func startSlowloris(t *testing.T, addr string, n int) *slowloris {
	t.Helper()
	a := &slowloris{addr: addr}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	t.Cleanup(func() { _, _, _ = a.halt() })
	a.wg.Add(n)
	for i := range n {
		// Spread over trickleEvery, as an attacker's clients would be,
		// rather than 500 at the same instant every readHeaderTimeout.
		go a.client(time.Duration(i) * trickleEvery / time.Duration(n))
	}
	return a
}

// waitOpen waits until every slow client has its first connection open.
func (a *slowloris) waitOpen(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(startTimeout)
	for a.started.Load() < slowClients {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d slow connections open after %v (%v)", a.started.Load(), slowClients, startTimeout, a.failure())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// halt closes every slow connection and returns how long the server held
// those it closed, the ages of those still open past readHeaderTimeout and
// closeSlack, and the first failure to connect or send.
func (a *slowloris) halt() (held, outlived []time.Duration, err error) {
	a.cancel()
	a.wg.Wait()
	a.mu.Lock()
	defer a.mu.Unlock()
	held, outlived, err = a.held, a.outlived, a.err
	a.held, a.outlived, a.err = nil, nil, nil
	return held, outlived, err
}

func (a *slowloris) failure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

func (a *slowloris) fail(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err == nil {
		a.err = err
	}
}

// client is one slow client: after delay, a connection at a time, until
// halted.
func (a *slowloris) client(delay time.Duration) {
	defer a.wg.Done()
	select {
	case <-time.After(delay):
	case <-a.ctx.Done():
		return
	}
	first := true
	var d net.Dialer
	for a.ctx.Err() == nil {
		conn, err := d.DialContext(a.ctx, "tcp", a.addr)
		if err != nil {
			if a.ctx.Err() == nil {
				a.fail(err)
				time.Sleep(trickleEvery)
			}
			continue
		}
		if first {
			a.started.Add(1)
			first = false
		}
		a.hold(conn)
		_ = conn.Close() // a slow client giving up: a close error changes nothing
	}
}

// hold sends a request line and the start of a header, then one byte of it
// every trickleEvery, until the server closes the connection or the
// slowloris is halted.
func (a *slowloris) hold(conn net.Conn) {
	start := time.Now()
	if _, err := fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\nX-Slow: ", a.addr); err != nil {
		a.fail(err)
		return
	}
	stop := context.AfterFunc(a.ctx, func() { _ = conn.SetReadDeadline(time.Now()) })
	defer stop()
	var b [512]byte
	for {
		// Waiting in Read both paces the bytes and notices at once when
		// the server closes the connection.
		_ = conn.SetReadDeadline(time.Now().Add(trickleEvery))
		n, err := conn.Read(b[:])
		if a.ctx.Err() != nil {
			if age := time.Since(start); age > readHeaderTimeout+closeSlack {
				a.mu.Lock()
				a.outlived = append(a.outlived, age)
				a.mu.Unlock()
			}
			return
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && n == 0 {
			if _, err := conn.Write([]byte("a")); err == nil {
				continue
			}
		}
		// The server closed the connection (EOF or a reset), or answered
		// something, which ends the request just as well.
		a.mu.Lock()
		a.held = append(a.held, time.Since(start))
		a.mu.Unlock()
		return
	}
}
