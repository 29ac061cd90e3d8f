//go:build emulator

package news

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/robohornets/robohornets/internal/testutil/chantest"
)

// The Firestore cost of live news, measured against the real emulator: the
// original site gives every visitor's browser its own listener on the News
// collection; ours holds one listener per process (the hub's Watch) and fans
// it out. Both follow the same articles and the same writes in one run, and
// every document each listener receives is counted, the way Firestore bills
// listeners: every document of the first snapshot, then each one added or
// changed (billedReads).

// costScenario is one run: Articles documents present, Visitors arrive (a
// listener of their own in the original design, a hub subscriber in ours),
// then Writes changes, one after another, each reaching everyone before
// the next (as posts do, minutes apart).
type costScenario struct {
	Visitors, Articles, Writes int
}

// costResult is what the listeners of one run received.
type costResult struct {
	// Original holds the reads of each visitor's own listener.
	Original []int64
	// Ours is the reads of the process's one listener.
	Ours int64
}

func (r costResult) originalTotal() int64 {
	var n int64
	for _, v := range r.Original {
		n += v
	}
	return n
}

// costWrite is one write of the scenario; a listener or viewer has it when
// it sees document ID with Title.
type costWrite struct {
	Article
}

func (w costWrite) inSnapshot(s Snapshot) bool {
	a, ok := s.Article(w.ID)
	return ok && a.Title == w.Title
}

func (w costWrite) inChange(c firestore.DocumentChange) bool {
	if c.Kind == firestore.DocumentRemoved || c.Doc.Ref.ID != w.ID {
		return false
	}
	title, err := c.Doc.DataAt("title")
	return err == nil && title == w.Title
}

// listenersPerClient is how many visitors share one Firestore client
// (one gRPC connection): browsers have one each, but a thousand
// connections would measure the test machine, not Firestore.
const listenersPerClient = 100

// costStageTimeout bounds each stage: every visitor's first snapshot, and
// each write reaching everyone.
const costStageTimeout = 2 * time.Minute

// runCostScenario runs sc against a fresh project of the real emulator.
func runCostScenario(tb testing.TB, sc costScenario) costResult {
	tb.Helper()
	tb.Setenv("FIRESTORE_EMULATOR_HOST", emulator.Start(tb))
	project := freshProject(tb)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := OpenFirestore(ctx, project)
	if err != nil {
		tb.Fatal(err)
	}
	var (
		wg      sync.WaitGroup
		clients []*firestore.Client // the visitors' clients
	)
	defer func() {
		cancel()
		wg.Wait()
		for _, c := range clients {
			_ = c.Close()
		}
		_ = s.Close()
	}()

	for i := range sc.Articles {
		if err := s.Put(ctx, article(fmt.Sprint("a", i), i%28+1)); err != nil {
			tb.Fatal(err)
		}
	}
	// Half the writes add an article, half edit one.
	writes := make([]costWrite, sc.Writes)
	for i := range writes {
		a := article(fmt.Sprint("new", i), 28)
		if i%2 == 1 && sc.Articles > 0 {
			a = article(fmt.Sprint("a", i%sc.Articles), i%sc.Articles%28+1)
		}
		a.Title = fmt.Sprint("Write ", i)
		writes[i] = costWrite{a}
	}

	// Ours: the process starts after the articles exist, as a server does.
	hub := NewHub(HubOptions{Store: s})
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = hub.Run(ctx)
	}()
	live, stopLive := hub.Subscribe()
	chantest.Until(tb, live, costStageTimeout, func() bool {
		c := hub.Current()
		return c.Live && len(c.Articles) == sc.Articles
	}, func() string {
		return fmt.Sprintf("the hub never saw the %d articles; it has %d", sc.Articles, len(hub.Current().Articles))
	})
	stopLive()
	viewersHave := make(chan struct{}, sc.Visitors)
	for range sc.Visitors {
		changed, stop := hub.Subscribe()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer stop()
			for next := 0; ; {
				for next < len(writes) && writes[next].inSnapshot(hub.Current()) {
					viewersHave <- struct{}{}
					next++
				}
				if next == len(writes) {
					return
				}
				select {
				case <-changed:
				case <-ctx.Done():
					return
				}
			}
		}()
	}

	// The original: each visitor's own listener.
	res := costResult{Original: make([]int64, sc.Visitors)}
	listenersHave := make(chan struct{}, sc.Visitors)
	for i := range sc.Visitors {
		if i%listenersPerClient == 0 {
			c, err := firestore.NewClient(ctx, project)
			if err != nil {
				tb.Fatal(err)
			}
			clients = append(clients, c)
		}
		it := clients[len(clients)-1].Collection(Collection).Snapshots(ctx)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer it.Stop()
			next := -1 // the first snapshot is still to come
			for {
				snap, err := it.Next()
				if err != nil {
					return // ctx ended; a dropped stream is retried inside Next
				}
				res.Original[i] += billedReads(snap.Changes)
				if next < 0 && snap.Size == sc.Articles {
					listenersHave <- struct{}{}
					next = 0
				}
				for _, c := range snap.Changes {
					if next >= 0 && next < len(writes) && writes[next].inChange(c) {
						listenersHave <- struct{}{}
						next++
					}
				}
			}
		}()
	}
	await := func(ch <-chan struct{}, what string) {
		tb.Helper()
		deadline := time.After(costStageTimeout)
		for n := range sc.Visitors {
			select {
			case <-ch:
			case <-deadline:
				tb.Fatalf("only %d of %d %s within %v", n, sc.Visitors, what, costStageTimeout)
			}
		}
	}
	await(listenersHave, "visitors' listeners had their first snapshot")

	for i, w := range writes {
		if err := s.Put(ctx, w.Article); err != nil {
			tb.Fatal(err)
		}
		await(listenersHave, fmt.Sprintf("visitors' listeners saw write %d", i))
		await(viewersHave, fmt.Sprintf("hub viewers saw write %d", i))
	}
	cancel()
	wg.Wait() // every listener has stopped: its count is final
	res.Ours = s.WatchReads()
	return res
}

// TestFirestoreReadsOneListenerPerProcess checks the counting on a small
// crowd: each visitor's own listener pays for every article and every write,
// the hub's one listener pays once for all its viewers.
func TestFirestoreReadsOneListenerPerProcess(t *testing.T) {
	sc := costScenario{Visitors: 25, Articles: 20, Writes: 10}
	res := runCostScenario(t, sc)
	perListener := int64(sc.Articles + sc.Writes)
	for i, n := range res.Original {
		if n != perListener {
			t.Errorf("visitor %d's listener received %d documents, want %d (%d articles + %d writes)", i, n, perListener, sc.Articles, sc.Writes)
		}
	}
	if res.Ours != perListener {
		t.Errorf("the hub's listener received %d documents for %d viewers, want %d", res.Ours, sc.Visitors, perListener)
	}
}

// costGoal is the required saving: ours costs at least 100 times fewer reads
// than the original design (one listener per visitor).
const costGoal = 100

// BenchmarkFirestoreReads1000Visitors counts the document reads of 1,000
// visitors following the news while 20 articles exist and 10 are written:
// the original design's 1,000 listeners against our one. An op is the whole
// scenario; it fails when the ratio misses the goal.
func BenchmarkFirestoreReads1000Visitors(b *testing.B) {
	sc := costScenario{Visitors: 1000, Articles: 20, Writes: 10}
	var original, ours int64
	for b.Loop() {
		res := runCostScenario(b, sc)
		original += res.originalTotal()
		ours += res.Ours
	}
	ratio := float64(original) / float64(ours)
	b.ReportMetric(float64(original)/float64(b.N), "original-reads/op")
	b.ReportMetric(float64(ours)/float64(b.N), "our-reads/op")
	b.ReportMetric(ratio, "x-fewer-reads")
	if ratio < costGoal {
		b.Errorf("ours costs %.1fx fewer reads than one listener per visitor; the goal is %dx", ratio, costGoal)
	}
}
