package notice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/testutil/chantest"
	"github.com/robohornets/robohornets/internal/testutil/watchtest"
)

// scriptedDB is a docstore whose Watch of Notices the test scripts. Only
// Watch is used by the hub.
type scriptedDB struct {
	docstore.DB
	*watchtest.Script[[]docstore.Doc]
}

func newScriptedDB() *scriptedDB {
	return &scriptedDB{Script: watchtest.New[[]docstore.Doc]()}
}

func (s *scriptedDB) Watch(ctx context.Context, coll string, fn func([]docstore.Doc)) error {
	if coll != Collection {
		return errors.New("watched the wrong collection " + coll)
	}
	return s.Script.Watch(ctx, fn)
}

type runningHub struct {
	*Hub
	db *scriptedDB
}

// startHub runs a hub on a scripted store until the test ends; in a
// synctest bubble it must be called inside it.
func startHub(t *testing.T) runningHub {
	t.Helper()
	db := newScriptedDB()
	h := NewHub(Options{DB: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = h.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	<-db.Watches
	return runningHub{Hub: h, db: db}
}

// doc is the pit notice's document.
func doc(t *testing.T, n Notice) []docstore.Doc {
	t.Helper()
	data, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return []docstore.Doc{{ID: "other", JSON: []byte(`{"text":"not the pit's"}`)}, {ID: ID, JSON: data}}
}

// sent sends docs and returns once the hub has handled them: the scripted
// store takes the next value only after fn returned for the last.
func (h runningHub) sent(docs []docstore.Doc) {
	h.db.Values <- docs
	h.db.Values <- docs
}

// wantText fails the test unless the hub's notice (and its JSON) has text.
func wantText(t *testing.T, h *Hub, when, text string) {
	t.Helper()
	if got := h.Current().Text; got != text {
		t.Fatalf("%s: notice %q, want %q", when, got, text)
	}
	var decoded Notice
	if err := json.Unmarshal(h.JSON(), &decoded); err != nil || decoded.Text != text {
		t.Fatalf("%s: JSON %s (%v), want text %q", when, h.JSON(), err, text)
	}
}

func TestHubFollowsTheNoticeAndTakesItDownAtItsExpiry(t *testing.T) {
	// The hub runs on the real clock in a bubble, whose time moves only
	// when every goroutine waits.
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t)
		wantText(t, h.Hub, "before the store answers", "")
		changed, stop := h.Subscribe()
		defer stop()

		until := time.Now().Add(10 * time.Minute)
		h.sent(doc(t, Notice{Text: "Pit closed for inspection", Until: until, By: "Sam", At: time.Now()}))
		<-changed
		wantText(t, h.Hub, "after the notice was written", "Pit closed for inspection")
		if got := h.Current(); !got.Until.Equal(until) || got.By != "" {
			t.Fatalf("notice = %+v, want until %v and no author (the public does not see who wrote it)", got, until)
		}
		// Encoded once per change: every viewer gets the same bytes.
		if a, b := h.JSON(), h.JSON(); unsafe.SliceData(a) != unsafe.SliceData(b) {
			t.Fatal("the notice was encoded again without a change")
		}
		// The same notice again is not news.
		h.sent(doc(t, Notice{Text: "Pit closed for inspection", Until: until, By: "Sam", At: time.Now()}))
		if len(changed) != 0 {
			t.Fatal("subscribers were woken by an unchanged notice")
		}

		time.Sleep(time.Until(until) - time.Millisecond)
		synctest.Wait()
		wantText(t, h.Hub, "a millisecond before its expiry", "Pit closed for inspection")
		time.Sleep(time.Millisecond)
		synctest.Wait()
		select {
		case <-changed:
		default:
			t.Fatal("subscribers were not woken at the expiry")
		}
		wantText(t, h.Hub, "at its expiry", "")
		if !bytes.Equal(h.JSON(), encode(Notice{})) {
			t.Fatalf("JSON after the expiry = %s, want the empty notice", h.JSON())
		}
	})
}

func TestHubFollowsAnExpiryMovedLaterOrEarlier(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t)
		start := time.Now()
		h.sent(doc(t, Notice{Text: "Back at 14:30", Until: start.Add(time.Minute)}))
		h.sent(doc(t, Notice{Text: "Back at 14:45", Until: start.Add(3 * time.Minute)}))
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		wantText(t, h.Hub, "past the first expiry, after it was moved later", "Back at 14:45")
		h.sent(doc(t, Notice{Text: "Back now", Until: start.Add(2*time.Minute + time.Second)}))
		time.Sleep(time.Second)
		synctest.Wait()
		wantText(t, h.Hub, "at the expiry moved earlier", "")
	})
}

func TestHubShowsNoExpiredOrEmptyOrMissingNotice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t)
		h.sent(doc(t, Notice{Text: "Old news", Until: time.Now().Add(-time.Second)}))
		wantText(t, h.Hub, "a notice that expired before it was read", "")
		h.sent(doc(t, Notice{Text: "Up", Until: time.Now().Add(time.Hour)}))
		wantText(t, h.Hub, "a notice in force", "Up")
		// Taken down from the console: an empty text, with who and when.
		h.sent(doc(t, Notice{By: "Sam", At: time.Now()}))
		wantText(t, h.Hub, "a notice taken down", "")
		h.sent(doc(t, Notice{Text: "Up again", Until: time.Now().Add(time.Hour)}))
		h.sent(nil)
		wantText(t, h.Hub, "the document deleted", "")
	})
}

func TestHubKeepsTheLastNoticeThroughABrokenDocumentAndAnOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startHub(t)
		until := time.Now().Add(30 * time.Second)
		h.sent(doc(t, Notice{Text: "Team at the practice field", Until: until}))
		h.sent([]docstore.Doc{{ID: ID, JSON: []byte(`{"text": 42}`)}})
		wantText(t, h.Hub, "after a broken document", "Team at the practice field")

		// The store fails: the notice stays, the hub watches again after
		// 1 s, then 2 s; and the notice still goes at its expiry.
		down := errors.New("network is down")
		retryAfter := func(wait time.Duration, text string) {
			t.Helper()
			h.db.FailAndWantRetry(t, down, wait, func() { wantText(t, h.Hub, "while the store is down", text) })
		}
		retryAfter(time.Second, "Team at the practice field")
		retryAfter(2*time.Second, "Team at the practice field")
		h.db.Fail <- down
		time.Sleep(time.Until(until))
		synctest.Wait()
		wantText(t, h.Hub, "at its expiry, with the store down", "")
		// The store's answer after a live spell resets the waits.
		<-h.db.Watches
		h.sent(nil)
		retryAfter(time.Second, "")
	})
}

func TestHubWithoutAStoreHasNoNotice(t *testing.T) {
	h := NewHub(Options{})
	if err := h.Run(context.Background()); err != nil {
		t.Fatalf("Run without a store = %v, want nil at once", err)
	}
	wantText(t, h, "without a store", "")
}

func TestHubReadsANoticeWrittenToTheLocalStore(t *testing.T) {
	// The real local store watches its files with the operating system's
	// notifications: a notice written by hand (a temporary file renamed
	// into place) reaches the hub.
	dir := t.TempDir()
	db, err := docstore.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHub(Options{DB: db})
	changed, stop := h.Subscribe()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	}()

	data, err := json.Marshal(Notice{Text: "Pit closed for inspection", Until: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	// The hub may not watch yet: write until it sees the notice.
	path := filepath.Join(dir, Collection, ID+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(filepath.Dir(path), ".pit.json.tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	// The bound is for a broken watch, not a wait.
	chantest.Until(t, changed, 10*time.Second, func() bool { return h.Current().Text != "" }, func() string {
		return "the hub did not see the notice written to the local store"
	})
	wantText(t, h, "after the file was written", "Pit closed for inspection")
}
