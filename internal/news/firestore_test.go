//go:build emulator

package news

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/chantest"
)

// openEmulatorStore returns a FirestoreStore on a fresh project of the real
// emulator, and that project's REST base URL for writes made outside this code.
func openEmulatorStore(t testing.TB) (*FirestoreStore, string) {
	t.Helper()
	host := emulator.Start(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := freshProject(t)
	s, err := OpenFirestore(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, fmt.Sprintf("http://%s/v1/projects/%s/databases/(default)/documents/%s", host, project, Collection)
}

func TestFirestoreStoreCRUD(t *testing.T) {
	s, _ := openEmulatorStore(t)
	testStoreCRUD(t, s)
}

// restWrite changes a document through the emulator's REST API, the way
// another client (the Firebase console, another instance) would.
func restWrite(t testing.TB, method, url string, doc map[string]any) {
	t.Helper()
	var body bytes.Buffer
	if doc != nil {
		_ = json.NewEncoder(&body).Encode(doc)
	}
	req, err := http.NewRequest(method, url, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close() // closing a read body cannot lose data
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s", method, url, resp.Status)
	}
}

func restDoc(title, content string, date time.Time) map[string]any {
	return map[string]any{"fields": map[string]any{
		"title":   map[string]string{"stringValue": title},
		"content": map[string]string{"stringValue": content},
		"date":    map[string]string{"timestampValue": date.Format(time.RFC3339)},
	}}
}

func TestFirestoreWatchThroughTheHub(t *testing.T) {
	s, base := openEmulatorStore(t)
	hub := NewHub(HubOptions{Store: s})
	defer runHub(hub)()
	changed, stop := hub.Subscribe()
	defer stop()

	await := func(what string, ok func(Snapshot) bool) {
		t.Helper()
		chantest.Until(t, changed, 30*time.Second, func() bool { return ok(hub.Current()) }, func() string {
			return fmt.Sprintf("hub never saw %s; it has %+v", what, hub.Current())
		})
	}
	await("the empty collection", func(s Snapshot) bool { return s.Live })

	date := time.Date(2026, 2, 1, 18, 0, 0, 0, time.UTC) // in the past: a later date is scheduled, hidden by the hub
	restWrite(t, http.MethodPost, base+"?documentId=rest-news", restDoc("From REST", "**bold**", date))
	await("the new document", func(s Snapshot) bool {
		a, ok := s.Article("rest-news")
		return ok && a.Title == "From REST" && strings.Contains(a.HTML, "<strong>bold</strong>") && a.Date.Equal(date)
	})

	restWrite(t, http.MethodPatch, base+"/rest-news", restDoc("Edited over REST", "x", date))
	await("the edit", func(s Snapshot) bool {
		a, ok := s.Article("rest-news")
		return ok && a.Title == "Edited over REST"
	})

	restWrite(t, http.MethodDelete, base+"/rest-news", nil)
	await("the delete", func(s Snapshot) bool {
		_, ok := s.Article("rest-news")
		return !ok
	})
}

// tcpProxy forwards the connections it accepts on addr to target. Stopped,
// it closes them all and frees addr, so that connecting there is refused,
// as when Firestore is down; started again, it serves on the same address.
type tcpProxy struct {
	target, addr string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

// startProxy starts a proxy to target on any local port.
func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	p := &tcpProxy{target: target, addr: "127.0.0.1:0", conns: map[net.Conn]struct{}{}}
	p.start(t)
	t.Cleanup(p.stop)
	return p
}

func (p *tcpProxy) start(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	p.wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Go(func() { p.forward(conn) })
		}
	})
}

// forward copies between conn and a connection of its own to the target.
func (p *tcpProxy) forward(conn net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = conn.Close() // teardown: a close error changes nothing here
		return
	}
	if !p.track(conn, up) {
		return
	}
	var copies sync.WaitGroup
	// Each side closes the other when its copy ends: proxy teardown, where
	// a close error changes nothing.
	copies.Go(func() { _, _ = io.Copy(up, conn); _ = up.Close() })
	copies.Go(func() { _, _ = io.Copy(conn, up); _ = conn.Close() })
	copies.Wait()
	p.mu.Lock()
	delete(p.conns, conn)
	delete(p.conns, up)
	p.mu.Unlock()
}

// track keeps the connections for stop; it closes them and returns false
// when the proxy is stopped already.
func (p *tcpProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		for _, c := range conns {
			_ = c.Close() // teardown: a close error changes nothing here
		}
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// stop closes the listener and every connection, and waits for them.
func (p *tcpProxy) stop() {
	p.mu.Lock()
	if p.ln != nil {
		_ = p.ln.Close() // teardown: a close error changes nothing here
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close() // teardown: a close error changes nothing here
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// TestFirestoreOutageThroughTheHub cuts the way to the emulator under a
// hub that watches it: the hub must stop saying it is live within a
// second, keep the last list, and be live again with what was written
// meanwhile soon after the way is open again.
func TestFirestoreOutageThroughTheHub(t *testing.T) {
	host := emulator.Start(t)
	p := startProxy(t, host)
	t.Setenv("FIRESTORE_EMULATOR_HOST", p.addr)
	project := freshProject(t)
	s, err := OpenFirestore(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }() // teardown: a close error changes nothing here
	// Writes go to the emulator itself: they are made while the proxy is down.
	base := fmt.Sprintf("http://%s/v1/projects/%s/databases/(default)/documents/%s", host, project, Collection)
	date := time.Date(2026, 2, 1, 18, 0, 0, 0, time.UTC) // in the past: a later date is scheduled, hidden by the hub
	restWrite(t, http.MethodPost, base+"?documentId=before", restDoc("Before the outage", "x", date))

	hub := NewHub(HubOptions{Store: s})
	defer runHub(hub)()
	changed, stop := hub.Subscribe()
	defer stop()
	await := func(what string, within time.Duration, ok func(Snapshot) bool) time.Duration {
		t.Helper()
		return chantest.Until(t, changed, within, func() bool { return ok(hub.Current()) }, func() string {
			snap := hub.Current()
			return fmt.Sprintf("hub never saw %s; it has live %v, %d articles, status %v", what, snap.Live, len(snap.Articles), hub.Status())
		})
	}
	has := func(s Snapshot, id string) bool { _, ok := s.Article(id); return ok }
	await("the first list", 30*time.Second, func(s Snapshot) bool { return s.Live && has(s, "before") })

	p.stop()
	took := await("the outage", linkRetryMax, func(s Snapshot) bool { return !s.Live })
	t.Logf("the hub was not live %v after the way to Firestore was cut", took.Round(time.Millisecond))
	if err := hub.Status(); !errors.Is(err, ErrUnreachable) || strings.Contains(err.Error(), p.addr) || strings.Contains(err.Error(), project) {
		t.Errorf("Status = %v, want ErrUnreachable, with neither address nor project", err)
	}
	if snap := hub.Current(); !has(snap, "before") {
		t.Fatalf("during the outage: %d articles, want the last list", len(snap.Articles))
	}
	restWrite(t, http.MethodPost, base+"?documentId=during", restDoc("Written during the outage", "x", date))
	// The way is tried again, and turned away, twice: the library's and
	// the hub's retries have come and backed off.
	refuse(t, p.addr, 2)
	if snap := hub.Current(); snap.Live || !has(snap, "before") {
		t.Fatalf("after two refused retries in the outage: live %v, %d articles; want the last list, not live", snap.Live, len(snap.Articles))
	}

	p.start(t)
	took = await("the return", 10*time.Second, func(s Snapshot) bool { return s.Live && has(s, "before") && has(s, "during") })
	t.Logf("the hub was live again with the new article %v after the way was open again", took.Round(time.Millisecond))
	if took > linkRetryMax*6/5+2*time.Second {
		t.Errorf("the hub was live again %v after the return, want within about %v", took.Round(time.Millisecond), linkRetryMax)
	}
}

// BenchmarkFirestoreWriteToWatch measures how long a document written to the
// real Firestore emulator by another client (its REST API) takes to reach
// this store's Watch: the Firestore part of the write-to-screen latency.
func BenchmarkFirestoreWriteToWatch(b *testing.B) {
	s, base := openEmulatorStore(b)
	ctx, cancel := context.WithCancel(context.Background())
	lists := make(chan []Article, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Watch(ctx, func(l []Article) {
			select { // never block the watch once the benchmark stops reading
			case lists <- l:
			case <-ctx.Done():
			}
		})
	}()
	defer func() { cancel(); <-done }()
	<-lists // the first snapshot: the empty collection
	date := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	for b.Loop() {
		n++
		title := fmt.Sprint("write ", n)
		restWrite(b, "PATCH", base+"/latency", restDoc(title, "x", date))
		for l := range lists {
			if len(l) == 1 && l[0].Title == title {
				break
			}
		}
	}
}

// TestXSSCorpusThroughFirestore is TestXSSCorpusThroughTheLocalStore through
// Firestore on the emulator.
func TestXSSCorpusThroughFirestore(t *testing.T) {
	s, _ := openEmulatorStore(t)
	checkXSSCorpusThrough(t, s)
}
