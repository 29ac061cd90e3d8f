package push

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
)

// results is a message of the results topic.
var results = Message{
	ID: "result/2026okok_qm44", Topic: TopicResults, Title: "Won qm44", Body: "1209 won 112–87",
	URL: "/follow", Tag: "result/qm44",
}

// TestNotifyOnceAcrossInstances: several instances, each with its own
// Notifier over one store, all notify the same message at once; each
// subscriber gets it exactly once, and the store takes one write per page.
func TestNotifyOnceAcrossInstances(t *testing.T) {
	const subs, batch, instances = 1200, 100, 4
	rc := newReceiver(t, nil)
	c := clock.NewFake(start)
	db := &countingDB{DB: openLocal(t)}
	first := newNotifier(t, db, c, Options{Batch: batch})
	seed(t, first, rc.URL, subs, TopicResults)
	notifiers := []*Notifier{first}
	for range instances - 1 {
		notifiers = append(notifiers, newNotifier(t, db, c, Options{Batch: batch}))
	}
	db.writes.Store(0)
	var wg sync.WaitGroup
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
	if got := rc.total.Load(); got != subs {
		t.Errorf("%d pushes in all, want %d", got, subs)
	}
	// One claim, then one transaction per page: 12 full pages and the
	// empty one that ends it.
	if got := db.writes.Load(); got != 1+subs/batch+1 {
		t.Errorf("%d writes, want %d", got, 1+subs/batch+1)
	}
	if got := pendingIDs(t, db); len(got) != 0 {
		t.Errorf("pending once done: %q, want none", got)
	}
	note := noteOf(t, db, results.ID)
	if !note.Done || note.Delivered != subs {
		t.Errorf("record: done %v, delivered %d; want done, %d", note.Done, note.Delivered, subs)
	}
	// A later Notify of the same message sends nothing.
	if err := notifiers[2].Notify(t.Context(), results); err != nil {
		t.Fatal(err)
	}
	if got := rc.total.Load(); got != subs {
		t.Errorf("%d pushes after a repeated Notify, want %d", got, subs)
	}
}

// TestNotifyResumesAfterCrash: the owner dies in its second page; the
// others skip while its lease holds, and once it has run out another
// instance finishes from the cursor. Everyone gets the message, the page in
// flight at most twice, and the store takes a write per page and a few.
func TestNotifyResumesAfterCrash(t *testing.T) {
	const subs, batch = 1200, 100
	c := clock.NewFake(start)
	db := &countingDB{DB: openLocal(t)}
	crashed, crash := context.WithCancel(t.Context())
	defer crash()
	rc := newReceiver(t, nil)
	owner := newNotifier(t, db, c, Options{Batch: batch, Owner: "owner", Workers: 8})
	seed(t, owner, rc.URL, subs, TopicResults)
	// The owner dies once it has recorded its first page and sent 50 of
	// the second.
	rc.answer = func(w http.ResponseWriter, r *http.Request) bool {
		if rc.total.Load() >= batch+50 {
			crash()
		}
		return true
	}
	db.writes.Store(0)
	if err := owner.Notify(crashed, results); !errors.Is(err, context.Canceled) {
		t.Fatalf("the crashed owner's Notify = %v, want context.Canceled", err)
	}
	rc.answer = nil
	if note := noteOf(t, db, results.ID); note.Done || note.Cursor == "" {
		t.Fatalf("after the crash: done %v, cursor %q; want a cursor, not done", note.Done, note.Cursor)
	}
	if got := pendingIDs(t, db); len(got) != 1 || got[0] != notificationID(results.ID) {
		t.Fatalf("pending after the crash: %q, want the notification's", got)
	}
	other := newNotifier(t, db, c, Options{Batch: batch, Owner: "other"})
	before := rc.total.Load()
	if err := other.Notify(t.Context(), results); err != nil {
		t.Fatal(err)
	}
	if err := other.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := rc.total.Load(); got != before {
		t.Fatalf("%d pushes while the owner's lease held, want none", got-before)
	}
	c.Advance(DefaultLease + time.Second)
	if err := other.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The page in flight: the second hundred by id.
	ids := make([]string, subs)
	for i := range subs {
		ids[i] = SubscriptionID(fmt.Sprintf("%s/sub/%d", rc.URL, i))
	}
	slices.Sort(ids)
	inFlight := ids[batch : 2*batch]
	twice := 0
	for i := range subs {
		switch got := rc.count(fmt.Sprintf("/sub/%d", i)); {
		case got == 0:
			t.Fatalf("subscriber %d got nothing", i)
		case got == 2 && slices.Contains(inFlight, SubscriptionID(fmt.Sprintf("%s/sub/%d", rc.URL, i))):
			twice++
		case got != 1:
			t.Fatalf("subscriber %d got %d pushes", i, got)
		}
	}
	if twice == 0 || twice > batch {
		t.Errorf("%d subscribers of the page in flight got it twice, want 1 to %d", twice, batch)
	}
	if got := pendingIDs(t, db); len(got) != 0 {
		t.Errorf("pending once done: %q, want none", got)
	}
	note := noteOf(t, db, results.ID)
	if !note.Done || note.Owner != "other" {
		t.Errorf("record: done %v, owner %q; want done by other", note.Done, note.Owner)
	}
	// Two claims, one write per page (13 with the empty last) and nothing
	// more.
	if got, most := db.writes.Load(), int64(subs/batch+1+2); got > most {
		t.Errorf("%d writes, want at most %d", got, most)
	}
}

// TestNotifyChoices: only subscribers of the message's topic get it, and
// a queue call only those whose lead matches its MatchesAhead.
func TestNotifyChoices(t *testing.T) {
	rc := newReceiver(t, nil)
	c := clock.NewFake(start)
	n := newNotifier(t, openLocal(t), c, Options{})
	subscribe := func(path string, ahead int, topics ...Topic) {
		s := newSubscription(t, rc.URL+path, topics...)
		s.MatchesAhead = ahead
		if _, _, err := n.Subscribe(t.Context(), s, "client-"+path); err != nil {
			t.Fatal(err)
		}
	}
	subscribe("/now", 0, TopicQueuing)
	subscribe("/two-ahead", 2, TopicQueuing, TopicResults)
	subscribe("/news", 0, TopicNews)
	call := Message{ID: "queue/qm44/2", Topic: TopicQueuing, Title: "qm44 in two matches", URL: "/follow",
		Urgency: UrgencyHigh, MatchesAhead: 2, Expires: start.Add(20 * time.Minute)}
	if err := n.Notify(t.Context(), call); err != nil {
		t.Fatal(err)
	}
	if err := n.Notify(t.Context(), results); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{"/now": 0, "/two-ahead": 2, "/news": 0} {
		if got := rc.count(path); got != want {
			t.Errorf("%s got %d pushes, want %d", path, got, want)
		}
	}
}

// topicAlphabet is RFC 8030's Topic: at most 32 characters of URL-safe
// base64.
var topicAlphabet = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// TestPushHeaders: Urgency, TTL, Topic, the encryption and VAPID headers.
func TestPushHeaders(t *testing.T) {
	rc := newReceiver(t, nil)
	c := clock.NewFake(start)
	n := newNotifier(t, openLocal(t), c, Options{})
	for _, p := range []string{"/a"} {
		if _, _, err := n.Subscribe(t.Context(), newSubscription(t, rc.URL+p, TopicQueuing, TopicResults), "c"); err != nil {
			t.Fatal(err)
		}
	}
	call := Message{ID: "queue/qm44/0", Topic: TopicQueuing, Title: "Queue now for qm44", URL: "https://robohornets.test/follow",
		Tag: "queue/qm44", Urgency: UrgencyHigh, Expires: start.Add(90 * time.Second)}
	superseding := call
	superseding.ID, superseding.Title, superseding.Expires = "queue/qm44/0-moved", "qm44 moved", start.Add(10*time.Minute)
	tests := []struct {
		name    string
		msg     Message
		urgency string
		ttl     string
	}{
		{"queue call", call, "high", "90"},
		{"result", results, "normal", "86400"},
		{"superseding call", superseding, "high", "600"},
	}
	var topics []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := n.Notify(t.Context(), tt.msg); err != nil {
				t.Fatal(err)
			}
			h := rc.headers("/a")
			if got := h.Get("Urgency"); got != tt.urgency {
				t.Errorf("Urgency %q, want %q", got, tt.urgency)
			}
			if got := h.Get("TTL"); got != tt.ttl {
				t.Errorf("TTL %q, want %q", got, tt.ttl)
			}
			if got := h.Get("Content-Encoding"); got != "aes128gcm" {
				t.Errorf("Content-Encoding %q, want aes128gcm", got)
			}
			if got := h.Get("Authorization"); !regexp.MustCompile(`^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]{87}$`).MatchString(got) {
				t.Errorf("Authorization %q is not VAPID's", got)
			}
			topic := h.Get("Topic")
			if !topicAlphabet.MatchString(topic) {
				t.Errorf("Topic %q is not RFC 8030's", topic)
			}
			topics = append(topics, topic)
		})
	}
	if len(topics) == 3 && (topics[0] != topics[2] || topics[0] == topics[1]) {
		t.Errorf("Topics %q: want the superseding call's the same as the call's, the result's another", topics)
	}
	// A call whose match has begun is not sent.
	late := call
	late.ID = "queue/qm45/0"
	late.Expires = start.Add(-time.Second)
	if err := n.Notify(t.Context(), late); err != nil {
		t.Fatal(err)
	}
	if got := rc.count("/a"); got != 3 {
		t.Errorf("%d pushes after a late call, want 3", got)
	}
}

// TestPushAnswers: what each answer of the push service does to the
// subscription and to the tries.
func TestPushAnswers(t *testing.T) {
	type step struct {
		status     int
		retryAfter string
	}
	tests := []struct {
		name  string
		steps []step // the answers, in order; then 201
		// wait is how far the clock must move for each retry.
		wait      []time.Duration
		delivered bool
		kept      bool
		tries     int
	}{
		{"201", nil, nil, true, true, 1},
		{"202", []step{{202, ""}}, nil, true, true, 1},
		{"404 deletes", []step{{404, ""}}, nil, false, false, 1},
		{"410 deletes", []step{{410, ""}}, nil, false, false, 1},
		{"400 gives up", []step{{400, ""}}, nil, false, true, 1},
		{"403 gives up", []step{{403, ""}}, nil, false, true, 1},
		{"413 gives up", []step{{413, ""}}, nil, false, true, 1},
		{"429 Retry-After seconds", []step{{429, "7"}}, []time.Duration{7 * time.Second}, true, true, 2},
		{"429 Retry-After date", []step{{429, start.Add(5 * time.Second).Format(http.TimeFormat)}}, []time.Duration{5 * time.Second}, true, true, 2},
		{"503 backs off", []step{{503, ""}, {500, ""}}, []time.Duration{time.Second, 2 * time.Second}, true, true, 3},
		{"5xx until the last try", []step{{503, ""}, {502, ""}, {500, ""}}, []time.Duration{time.Second, 2 * time.Second}, false, true, 3},
		{"Retry-After too far", []step{{429, "3600"}}, nil, false, true, 1},
		{"302 is no success", []step{{302, ""}}, nil, false, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			tries := 0
			redirected := newReceiver(t, nil)
			rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) bool {
				mu.Lock()
				defer mu.Unlock()
				tries++
				if tries > len(tt.steps) {
					return true
				}
				s := tt.steps[tries-1]
				if s.retryAfter != "" {
					w.Header().Set("Retry-After", s.retryAfter)
				}
				if s.status == http.StatusFound {
					w.Header().Set("Location", redirected.URL+"/sub")
				}
				w.WriteHeader(s.status)
				return false
			})
			c := clock.NewFake(start)
			db := openLocal(t)
			n := newNotifier(t, db, c, Options{})
			id, _, err := n.Subscribe(t.Context(), newSubscription(t, rc.URL+"/sub", TopicResults), "c")
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- n.Notify(t.Context(), results) }()
			for _, w := range tt.wait {
				c.BlockUntilWaiters(2) // the lease's renewal and the retry
				c.Advance(w - time.Millisecond)
				select {
				case err := <-done:
					t.Fatalf("Notify ended (%v) before the retry's wait was over", err)
				default:
				}
				c.Advance(time.Millisecond)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if tries != tt.tries {
				t.Errorf("%d tries, want %d", tries, tt.tries)
			}
			_, err = db.Get(t.Context(), SubscriptionsCollection, id)
			if kept := err == nil; kept != tt.kept {
				t.Errorf("subscription kept: %v, want %v (%v)", kept, tt.kept, err)
			}
			if !tt.kept && total(t, db) != 0 {
				t.Errorf("count %d after the deletion, want 0", total(t, db))
			}
			if redirected.total.Load() != 0 {
				t.Error("the redirect was followed")
			}
			note := noteOf(t, db, results.ID)
			if !note.Done || (note.Delivered == 1) != tt.delivered {
				t.Errorf("record: done %v, delivered %d; want done, delivered %v", note.Done, note.Delivered, tt.delivered)
			}
		})
	}
}

// TestResumePrunes: Resume deletes records older than PruneAfter, looking
// at most once per pruneEvery.
func TestResumePrunes(t *testing.T) {
	c := clock.NewFake(start)
	db := openLocal(t)
	n := newNotifier(t, db, c, Options{})
	if err := n.Notify(t.Context(), results); err != nil {
		t.Fatal(err)
	}
	c.Advance(DefaultPruneAfter - time.Minute)
	if err := n.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	noteOf(t, db, results.ID) // still there
	c.Advance(pruneEvery - time.Second)
	if err := n.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	noteOf(t, db, results.ID) // not looked at again yet
	c.Advance(time.Second)
	if err := n.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Get(t.Context(), NotificationsCollection, notificationID(results.ID)); !errors.Is(err, docstore.ErrNotFound) {
		t.Errorf("record after PruneAfter: %v, want none", err)
	}
}

// TestResumeDropsOrphans: a pending entry whose record is gone is deleted.
func TestResumeDropsOrphans(t *testing.T) {
	c := clock.NewFake(start)
	db := openLocal(t)
	n := newNotifier(t, db, c, Options{})
	if err := db.Put(t.Context(), PendingCollection, notificationID("gone"), []byte(`{"since":"2026-03-01T00:00:00Z"}`)); err != nil {
		t.Fatal(err)
	}
	if err := n.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := pendingIDs(t, db); len(got) != 0 {
		t.Errorf("pending: %q, want none", got)
	}
}

// pendingIDs lists PendingCollection.
func pendingIDs(t *testing.T, db docstore.DB) []string {
	t.Helper()
	docs, err := db.List(t.Context(), PendingCollection)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID)
	}
	return ids
}

// TestRunResumes: Run takes over a notification whose owner stopped, once
// its lease ends, and ends with its context.
func TestRunResumes(t *testing.T) {
	got := make(chan string, 1)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) bool {
		got <- r.URL.Path
		return true
	})
	c := clock.NewFake(start)
	db := openLocal(t)
	n := newNotifier(t, db, c, Options{})
	if _, _, err := n.Subscribe(t.Context(), newSubscription(t, rc.URL+"/sub", TopicResults), "c"); err != nil {
		t.Fatal(err)
	}
	// An owner that claimed the message and stopped at once.
	m, err := results.validate(n.site)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.claim(t.Context(), notificationID(m.ID), &notification{Message: m}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	ran := make(chan error, 1)
	go func() { ran <- n.Run(ctx) }()
	c.BlockUntilWaiters(1) // the first pass is over: the lease held
	select {
	case p := <-got:
		t.Fatalf("a push to %s while the lease held", p)
	default:
	}
	c.Advance(DefaultLease)
	if p := <-got; p != "/sub" {
		t.Errorf("push to %s", p)
	}
	c.BlockUntilWaiters(2) // the page's lease renewal, abandoned, and Run's next pass
	cancel()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	if !noteOf(t, db, results.ID).Done {
		t.Error("the resumed notification is not done")
	}
}

// TestLeaseKeptWhileSending: a page that takes longer than the lease keeps
// it, so no other instance takes the notification over meanwhile.
func TestLeaseKeptWhileSending(t *testing.T) {
	arrived := make(chan struct{}, 2)
	release := make(chan struct{})
	var pushes atomic.Int32
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) bool {
		arrived <- struct{}{}
		if pushes.Add(1) == 1 {
			<-release // the owner's push is slow; any other is not
		}
		return true
	})
	c := clock.NewFake(start)
	db := openLocal(t)
	owner := newNotifier(t, db, c, Options{Owner: "owner"})
	other := newNotifier(t, db, c, Options{Owner: "other"})
	if _, _, err := owner.Subscribe(t.Context(), newSubscription(t, rc.URL+"/sub", TopicResults), "c"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- owner.Notify(t.Context(), results) }()
	<-arrived
	for range 4 {
		c.BlockUntilWaiters(1) // the renewal's wait
		c.Advance(DefaultLease / 3)
	}
	c.BlockUntilWaiters(1) // the fourth renewal is made
	if err := other.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := other.Notify(t.Context(), results); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(arrived) != 0 || rc.count("/sub") != 1 {
		t.Errorf("%d more pushes arrived, %d delivered; want none more, 1", len(arrived), rc.count("/sub"))
	}
	if note := noteOf(t, db, results.ID); !note.Done || note.Owner != "owner" {
		t.Errorf("record: done %v, owner %q; want done by owner", note.Done, note.Owner)
	}
}
