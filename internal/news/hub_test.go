package news

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"

	"github.com/robohornets/robohornets/internal/testutil/watchtest"
)

// scriptedStore is a Store whose Watch the test scripts. Only Watch is
// used by the hub.
type scriptedStore struct {
	Store
	*watchtest.Script[[]Article]
}

func newScriptedStore() *scriptedStore {
	return &scriptedStore{Script: watchtest.New[[]Article]()}
}

// Watch is the script's; with Store's at the same depth, it would be ambiguous.
func (s *scriptedStore) Watch(ctx context.Context, fn func([]Article)) error {
	return s.Script.Watch(ctx, fn)
}

// article is dated in December 1999: before the start of a synctest
// bubble's clock (2000-01-01), so the hub does not hold it as scheduled.
func article(id string, day int) Article {
	return Article{ID: id, Title: "Title " + id, Date: time.Date(1999, 12, day, 12, 0, 0, 0, time.UTC), Content: "Body of **" + id + "**"}
}

type runningHub struct {
	*Hub
	store *scriptedStore
	stop  func()
}

func startHub(t *testing.T, cacheFile string) runningHub {
	t.Helper()
	store := newScriptedStore()
	hub := NewHub(HubOptions{Store: store, CacheFile: cacheFile})
	stop := runHub(hub)
	<-store.Watches
	t.Cleanup(stop)
	return runningHub{Hub: hub, store: store, stop: stop}
}

// runHub runs hub in the background; stop ends it and waits until it has.
func runHub(hub *Hub) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hub.Run(ctx)
	}()
	return func() { cancel(); <-done }
}

func TestHubRendersAndNotifies(t *testing.T) {
	// The hub runs on the real clock in a bubble, whose time moves only
	// when every goroutine waits.
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		if data, _ := json.Marshal(h.Current()); !strings.Contains(string(data), `"articles":[]`) {
			t.Fatalf("snapshot before the store answers = %s, want an empty articles array", data)
		}
		changed, unsubscribe := h.Subscribe()
		defer unsubscribe()
		if snap := h.Current(); snap.Live || len(snap.Articles) != 0 {
			t.Fatalf("before the store answers: %+v, want empty and not live", snap)
		}
		h.store.Values <- []Article{article("old", 1), article("new", 5)}
		<-changed
		snap := h.Current()
		if !snap.Live || len(snap.Articles) != 2 || snap.Articles[0].ID != "new" {
			t.Fatalf("snapshot = %+v, want live, newest first", snap)
		}
		if want := "<p>Body of <strong>new</strong></p>"; !strings.Contains(snap.Articles[0].HTML, want) {
			t.Fatalf("HTML = %q, want %q", snap.Articles[0].HTML, want)
		}
		if now := time.Now(); !snap.AsOf.Equal(now) {
			t.Fatalf("AsOf = %v, want %v", snap.AsOf, now)
		}
		if err := h.Status(); err != nil {
			t.Fatalf("Status = %v, want nil while live", err)
		}
		// An unchanged list is not news: no notification, same version.
		h.store.Values <- []Article{article("old", 1), article("new", 5)}
		h.store.Values <- []Article{article("new", 5)} // a second send proves the first was handled
		<-changed
		if got := h.Current(); len(got.Articles) != 1 || got.Version != snap.Version+1 {
			t.Fatalf("after a delete: %d articles, version %d; want 1 and %d", len(got.Articles), got.Version, snap.Version+1)
		}
	})
}

// published sends list and returns once the hub has handled it: the
// scripted store takes the next list only after fn returned for the last,
// and the same list again changes nothing and notifies nobody.
func (h runningHub) published(list []Article) {
	h.store.Values <- list
	h.store.Values <- list
}

func TestHubSlowSubscriberNeverBlocksOthers(t *testing.T) {
	h := startHub(t, "")
	slow, stopSlow := h.Subscribe() // never read while the lists arrive
	defer stopSlow()
	fast, stopFast := h.Subscribe()
	defer stopFast()
	last := []Article{article("a50", 1)}
	for i := 1; i < 50; i++ {
		h.store.Values <- []Article{article(fmt.Sprint("a", i), 1)}
	}
	h.published(last) // the store sent all 50 lists without waiting for anyone

	// Each subscriber holds exactly one pending wake-up, never a queue, and
	// waking up it reads the newest list.
	for name, ch := range map[string]<-chan struct{}{"slow": slow, "fast": fast} {
		if n := len(ch); n != 1 {
			t.Fatalf("%s subscriber has %d pending wake-ups after 50 changes, want exactly 1", name, n)
		}
		<-ch
		if n := len(ch); n != 0 {
			t.Fatalf("%s subscriber still has %d wake-ups after reading one", name, n)
		}
	}
	if got := h.Current().Articles[0].ID; got != "a50" {
		t.Fatalf("after waking up: newest is %s, want a50", got)
	}
}

func TestHubUnsubscribeEndsTheWakeUps(t *testing.T) {
	h := startHub(t, "")
	kept, stopKept := h.Subscribe()
	defer stopKept()
	var gone []<-chan struct{}
	for range 10 {
		ch, stop := h.Subscribe()
		stop()
		stop() // twice is harmless
		gone = append(gone, ch)
	}
	h.published([]Article{article("after", 1)})
	if len(kept) != 1 {
		t.Fatal("a subscriber that stayed was not woken by a change")
	}
	for i, ch := range gone {
		if len(ch) != 0 {
			t.Fatalf("subscription %d was woken after it ended", i)
		}
	}
}

func TestHubRendersOnlyChangedArticles(t *testing.T) {
	h := startHub(t, "")
	a, b := article("a", 1), article("b", 2)
	h.published([]Article{a, b})
	first := h.Current()
	b.Content = "Changed **b**"
	h.published([]Article{a, b})
	second := h.Current()
	if second.Version != first.Version+1 {
		t.Fatalf("version %d after an edit, want %d", second.Version, first.Version+1)
	}
	ra, _ := second.Article("a")
	rb, _ := second.Article("b")
	fa, _ := first.Article("a")
	if unsafe.StringData(ra.HTML) != unsafe.StringData(fa.HTML) {
		t.Error("the unchanged article was rendered again")
	}
	if !strings.Contains(rb.HTML, "Changed <strong>b</strong>") {
		t.Errorf("the edited article's HTML = %q, want the new content", rb.HTML)
	}
	var decoded Snapshot
	if err := json.Unmarshal(second.JSON, &decoded); err != nil || len(decoded.Articles) != 2 || decoded.Articles[0].HTML != rb.HTML {
		t.Fatalf("snapshot JSON = %s (%v), want both articles, newest (b) first with its new HTML", second.JSON, err)
	}
	var one Rendered
	if err := json.Unmarshal(second.ArticleJSON("b"), &one); err != nil || one.HTML != rb.HTML || one.ID != "b" {
		t.Errorf("ArticleJSON(b) = %s (%v), want the edited article", second.ArticleJSON("b"), err)
	}
	if second.ArticleJSON("missing") != nil {
		t.Error("ArticleJSON of a missing article is not nil")
	}
}

func TestHubKeepsLastGoodListAndRetries(t *testing.T) {
	// The hub runs on the real clock in a bubble, whose time moves only
	// when every goroutine waits.
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		changed, stop := h.Subscribe()
		defer stop()
		h.store.Values <- []Article{article("kept", 3)}
		<-changed

		h.store.Fail <- errors.New("network is down")
		<-changed // the list is no longer live
		snap := h.Current()
		if snap.Live || len(snap.Articles) != 1 || snap.Articles[0].ID != "kept" {
			t.Fatalf("after a store failure: %+v, want the last list, not live", snap)
		}
		if err := h.Status(); err == nil || !strings.Contains(err.Error(), "network is down") {
			t.Fatalf("Status = %v, want the store's error", err)
		}
		// The hub waits, then watches again.
		time.Sleep(time.Second)
		<-h.store.Watches
		h.store.Values <- []Article{article("kept", 3), article("fresh", 4)}
		<-changed
		if snap := h.Current(); !snap.Live || len(snap.Articles) != 2 {
			t.Fatalf("after the retry: %+v, want live with 2 articles", snap)
		}
	})
}

func TestHubRetriesSoonAfterALiveSpell(t *testing.T) {
	// The hub runs on the real clock in a bubble, whose time moves only
	// when every goroutine waits.
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		changed, stop := h.Subscribe()
		defer stop()
		down := errors.New("network is down")
		// An outage: the waits grow.
		h.store.FailAndWantRetry(t, down, time.Second, nil)
		h.store.FailAndWantRetry(t, down, 2*time.Second, nil)
		h.store.FailAndWantRetry(t, down, 4*time.Second, nil)
		// The store is live again, then fails: a new outage, retried at once.
		h.store.Values <- []Article{article("back", 3)}
		<-changed
		h.store.FailAndWantRetry(t, down, time.Second, nil)
	})
}

func TestHubWatchesAnUnreachableStoreAgainAtOnce(t *testing.T) {
	// The hub runs on the real clock in a bubble, whose time moves only
	// when every goroutine waits.
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		changed, stop := h.Subscribe()
		defer stop()
		h.published([]Article{article("kept", 3)})
		<-changed

		// The store loses its backend: the last list stays, no longer live,
		// and the store is watched again without a wait, so that the news
		// resumes as soon as the store has it again.
		lost := fmt.Errorf("news: firestore is %w", ErrUnreachable)
		h.store.FailAndWantRetry(t, lost, 0, nil)
		<-changed
		if snap := h.Current(); snap.Live || len(snap.Articles) != 1 || snap.Articles[0].ID != "kept" {
			t.Fatalf("while the store is unreachable: %+v, want the last list, not live", snap)
		}
		if err := h.Status(); !errors.Is(err, ErrUnreachable) {
			t.Fatalf("Status = %v, want ErrUnreachable", err)
		}
		h.published([]Article{article("kept", 3), article("fresh", 4)})
		<-changed
		if snap := h.Current(); !snap.Live || len(snap.Articles) != 2 || h.Status() != nil {
			t.Fatalf("after the return: %+v (%v), want live with 2 articles", snap, h.Status())
		}

		// Neither after failures that grew the hub's wait, nor does an
		// unreachable store grow it.
		down := errors.New("network is down")
		h.store.FailAndWantRetry(t, down, time.Second, nil)
		h.store.FailAndWantRetry(t, down, 2*time.Second, nil)
		h.store.FailAndWantRetry(t, lost, 0, nil)
		h.store.FailAndWantRetry(t, lost, 0, nil)
		h.store.FailAndWantRetry(t, down, 4*time.Second, nil)
	})
}

func TestHubServesTheCacheUntilTheStoreAnswers(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache", "news.json")
	first := startHub(t, cache)
	changed, stop := first.Subscribe()
	first.store.Values <- []Article{article("cached", 2)}
	<-changed
	stop()
	first.stop()
	asOf := first.Current().AsOf

	// A kiosk booting with no network: the store never answers.
	second := startHub(t, cache)
	snap := second.Current()
	if snap.Live || len(snap.Articles) != 1 || snap.Articles[0].ID != "cached" || !snap.AsOf.Equal(asOf) {
		t.Fatalf("from cache: %+v, want the cached article as of %v, not live", snap, asOf)
	}
	if snap.Articles[0].HTML == "" {
		t.Fatal("cached article lost its rendered HTML")
	}
}

func TestHubIgnoresAnUnreadableCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "news.json")
	writeRaw(t, filepath.Dir(cache), "news.json", "{not json")
	h := startHub(t, cache)
	if snap := h.Current(); len(snap.Articles) != 0 {
		t.Fatalf("snapshot from a broken cache = %+v, want empty", snap)
	}
}
