//go:build emulator && slow

package fault

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/ssetest"
	"github.com/robohornets/robohornets/internal/testutil/syncbuf"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

// emulator is this package's own Firestore emulator: its tests kill it.
var emulator = firestoretest.Emulator{Own: true}

func TestMain(m *testing.M) { firestoretest.Main(m, &emulator) }

const (
	// defaultLoad is the required load: 60 s with the emulator killed in it.
	defaultLoad = 60 * time.Second
	// viewers are the live news streams held open through the load, and
	// pollers the clients asking for pages and the API over and over.
	viewers = 20
	pollers = 8
	// pollEvery paces each poller: about 160 requests a second in all,
	// load enough on two shared cores under the race detector.
	pollEvery = 50 * time.Millisecond
	// resumeGoal is the requirement: updates reach every viewer within 10 s of
	// Firestore's return.
	resumeGoal = 10 * time.Second
	// lostGoal bounds how long after Firestore's death /healthz and the
	// pages may still call the news live.
	lostGoal = 5 * time.Second
	// waitTimeout bounds a wait for something that should happen at once.
	waitTimeout = 30 * time.Second
)

// schedule is when the outage happens, from the start of the load.
type schedule struct {
	load   time.Duration // the whole load
	kill   time.Duration // when the emulator is killed
	outage time.Duration // how long it stays dead before it is started again
	// heartbeat is the server's: the product's default with the full load,
	// shorter for a shortened one so that the outage still outlasts it.
	heartbeat time.Duration
}

// scheduleFor reads ROBOHORNETS_FAULT_LOAD, a duration; unset means 60 s.
// The kill comes at a sixth of the load and the outage lasts a third of it:
// 10 s and 20 s in the full run, longer than a heartbeat.
func scheduleFor(t *testing.T) schedule {
	t.Helper()
	s := schedule{load: defaultLoad}
	if v := os.Getenv("ROBOHORNETS_FAULT_LOAD"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 30*time.Second {
			t.Fatalf("ROBOHORNETS_FAULT_LOAD=%q: want a duration of at least 30s (%v)", v, err)
		}
		s.load = d
	}
	s.kill, s.outage = s.load/6, s.load/3
	s.heartbeat = min(server.DefaultHeartbeat, s.outage*3/4)
	return s
}

// TestFirestoreOutageUnderLoad kills the Firestore emulator during a load of
// live viewers and page requests on a real server over the Firestore
// store, keeps it dead longer than a heartbeat, brings it back with its
// data on the same address and writes one article. Every request of the
// load must be answered 200 with the last news, every stream must stay
// open and hear a heartbeat while Firestore is gone, and the new article
// must reach every viewer within 10 s of Firestore's return. Within 5 s of
// the death, /healthz and every stream must say the news is not live, and
// /healthz how old it is, until Firestore is back; then live again, with
// the new article.
func TestFirestoreOutageUnderLoad(t *testing.T) {
	sched := scheduleFor(t)
	host := emulator.Start(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := firestoretest.FreshProject(t)
	ctx := context.Background()

	date := time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC)
	seeded := []news.Article{
		{ID: "outage-one", Title: "Robot ships to regional", Date: date, Content: "Packed and **loaded**."},
		{ID: "outage-two", Title: "Sponsor night recap", Date: date.Add(time.Hour), Content: "Thank you all."},
		{ID: "outage-three", Title: "Build season week one", Date: date.Add(2 * time.Hour), Content: "Drivetrain done."},
	}
	put(t, project, seeded...)

	// Warnings and errors only: the access log of the load is long.
	logs := &syncbuf.Buffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	hub, stopNews, err := news.Start(news.Config{Kind: "firestore", Dir: t.TempDir(), Project: project, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer stopNews()
	waitLive(t, hub, len(seeded))

	site := server.New(server.Options{
		Assets: fstest.MapFS{"index.html": {Data: []byte(indexHTML)}},
		Hub:    hub, StoreName: "firestore", Logger: logger, Heartbeat: sched.heartbeat,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- site.Serve(ln) }()
	defer func() {
		shutdown, cancel := context.WithTimeout(ctx, waitTimeout)
		defer cancel()
		if err := site.Shutdown(shutdown); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	base := "http://" + ln.Addr().String()

	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	streams := &http.Client{Transport: &http.Transport{}}
	defer streams.CloseIdleConnections()
	vs := make([]*viewer, viewers)
	var wg sync.WaitGroup
	for i := range vs {
		stream := ssetest.Open(t, streams, base+"/api/news/stream", ssetest.ReportComments, waitTimeout)
		if stream.Response.StatusCode != http.StatusOK {
			t.Fatalf("viewer %d: stream answered %s", i, stream.Response.Status)
		}
		vs[i] = &viewer{first: make(chan struct{})}
		wg.Go(func() { vs[i].watch(loadCtx, stream) })
	}
	for i, v := range vs {
		select {
		case <-v.first:
		case <-time.After(waitTimeout):
			t.Fatalf("viewer %d had no first news event within %v", i, waitTimeout)
		}
	}
	t.Logf("%d viewers on /api/news/stream, %d pollers; load %v, Firestore killed at %v for %v, heartbeat %v",
		viewers, pollers, sched.load, sched.kill, sched.outage, sched.heartbeat)

	begin := time.Now()
	pages := &http.Transport{MaxIdleConnsPerHost: pollers}
	defer pages.CloseIdleConnections()
	var polls pollLog
	checks := pageChecks(seeded)
	for i := range pollers {
		wg.Go(func() { poll(loadCtx, &http.Client{Transport: pages, Timeout: waitTimeout}, base, checks, i, &polls) })
	}
	var health healthLog
	wg.Go(func() { health.poll(loadCtx, &http.Client{Transport: pages, Timeout: waitTimeout}, base) })

	sleepUntil(begin.Add(sched.kill))
	// What Firestore holds is durable; the emulator's memory is not. Its
	// export, taken just before the crash, is loaded again on its return.
	data := emulator.Export(t, project)
	// The time is taken before the kill: Kill returns only once the process
	// is reaped, and the server may have seen the death a moment before.
	killed := time.Now()
	emulator.Kill()
	sleepUntil(killed.Add(sched.outage))
	// The server may see Firestore back before Restart returns: whatever
	// it says from here on is no longer about the outage.
	restarting := time.Now()
	emulator.Restart(t, data)
	back := time.Now()
	// An editor posts as soon as Firestore is back, from a client of their
	// own that connects after the return. Not sooner than the server's
	// listener has the list again, though: the emulator, just restarted,
	// may lose a write made while a listener takes its first snapshot
	// (seen: a snapshot without a write committed before its read time and
	// no change after it, or the stream cancelled), which Firestore never
	// does. The figure counts from the return all the same.
	relisten := "not within " + resumeGoal.String()
	if at, ok := relistened(hub, back); ok {
		relisten = at.Sub(back).Round(time.Millisecond).String()
	}
	fresh := news.Article{ID: "outage-after", Title: "Back online", Date: date.Add(3 * time.Hour), Content: "Firestore returned."}
	put(t, project, fresh)
	written := time.Now()
	t.Logf("Firestore down from %v to %v into the load (ready again %v after the kill); after its return, the server's listener had the list again in %v, and the new article was written in %v",
		killed.Sub(begin).Round(time.Millisecond), back.Sub(begin).Round(time.Millisecond), back.Sub(killed).Round(time.Millisecond),
		relisten, written.Sub(back).Round(time.Millisecond))

	sleepUntil(begin.Add(sched.load))
	stopLoad()
	wg.Wait()

	// Pages and the API: every answer 200 with the last news.
	total, during := polls.count(killed, back)
	t.Logf("%d page and API requests, %d of them while Firestore was down", total, during)
	if during == 0 {
		t.Errorf("no request while Firestore was down")
	}
	if len(polls.bad) > 0 {
		t.Errorf("%d of %d requests were not 200 with the last news; the first ones:\n%s",
			len(polls.bad), total, strings.Join(polls.bad[:min(len(polls.bad), 10)], "\n"))
	}

	// /healthz: not live soon after the death and until the return, with
	// the age of the last good list; live again with the new article.
	health.check(t, begin, killed, restarting, back, len(seeded))

	// Streams: open through the load, a heartbeat in the outage, the news
	// never blank, told it is not live in the outage, and the new article,
	// live, soon after the return.
	var resumed []time.Duration
	for i, v := range vs {
		if !v.closedByUs {
			t.Errorf("viewer %d: stream ended %v into the load: %v", i, v.endedAt.Sub(begin).Round(time.Millisecond), v.err)
		}
		if !slices.ContainsFunc(v.heartbeats, func(at time.Time) bool { return at.After(killed) && at.Before(back) }) {
			t.Errorf("viewer %d: no heartbeat while Firestore was down (heartbeats at %v)", i, since(begin, v.heartbeats))
		}
		for _, ev := range v.events {
			if !ev.has(seeded) {
				t.Errorf("viewer %d: news event %v into the load without the last news: %v", i, ev.at.Sub(begin).Round(time.Millisecond), ev.ids)
				break
			}
		}
		if !slices.ContainsFunc(v.events, func(ev newsEvent) bool {
			return !ev.live && ev.at.After(killed) && ev.at.Before(killed.Add(lostGoal))
		}) {
			t.Errorf("viewer %d: not told within %v of the death that the news is not live (events at %v)", i, lostGoal, v.eventTimes(begin))
		}
		got := v.arrival(fresh.ID)
		if got.at.IsZero() {
			t.Errorf("viewer %d never had the article written after the return", i)
			continue
		}
		if !got.live {
			t.Errorf("viewer %d: the article written after the return came in a news event that is not live", i)
		}
		resumed = append(resumed, got.at.Sub(back))
	}
	if len(resumed) > 0 {
		slices.Sort(resumed)
		worst := resumed[len(resumed)-1]
		t.Logf("updates resumed %v after Firestore's return: the slowest of %d viewers had the new article then (median %v)",
			worst.Round(time.Millisecond), len(resumed), resumed[len(resumed)/2].Round(time.Millisecond))
		if worst > resumeGoal {
			t.Errorf("the slowest viewer had the new article %v after Firestore's return; the goal is %v", worst.Round(time.Millisecond), resumeGoal)
		}
	}
	if t.Failed() {
		t.Logf("the server's warnings and errors:\n%s", logs.String())
	}
}

// put writes articles with a client of its own, as an editor or another
// instance would, and closes it.
func put(t *testing.T, project string, articles ...news.Article) {
	t.Helper()
	ctx := context.Background()
	store, err := news.OpenFirestore(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = store.Close() }() // teardown: a close error changes nothing here
	for _, a := range articles {
		if err := store.Put(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
}

// waitLive waits until hub serves n articles live from the store.
func waitLive(t *testing.T, hub *news.Hub, n int) {
	t.Helper()
	changed, stop := hub.Subscribe()
	defer stop()
	deadline := time.After(waitTimeout)
	for {
		if s := hub.Current(); s.Live && len(s.Articles) == n {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			s := hub.Current()
			t.Fatalf("the hub is not live with %d articles after %v: live %v, %d articles, %v", n, waitTimeout, s.Live, len(s.Articles), hub.Status())
		}
	}
}

// relistened returns when hub had the list from the store again after back
// (the store confirms an unchanged list, which moves its AsOf and wakes
// nobody); false when it did not within resumeGoal.
func relistened(hub *news.Hub, back time.Time) (time.Time, bool) {
	for deadline := back.Add(resumeGoal); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s := hub.Current(); s.Live && s.AsOf.After(back) {
			return s.AsOf, true
		}
	}
	return time.Time{}, false
}

// sleepUntil waits for the wall clock: this test is a real-time load.
func sleepUntil(at time.Time) {
	if d := time.Until(at); d > 0 {
		time.Sleep(d)
	}
}

// indexHTML is a frontend's index.html as small as the server takes.
const indexHTML = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><!--app-head--></head><body><div id="root"></div></body></html>
`

// pageCheck is one path the pollers ask for, and the texts its answer
// must hold.
type pageCheck struct {
	path  string
	wants []string
}

// pageChecks are the pages and API answers that carry the news, each with
// the seeded titles it shows, and the home page, which carries none.
func pageChecks(seeded []news.Article) []pageCheck {
	var titles []string
	for _, a := range seeded {
		titles = append(titles, a.Title)
	}
	one := seeded[0]
	return []pageCheck{
		{"/", []string{"RoboHornets - Home"}},
		{"/news", titles},
		{"/news/" + one.ID, []string{one.Title}},
		{"/api/news", titles},
		{"/api/news/" + one.ID, []string{one.Title}},
		{"/news.xml", titles},
	}
}

// pollLog is what the pollers saw.
type pollLog struct {
	mu    sync.Mutex
	start []time.Time // when each request was sent
	bad   []string    // the requests that failed a check, in words
}

func (l *pollLog) add(start time.Time, bad string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.start = append(l.start, start)
	if bad != "" {
		l.bad = append(l.bad, bad)
	}
}

// count returns how many requests there were, and how many were sent
// between from and to.
func (l *pollLog) count(from, to time.Time) (total, between int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, at := range l.start {
		if at.After(from) && at.Before(to) {
			between++
		}
	}
	return len(l.start), between
}

// poll asks for the checked paths in turn, one every pollEvery, until ctx
// ends; the i-th poller starts at the i-th path so all are asked at once.
func poll(ctx context.Context, client *http.Client, base string, checks []pageCheck, i int, log *pollLog) {
	for n := i; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(pollEvery):
		}
		c := checks[n%len(checks)]
		start := time.Now()
		bad := check(ctx, client, base, c)
		if ctx.Err() != nil {
			return // the load ended during the request: not the server's fault
		}
		log.add(start, bad)
	}
}

// check asks for one page and says what is wrong with the answer, or "".
func check(ctx context.Context, client *http.Client, base string, c pageCheck) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+c.path, nil)
	if err != nil {
		return err.Error()
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Sprintf("%s: %v", c.path, err)
	}
	defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
	body, err := io.ReadAll(resp.Body)
	switch {
	case err != nil:
		return fmt.Sprintf("%s: read: %v", c.path, err)
	case resp.StatusCode != http.StatusOK:
		return fmt.Sprintf("%s: %s: %.200q", c.path, resp.Status, body)
	}
	for _, want := range c.wants {
		if !bytes.Contains(body, []byte(want)) {
			return fmt.Sprintf("%s: 200 without %q: %.200q", c.path, want, body)
		}
	}
	return ""
}

// viewer is one live news stream and what it heard. Its goroutine alone
// writes the fields until watch returns.
type viewer struct {
	first      chan struct{} // closed at the first news event
	events     []newsEvent
	heartbeats []time.Time
	endedAt    time.Time
	err        error // why the stream ended
	closedByUs bool  // it ended because the load did
}

// newsEvent is one news event of a stream: the ids of its articles, and
// whether the news is live.
type newsEvent struct {
	at   time.Time
	ids  []string
	live bool
}

// has reports whether the event holds every one of articles.
func (e newsEvent) has(articles []news.Article) bool {
	for _, a := range articles {
		if !slices.Contains(e.ids, a.ID) {
			return false
		}
	}
	return true
}

// arrival returns the event in which the viewer first had article id; one
// of zero time if never.
func (v *viewer) arrival(id string) newsEvent {
	for _, ev := range v.events {
		if slices.Contains(ev.ids, id) {
			return ev
		}
	}
	return newsEvent{}
}

// eventTimes lists when the viewer's news events came and whether each was
// live, as offsets from begin, for messages.
func (v *viewer) eventTimes(begin time.Time) []string {
	out := make([]string, len(v.events))
	for i, ev := range v.events {
		out[i] = fmt.Sprintf("%v live=%v", ev.at.Sub(begin).Round(time.Millisecond), ev.live)
	}
	return out
}

// watch reads stream until it ends: the end of the load (ctx) closes it.
func (v *viewer) watch(ctx context.Context, stream *ssetest.Stream) {
	context.AfterFunc(ctx, stream.Close)
	defer func() {
		v.endedAt, v.closedByUs = time.Now(), ctx.Err() != nil
		select {
		case <-v.first:
		default:
			close(v.first) // the test then finds no first event
		}
	}()
	for ev := range stream.Events() {
		switch {
		case ev.IsComment && ev.Comment == "heartbeat":
			v.heartbeats = append(v.heartbeats, ev.At)
		case ev.Type == "news":
			var snap struct {
				Articles []struct {
					ID string `json:"id"`
				} `json:"articles"`
				Live bool `json:"live"`
			}
			if err := json.Unmarshal([]byte(ev.Data), &snap); err != nil {
				v.err = fmt.Errorf("news event: %w", err)
				return
			}
			got := newsEvent{at: ev.At, live: snap.Live}
			for _, a := range snap.Articles {
				got.ids = append(got.ids, a.ID)
			}
			v.events = append(v.events, got)
			if len(v.events) == 1 {
				close(v.first)
			}
		}
	}
	v.err = stream.Err()
}

// since lists times as offsets from begin, for messages.
func since(begin time.Time, times []time.Time) []time.Duration {
	out := make([]time.Duration, len(times))
	for i, at := range times {
		out[i] = at.Sub(begin).Round(time.Millisecond)
	}
	return out
}

// healthLog is what /healthz said through the load. Its poller alone
// writes it until the load ends.
type healthLog struct {
	answers []healthAnswer
}

// healthAnswer is one answer of /healthz.
type healthAnswer struct {
	at       time.Time // when it was asked
	err      string    // what was wrong with the answer, or ""
	Status   string    `json:"status"`
	Articles int       `json:"articles"`
	AsOf     time.Time `json:"newsAsOf"`
}

// poll asks /healthz every pollEvery until ctx ends.
func (l *healthLog) poll(ctx context.Context, client *http.Client, base string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(pollEvery):
		}
		a := healthAnswer{at: time.Now()}
		err := getJSON(ctx, client, base+"/healthz", &a)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			a.err = err.Error()
		}
		l.answers = append(l.answers, a)
	}
}

// getJSON asks for url and decodes its answer, which must be 200, into v.
func getJSON(ctx context.Context, client *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }() // closing a read body cannot lose data
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// check fails t unless /healthz said "live" before the kill, "not live"
// within lostGoal of it and every time after that until the restart, with
// the seeded articles as of before the kill, and "live" again within
// resumeGoal of the return with the article written then.
func (l *healthLog) check(t *testing.T, begin, killed, restarting, back time.Time, seeded int) {
	t.Helper()
	var lostAt, liveAt time.Time
	for _, a := range l.answers {
		at := a.at.Sub(begin).Round(time.Millisecond)
		switch {
		case a.err != "":
			t.Errorf("/healthz %v into the load: %s", at, a.err)
		case a.at.Before(killed):
			if a.Status != "live" {
				t.Errorf("/healthz %v into the load, before the kill: %q, want live", at, a.Status)
			}
		case a.at.Before(restarting):
			if lostAt.IsZero() && a.Status == "not live" {
				lostAt = a.at
			}
			if lostAt.IsZero() {
				continue // Firestore just died: the server may not know yet
			}
			if a.Status != "not live" || a.Articles != seeded || !a.AsOf.Before(killed) {
				t.Errorf("/healthz %v into the load, in the outage: %q, %d articles as of %v; want not live, %d articles as of before the kill",
					at, a.Status, a.Articles, a.AsOf.Sub(begin).Round(time.Millisecond), seeded)
			}
		case a.at.After(back) && liveAt.IsZero():
			if a.Status == "live" && a.Articles == seeded+1 {
				liveAt = a.at
			}
		}
	}
	checkSaid(t, "not live", lostAt, killed, "Firestore's death", lostGoal)
	checkSaid(t, "live with the new article", liveAt, back, "Firestore's return", resumeGoal)
}

// checkSaid fails t unless /healthz first said what (at, zero if never)
// within goal of since, the moment of event.
func checkSaid(t *testing.T, what string, at, since time.Time, event string, goal time.Duration) {
	t.Helper()
	took := at.Sub(since)
	switch {
	case at.IsZero():
		t.Errorf("/healthz never said %s after %s", what, event)
	case took > goal:
		t.Errorf("/healthz said %s %v after %s, want within %v", what, took.Round(time.Millisecond), event, goal)
	default:
		t.Logf("/healthz said %s %v after %s (asked every %v)", what, took.Round(time.Millisecond), event, pollEvery)
	}
}
