//go:build emulator

package push

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

// emulator is the real Firestore emulator shared by the tests of this
// package, started on first use and stopped by TestMain.
var emulator firestoretest.Emulator

func TestMain(m *testing.M) { firestoretest.Main(m, &emulator) }

// openFirestore opens a connection of its own to project, as one serve
// instance of several would.
func openFirestore(t *testing.T, project string) docstore.DB {
	t.Helper()
	t.Setenv("FIRESTORE_EMULATOR_HOST", emulator.Start(t))
	db, err := docstore.OpenFirestore(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestNotifyOnceFirestore: instances on their own connections to one
// Firestore agree on one key and, all notifying the same message at once,
// send it to each subscriber exactly once, with one write per page.
func TestNotifyOnceFirestore(t *testing.T) {
	const subs, batch, instances = 600, 100, 3
	project := firestoretest.FreshProject(t)
	rc := newReceiver(t, nil)
	c := clock.NewFake(start)
	var notifiers []*Notifier
	var dbs []*countingDB
	keys := make([]string, instances)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range instances {
		db := &countingDB{DB: openFirestore(t, project)}
		dbs = append(dbs, db)
		wg.Go(func() {
			n := newNotifier(t, db, c, Options{Batch: batch, Owner: fmt.Sprint("instance-", i)})
			k, err := n.PublicKey(t.Context())
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			notifiers = append(notifiers, n)
			keys[i] = k
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i, k := range keys {
		if k != keys[0] {
			t.Fatalf("instance %d has key %q, instance 0 %q", i, k, keys[0])
		}
	}
	seed(t, notifiers[0], rc.URL, subs, TopicResults)
	for _, db := range dbs {
		db.writes.Store(0)
	}
	for _, n := range notifiers {
		wg.Go(func() {
			if err := n.Notify(t.Context(), results); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range subs {
		if got := rc.count(fmt.Sprintf("/sub/%d", i)); got != 1 {
			t.Fatalf("subscriber %d got %d pushes, want 1", i, got)
		}
	}
	var writes int64
	for _, db := range dbs {
		writes += db.writes.Load()
	}
	if want := int64(1 + subs/batch + 1); writes != want {
		t.Errorf("%d writes, want %d", writes, want)
	}
}
