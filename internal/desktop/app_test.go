package desktop

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/testutil/syncbuf"
)

// fakeRuntime records what the App asks of the window system.
type fakeRuntime struct {
	screens   []Screen
	placement Placement

	mu      sync.Mutex
	events  []emitted
	reloads int
	quits   int
	shows   int
	holds   []Size
}

type emitted struct {
	event string
	data  any
}

func (r *fakeRuntime) Emit(event string, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, emitted{event, data})
}
func (r *fakeRuntime) Reload()                    { r.mu.Lock(); r.reloads++; r.mu.Unlock() }
func (r *fakeRuntime) Quit()                      { r.mu.Lock(); r.quits++; r.mu.Unlock() }
func (r *fakeRuntime) Show()                      { r.mu.Lock(); r.shows++; r.mu.Unlock() }
func (r *fakeRuntime) Screens() ([]Screen, error) { return r.screens, nil }
func (r *fakeRuntime) Placement() Placement {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.placement
}
func (r *fakeRuntime) Hold(s Size) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.holds = append(r.holds, s)
	r.placement = Placement{Width: s.Width, Height: s.Height}
}

// of returns the data of every event of one name, in order.
func (r *fakeRuntime) of(event string) []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []any
	for _, e := range r.events {
		if e.event == event {
			out = append(out, e.data)
		}
	}
	return out
}

func (r *fakeRuntime) counts() (reloads, quits, shows int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reloads, r.quits, r.shows
}

// oneArticle is a news store that holds one article and never changes. The
// article is dated before a synctest bubble's clock starts (2000), or the
// hub would hold it as scheduled.
type oneArticle struct{}

func (oneArticle) Watch(ctx context.Context, fn func([]news.Article)) error {
	fn([]news.Article{{ID: "kickoff", Title: "Kickoff", Date: time.Date(1999, 1, 10, 12, 0, 0, 0, time.UTC), Content: "Go!"}})
	<-ctx.Done()
	return ctx.Err()
}
func (oneArticle) List(context.Context) ([]news.Article, error) { return nil, nil }
func (oneArticle) Get(context.Context, string) (news.Article, error) {
	return news.Article{}, news.ErrNotFound
}
func (oneArticle) Put(context.Context, news.Article) error { return nil }
func (oneArticle) Delete(context.Context, string) error    { return nil }
func (oneArticle) Close() error                            { return nil }

// newTestApp returns an App of cfg on a news hub of oneArticle and event
// data turned off, and its log. The news hub runs until ctx ends from the
// first call of the returned start, which starts the App on rt.
func newTestApp(t *testing.T, ctx context.Context, cfg Config) (app *App, logs *syncbuf.Buffer, start func(rt Runtime)) {
	t.Helper()
	logs = &syncbuf.Buffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	hub := news.NewHub(news.HubOptions{Store: oneArticle{}, Logger: logger})
	events := frcevent.NewHub(frcevent.Options{Disabled: true, Logger: logger})
	app = NewApp(hub, events, clock.Real{}, logger, cfg)
	return app, logs, func(rt Runtime) {
		app.Start(ctx, rt)
		synctest.Wait() // the App subscribed to the hubs
		go func() { _ = hub.Run(ctx) }()
	}
}

func TestAppForwardsNewsAndTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		app, _, start := newTestApp(t, ctx, Config{})
		rt := &fakeRuntime{}
		start(rt)
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		got := rt.of(EventNews)
		if len(got) != 1 || len(got[0].(news.Snapshot).Articles) != 1 || got[0].(news.Snapshot).Articles[0].ID != "kickoff" {
			t.Fatalf("news events = %+v, want one list holding kickoff", got)
		}
		ticks := rt.of(EventTick)
		if len(ticks) != 2 {
			t.Fatalf("%d ticks in 2.5 s, want 2", len(ticks))
		}
		for _, tick := range ticks {
			if ms := tick.(int64); ms%1000 != 0 {
				t.Errorf("tick %d ms is not on a whole second", ms)
			}
		}
		if app.News().Articles[0].ID != "kickoff" {
			t.Errorf("News() = %+v", app.News())
		}
	})
}

func TestAppWatchdogReloadsThenGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		app, logs, start := newTestApp(t, ctx, Config{Watchdog: &Watchdog{Timeout: 30 * time.Second, MaxReloads: 3}})
		rt := &fakeRuntime{}
		start(rt)
		app.Report(PageState{Route: "/pit", Title: "Pit", Headings: []string{"Next match"}})

		time.Sleep(31 * time.Second)
		synctest.Wait()
		if reloads, quits, _ := rt.counts(); reloads != 1 || quits != 0 {
			t.Fatalf("after 31 s of silence: %d reloads, %d quits; want 1, 0", reloads, quits)
		}
		app.Report(PageState{Route: "/pit", Title: "Pit", Headings: []string{"Next match"}})
		synctest.Wait()
		if !strings.Contains(logs.String(), "the page is answering again") {
			t.Fatalf("no recovery logged:\n%s", logs)
		}

		time.Sleep(4 * 31 * time.Second)
		synctest.Wait()
		if reloads, quits, _ := rt.counts(); reloads != 4 || quits != 1 {
			t.Fatalf("after the page fell silent for good: %d reloads, %d quits; want 4 (1 + 3 failed), 1", reloads, quits)
		}
		if app.Failure() == nil {
			t.Fatal("Failure() = nil after the watchdog gave up")
		}
	})
}

func TestAppCoversTheKioskScreen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		_, logs, start := newTestApp(t, ctx, Config{Kiosk: true})
		rt := &fakeRuntime{
			screens:   []Screen{{Size: Size{Width: 1920, Height: 1080}, Primary: true}, {Size: Size{Width: 1280, Height: 720}, Current: true}},
			placement: Placement{X: 460, Y: 120, Width: 360, Height: 480},
		}
		start(rt)
		time.Sleep(5 * time.Second)
		synctest.Wait()
		rt.mu.Lock()
		holds := rt.holds
		rt.mu.Unlock()
		if len(holds) != 1 || holds[0] != (Size{Width: 1280, Height: 720}) {
			t.Fatalf("holds = %v, want the current screen's 1280x720 once", holds)
		}
		if !strings.Contains(logs.String(), "window=360x480+460+120") {
			t.Errorf("the log does not say where the window was:\n%s", logs)
		}
	})
}

func TestAppRotates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		cfg := Config{
			CountdownQuery: "at=12:09:00&debug=off",
			Rotation:       &Rotation{Routes: []string{"/news", "/whattimeisit"}, Every: 30 * time.Second, PauseFor: time.Minute},
		}
		_, _, start := newTestApp(t, ctx, cfg)
		rt := &fakeRuntime{}
		start(rt)
		time.Sleep(61 * time.Second)
		synctest.Wait()
		got := rt.of(EventNavigate)
		// The window opens on the first route; the rotation moves on from it.
		want := []any{"/whattimeisit?at=12:09:00&debug=off", "/news"}
		if len(got) != len(want) {
			t.Fatalf("navigations = %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("navigations = %v, want %v", got, want)
			}
		}
	})
}

func TestAppSettingsReportAndBringToFront(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		app, logs, start := newTestApp(t, ctx, Config{StartRoute: "/whattimeisit", CountdownQuery: "debug=off", Kiosk: true, SiteURL: "https://robohornets.example"})
		want := PageSettings{StartRoute: "/whattimeisit?debug=off", Kiosk: true, SiteURL: "https://robohornets.example"}
		if got := app.Settings(); got != want {
			t.Errorf("Settings() = %+v, want %+v", got, want)
		}

		app.BringToFront() // before the window exists: nothing to show
		rt := &fakeRuntime{}
		start(rt)
		app.BringToFront()
		if _, _, shows := rt.counts(); shows != 1 {
			t.Errorf("%d shows, want 1", shows)
		}

		state := PageState{Route: "/", Title: "Home", Headings: []string{"RoboHornets"}}
		app.Report(state)
		app.Report(state)
		state.Headings = []string{"RoboHornets", "News"}
		app.Report(state)
		if n := strings.Count(logs.String(), "msg=page "); n != 2 {
			t.Errorf("%d page lines logged for 2 changes of state:\n%s", n, logs)
		}
	})
}

// oneNotice is a docstore whose Notices hold one pit notice, up for a minute
// from the start of the watch, and never change.
type oneNotice struct{ docstore.DB }

func (oneNotice) Watch(ctx context.Context, _ string, fn func([]docstore.Doc)) error {
	fn([]docstore.Doc{{ID: notice.ID, JSON: []byte(`{"text":"Pit closed","until":"` + time.Now().Add(time.Minute).Format(time.RFC3339) + `"}`)}})
	<-ctx.Done()
	return ctx.Err()
}

func TestAppForwardsTheNoticeAndItsExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		hub := notice.NewHub(notice.Options{DB: oneNotice{}})
		_, _, start := newTestApp(t, ctx, Config{Notice: hub})
		rt := &fakeRuntime{}
		start(rt)
		go func() { _ = hub.Run(ctx) }()
		synctest.Wait()
		got := rt.of(EventNotice)
		if len(got) != 1 || got[0].(notice.Notice).Text != "Pit closed" {
			t.Fatalf("notice events = %+v, want the pit notice", got)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		got = rt.of(EventNotice)
		if len(got) != 2 || got[1].(notice.Notice).Text != "" {
			t.Fatalf("notice events after its expiry = %+v, want the empty notice last", got)
		}
	})
}
