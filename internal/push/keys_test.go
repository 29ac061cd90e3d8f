package push

import (
	"encoding/base64"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
)

// TestKeysSurviveRestart: a new Notifier on the same store directory (a
// restarted serve) has the same public key, a 65-byte uncompressed P-256
// point in URL-safe base64 without padding.
func TestKeysSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewFake(start)
	open := func() *Notifier {
		db, err := docstore.OpenLocal(dir)
		if err != nil {
			t.Fatal(err)
		}
		return newNotifier(t, db, c, Options{})
	}
	first, err := open().PublicKey(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(first)
	if err != nil || len(raw) != 65 || raw[0] != 4 {
		t.Fatalf("public key %q: %d bytes (%v), want a 65-byte uncompressed point", first, len(raw), err)
	}
	again, err := open().PublicKey(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Errorf("after a restart the key is %q, want %q", again, first)
	}
}

// TestKeysConcurrentFirstStart: instances that start at once on an empty
// store agree on one key.
func TestKeysConcurrentFirstStart(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewFake(start)
	keys := make([]string, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			db, err := docstore.OpenLocal(dir)
			if err != nil {
				t.Error(err)
				return
			}
			n, err := NewNotifier(t.Context(), Options{DB: db, Clock: c, Subject: "https://robohornets.test/contact", Logger: quiet()})
			if err != nil {
				t.Error(err)
				return
			}
			keys[i], err = n.PublicKey(t.Context())
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, k := range keys {
		if k != keys[0] || k == "" {
			t.Fatalf("instance %d has key %q, instance 0 %q", i, k, keys[0])
		}
	}
}

// TestRotate: Rotate gives a new key that every instance takes up within
// KeyCacheFor; subscriptions made with the old key are skipped and deleted
// by the next fan-out.
func TestRotate(t *testing.T) {
	rc := newReceiver(t, nil)
	c := clock.NewFake(start)
	db := openLocal(t)
	n := newNotifier(t, db, c, Options{})
	old, err := n.PublicKey(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := n.Subscribe(t.Context(), newSubscription(t, rc.URL+"/old", TopicResults), "c"); err != nil {
		t.Fatal(err)
	}
	rotated, err := Rotate(t.Context(), db, c)
	if err != nil {
		t.Fatal(err)
	}
	if rotated == old {
		t.Fatal("Rotate kept the key")
	}
	if k, _ := n.PublicKey(t.Context()); k != old {
		t.Errorf("within KeyCacheFor the key is %q, want the cached %q", k, old)
	}
	c.Advance(KeyCacheFor)
	if k, _ := n.PublicKey(t.Context()); k != rotated {
		t.Errorf("after KeyCacheFor the key is %q, want the rotated %q", k, rotated)
	}
	if _, _, err := n.Subscribe(t.Context(), newSubscription(t, rc.URL+"/new", TopicResults), "c"); err != nil {
		t.Fatal(err)
	}
	// An instance that has not taken the new key up yet (it still caches
	// the old one) sends: it must not take the new subscription for a
	// stale one.
	lagging := newNotifier(t, db, c, Options{})
	lagging.cached.Public = old
	lagging.cached.Private = "stale"
	lagging.keysUntil = c.Now().Add(time.Hour)
	if err := lagging.Notify(t.Context(), results); err != nil {
		t.Fatal(err)
	}
	if rc.count("/old") != 0 || rc.count("/new") != 1 {
		t.Errorf("pushes: old %d, new %d; want 0 and 1", rc.count("/old"), rc.count("/new"))
	}
	if _, err := db.Get(t.Context(), SubscriptionsCollection, SubscriptionID(rc.URL+"/old")); err == nil {
		t.Error("the old key's subscription is still there")
	}
	if got := total(t, db); got != 1 {
		t.Errorf("count %d, want 1", got)
	}
}

// TestNewNotifierOptions: a subject is required, in either form.
func TestNewNotifierOptions(t *testing.T) {
	db := openLocal(t)
	for subject, ok := range map[string]bool{
		"mailto:team@robohornets.test":     true,
		"https://robohornets.test/contact": true,
		"team@robohornets.test":            false,
		"http://robohornets.test":          false,
		"":                                 false,
		"mailto:":                          false,
	} {
		_, err := NewNotifier(t.Context(), Options{DB: db, Subject: subject, Clock: clock.NewFake(start)})
		if (err == nil) != ok {
			t.Errorf("subject %q: %v, want ok %v", subject, err, ok)
		}
	}
	if librarySubject("mailto:team@robohornets.test") != "team@robohornets.test" {
		t.Error("the mailto: subject goes to webpush-go with its scheme, which it adds again")
	}
}
