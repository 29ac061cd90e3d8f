package news

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// The hub runs on the real clock in a synctest bubble, whose time moves
// only when every goroutine waits: a test sleeps to a moment and
// synctest.Wait lets the hub act on it before the test looks.

// at returns an article dated d from now.
func at(id string, d time.Duration) Article {
	return Article{ID: id, Title: "Title " + id, Date: time.Now().Add(d), Content: "Body of " + id}
}

// ids are the ids of a snapshot's articles, newest first.
func ids(s Snapshot) []string {
	out := make([]string, 0, len(s.Articles))
	for _, a := range s.Articles {
		out = append(out, a.ID)
	}
	return out
}

// sleepTo moves the bubble's clock by d and lets the hub act on it.
func sleepTo(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// wantIDs fails the test unless the hub's snapshot holds exactly want.
func wantIDs(t *testing.T, h runningHub, when string, want ...string) {
	t.Helper()
	snap := h.Current()
	if got := ids(snap); !slices.Equal(got, want) {
		t.Fatalf("%s: articles %v, want %v", when, got, want)
	}
	for _, id := range want {
		if snap.ArticleJSON(id) == nil {
			t.Fatalf("%s: no JSON for %s", when, id)
		}
	}
}

func TestHubHoldsAScheduledArticleUntilItsDate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		changed, stop := h.Subscribe()
		defer stop()
		h.published([]Article{at("now", 0), at("later", 10*time.Second)})
		<-changed
		wantIDs(t, h, "before its date", "now")
		snap := h.Current()
		if snap.ArticleJSON("later") != nil || strings.Contains(string(snap.JSON), "later") {
			t.Fatalf("the snapshot's JSON leaks the scheduled article: %s", snap.JSON)
		}

		sleepTo(10*time.Second - time.Millisecond)
		wantIDs(t, h, "a millisecond before its date", "now")
		if len(changed) != 0 {
			t.Fatal("subscribers were woken before the date")
		}
		sleepTo(time.Millisecond)
		wantIDs(t, h, "at its date", "later", "now")
		select {
		case <-changed:
		default:
			t.Fatal("subscribers were not woken at the date")
		}
		if got := h.Current(); !got.Live || got.Version != snap.Version+1 || !got.AsOf.Equal(snap.AsOf) {
			t.Fatalf("after the date: live %v, version %d, as of %v; want live, version %d, the store's time %v",
				got.Live, got.Version, got.AsOf, snap.Version+1, snap.AsOf)
		}
	})
}

func TestHubPublishesTwoScheduledArticlesInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		// Listed latest first: the hub waits for the earliest date, not the first listed.
		h.published([]Article{at("second", 20*time.Second), at("first", 5*time.Second)})
		wantIDs(t, h, "before both")
		sleepTo(5 * time.Second)
		wantIDs(t, h, "at the first date", "first")
		sleepTo(15*time.Second - time.Millisecond)
		wantIDs(t, h, "just before the second date", "first")
		sleepTo(time.Millisecond)
		wantIDs(t, h, "at the second date", "second", "first")
	})
}

func TestHubFollowsARescheduledArticle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		h.published([]Article{at("a", 10*time.Second)})
		// Moved later: the first date passes without it.
		h.published([]Article{at("a", 30*time.Second)})
		sleepTo(10 * time.Second)
		wantIDs(t, h, "at the old date, after moving it later")
		sleepTo(20 * time.Second)
		wantIDs(t, h, "at the new, later date", "a")

		// Moved earlier: it comes at the new date, not the old one.
		h.published([]Article{at("b", time.Hour)})
		wantIDs(t, h, "after b replaced a, scheduled in an hour")
		h.published([]Article{at("b", 5*time.Second)})
		sleepTo(5*time.Second - time.Millisecond)
		wantIDs(t, h, "just before the new, earlier date")
		sleepTo(time.Millisecond)
		wantIDs(t, h, "at the new, earlier date", "b")
	})
}

func TestHubShowsAnArticleMovedIntoThePastAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		changed, stop := h.Subscribe()
		defer stop()
		h.published([]Article{at("a", time.Hour)})
		<-changed
		wantIDs(t, h, "scheduled in an hour")
		h.published([]Article{at("a", -time.Second)})
		<-changed
		wantIDs(t, h, "moved into the past", "a")
	})
}

func TestHubDropsTheScheduleOfAnArticleDeletedBeforeItsDate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		h.published([]Article{at("kept", 0), at("gone", 5*time.Second)})
		h.published([]Article{at("kept", -5*time.Second)})
		snap := h.Current()
		sleepTo(time.Minute)
		if got := h.Current(); got.Version != snap.Version || !slices.Equal(ids(got), []string{"kept"}) {
			t.Fatalf("after the deleted article's date: version %d, articles %v; want version %d with only kept", got.Version, ids(got), snap.Version)
		}
	})
}

func TestHubPublishesAScheduledArticleWhileTheStoreIsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t, "")
		h.published([]Article{at("a", 10*time.Second)})
		h.store.Fail <- os.ErrDeadlineExceeded
		synctest.Wait()
		if h.Current().Live {
			t.Fatal("the list is still live after the store failed")
		}
		sleepTo(10 * time.Second)
		wantIDs(t, h, "at its date, with the store down", "a")
		if h.Current().Live {
			t.Fatal("publishing a scheduled article made the list live while the store is down")
		}
	})
}

func TestHubCacheNeverHoldsAScheduledArticle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cache := filepath.Join(t.TempDir(), "news.json")
		h := startHub(t, cache)
		h.published([]Article{at("public", 0), at("secret", 10*time.Second)})
		data, err := os.ReadFile(cache)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "public") || strings.Contains(string(data), "secret") {
			t.Fatalf("cache before the date = %s, want the public article and not the scheduled one", data)
		}
		sleepTo(10 * time.Second)
		if data, err = os.ReadFile(cache); err != nil || !strings.Contains(string(data), "secret") {
			t.Fatalf("cache after the date = %s (%v), want the article published by the schedule", data, err)
		}
	})
}

func TestHubHidesAFutureArticleOfTheCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A cache written by hand, or before the clock was set back.
		dir := t.TempDir()
		writeCacheFile(t, filepath.Join(dir, "news.json"), []Article{at("past", -time.Hour), at("future", time.Hour)})
		h := startHub(t, filepath.Join(dir, "news.json"))
		wantIDs(t, h, "from the cache", "past")
		sleepTo(time.Hour)
		wantIDs(t, h, "at the cached article's date", "future", "past")
	})
}

// writeCacheFile writes a cache file holding list.
func writeCacheFile(t *testing.T, path string, list []Article) {
	t.Helper()
	if err := os.WriteFile(path, mustJSON(cacheFile{Articles: list, AsOf: time.Now()}), 0o600); err != nil {
		t.Fatal(err)
	}
}
