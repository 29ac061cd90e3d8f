package news

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// scriptedStore is a Store whose Watch sends what the test pushes and
// fails when the test says so. Only Watch is used by the hub.
type scriptedStore struct {
	Store
	lists   chan []Article
	fail    chan error
	watches chan struct{} // receives a value each time Watch starts
}

func newScriptedStore() *scriptedStore {
	return &scriptedStore{lists: make(chan []Article), fail: make(chan error), watches: make(chan struct{}, 8)}
}

func (s *scriptedStore) Watch(ctx context.Context, fn func([]Article)) error {
	s.watches <- struct{}{}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-s.fail:
			return err
		case l := <-s.lists:
			fn(l)
		}
	}
}

func article(id string, day int) Article {
	return Article{ID: id, Title: "Title " + id, Date: time.Date(2026, 1, day, 12, 0, 0, 0, time.UTC), Content: "Body of **" + id + "**"}
}

type runningHub struct {
	*Hub
	store *scriptedStore
	clock *clock.Fake
	stop  func()
}

func startHub(t *testing.T, cacheFile string) runningHub {
	t.Helper()
	store := newScriptedStore()
	fake := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	hub := NewHub(HubOptions{Store: store, CacheFile: cacheFile, Clock: fake})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hub.Run(ctx)
	}()
	<-store.watches
	stop := func() { cancel(); <-done }
	t.Cleanup(stop)
	return runningHub{Hub: hub, store: store, clock: fake, stop: stop}
}

func TestHubRendersAndNotifies(t *testing.T) {
	h := startHub(t, "")
	if data, _ := json.Marshal(h.Current()); !strings.Contains(string(data), `"articles":[]`) {
		t.Fatalf("snapshot before the store answers = %s, want an empty articles array", data)
	}
	changed, unsubscribe := h.Subscribe()
	defer unsubscribe()
	if snap := h.Current(); snap.Live || len(snap.Articles) != 0 {
		t.Fatalf("before the store answers: %+v, want empty and not live", snap)
	}
	h.store.lists <- []Article{article("old", 1), article("new", 5)}
	<-changed
	snap := h.Current()
	if !snap.Live || len(snap.Articles) != 2 || snap.Articles[0].ID != "new" {
		t.Fatalf("snapshot = %+v, want live, newest first", snap)
	}
	if want := "<p>Body of <strong>new</strong></p>"; !strings.Contains(snap.Articles[0].HTML, want) {
		t.Fatalf("HTML = %q, want %q", snap.Articles[0].HTML, want)
	}
	if !snap.AsOf.Equal(h.clock.Now()) {
		t.Fatalf("AsOf = %v, want %v", snap.AsOf, h.clock.Now())
	}
	if err := h.Status(); err != nil {
		t.Fatalf("Status = %v, want nil while live", err)
	}
	// An unchanged list is not news: no notification, same version.
	h.store.lists <- []Article{article("old", 1), article("new", 5)}
	h.store.lists <- []Article{article("new", 5)} // a second send proves the first was handled
	<-changed
	if got := h.Current(); len(got.Articles) != 1 || got.Version != snap.Version+1 {
		t.Fatalf("after a delete: %d articles, version %d; want 1 and %d", len(got.Articles), got.Version, snap.Version+1)
	}
}

func TestHubSlowSubscriberNeverBlocksOthers(t *testing.T) {
	h := startHub(t, "")
	_, stopSlow := h.Subscribe() // never read
	defer stopSlow()
	fast, stopFast := h.Subscribe()
	defer stopFast()
	for i := 1; i <= 50; i++ {
		h.store.lists <- []Article{article(fmt.Sprint("a", i), 1)}
	}
	// The store sent all 50 lists without waiting for the slow subscriber;
	// the fast one holds at most one pending wake-up, never a queue, and
	// waking up it reads the newest list.
	wakeups := 0
	for h.Current().Articles[0].ID != "a50" {
		select {
		case <-fast:
			wakeups++
		case <-time.After(10 * time.Second):
			t.Fatalf("fast subscriber never saw a50; latest is %s", h.Current().Articles[0].ID)
		}
	}
	if wakeups > 2 {
		t.Fatalf("fast subscriber woke %d times for lists it read at once, want a coalesced wake-up", wakeups)
	}
}

func TestHubUnsubscribeFreesTheSubscription(t *testing.T) {
	h := startHub(t, "")
	var stops []func()
	for range 10 {
		_, stop := h.Subscribe()
		stops = append(stops, stop)
	}
	if got := h.Subscribers(); got != 10 {
		t.Fatalf("Subscribers = %d, want 10", got)
	}
	for _, stop := range stops {
		stop()
		stop() // twice is harmless
	}
	if got := h.Subscribers(); got != 0 {
		t.Fatalf("Subscribers = %d after unsubscribing, want 0", got)
	}
}

func TestHubKeepsLastGoodListAndRetries(t *testing.T) {
	h := startHub(t, "")
	changed, stop := h.Subscribe()
	defer stop()
	h.store.lists <- []Article{article("kept", 3)}
	<-changed

	h.store.fail <- errors.New("network is down")
	<-changed // the list is no longer live
	snap := h.Current()
	if snap.Live || len(snap.Articles) != 1 || snap.Articles[0].ID != "kept" {
		t.Fatalf("after a store failure: %+v, want the last list, not live", snap)
	}
	if err := h.Status(); err == nil || !strings.Contains(err.Error(), "network is down") {
		t.Fatalf("Status = %v, want the store's error", err)
	}
	// The hub waits, then watches again.
	h.clock.BlockUntilWaiters(1)
	h.clock.Advance(time.Second)
	<-h.store.watches
	h.store.lists <- []Article{article("kept", 3), article("fresh", 4)}
	<-changed
	if snap := h.Current(); !snap.Live || len(snap.Articles) != 2 {
		t.Fatalf("after the retry: %+v, want live with 2 articles", snap)
	}
}

func TestHubServesTheCacheUntilTheStoreAnswers(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache", "news.json")
	first := startHub(t, cache)
	changed, stop := first.Subscribe()
	first.store.lists <- []Article{article("cached", 2)}
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
