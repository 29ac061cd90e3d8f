package frcevent

import (
	"io"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
	"github.com/robohornets/robohornets/internal/testutil/faultreplay"
)

const (
	// faultWindow is how long the fault tests keep upstream failing: long
	// enough for the backoff to reach its 5 min cap, and for the page to
	// call the data stale (it does past 10 min).
	faultWindow = 15 * time.Minute
	// hangTimeout replaces requestTimeout in the tests of hung requests,
	// which wait for it in real time.
	hangTimeout = 300 * time.Millisecond
)

// upstreamOf returns a copy of the upstream data h holds.
func upstreamOf(h *Hub) board.Upstream {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.up
}

// sameData reports whether a and b hold the same data and the same times
// of their last good answers, whatever their sources' health.
func sameData(a, b board.Upstream) bool {
	a.Nexus.Health, a.TBA.Health = board.Health{}, board.Health{}
	b.Nexus.Health, b.TBA.Health = board.Health{}, board.Health{}
	return reflect.DeepEqual(a, b)
}

// countAfter counts the request times after from. The first round of
// requests happens at the time a test then sets its fault: it is not counted.
func countAfter(times []time.Time, from time.Time) int {
	n := 0
	for _, at := range times {
		if at.After(from) {
			n++
		}
	}
	return n
}

// checkAbandoned checks that every hung request ended at the client's
// timeout, and that none is left in the upstream server.
func checkAbandoned(t *testing.T, e *env, timed *timings) {
	t.Helper()
	took := timed.all()
	if len(took) == 0 {
		t.Fatal("no request reached the hanging upstream")
	}
	// The server sees the client give up a moment after it does; a
	// request that outlived the timeout by seconds was not abandoned.
	for _, d := range took {
		if d < hangTimeout/2 || d > hangTimeout+2*time.Second {
			t.Errorf("a hung request lasted %v in the server; the client's timeout is %v", d, hangTimeout)
		}
	}
	t.Logf("%d hung requests, each abandoned at the %v timeout (longest %v in the server)", len(took), hangTimeout, slices.Max(took))
	for deadline := time.Now().Add(5 * time.Second); e.up.Active() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests still held by the upstream server 5 s after their clients gave up", e.up.Active())
		}
	}
}

// TestHubMemoryStaysBoundedOnHugeAnswers makes both upstreams answer 50 MiB
// for ten minutes: the hub reads each answer only up to its 4 MiB cap, so
// what it allocates, and what its heap grows by, stay near the cap, not near
// the answers' size.
func TestHubMemoryStaysBoundedOnHugeAnswers(t *testing.T) {
	e := newEnv(t, testTimeline())
	h, _ := e.runHub(t, e.options(), 2)
	good := upstreamOf(h)
	endpoints := []frcapi.Endpoint{frcapi.NexusEvent, frcapi.NexusPits, frcapi.TBATeamStatus,
		frcapi.TBATeamMatches, frcapi.TBAEvent, frcapi.TBARankings, frcapi.TBAStatus}
	answers := func() int {
		n := 0
		for _, ep := range endpoints {
			n += e.up.Count(ep)
		}
		return n
	}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	asked := answers()
	// The heap at its largest, sampled while the answers come.
	var peak uint64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	e.up.SetFault("", faultreplay.Huge)
	e.advance(10*time.Minute, 5*time.Second, 2)
	close(stop)
	<-sampled
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.GC()
	var settled runtime.MemStats
	runtime.ReadMemStats(&settled)

	n := answers() - asked
	if n < 8 {
		t.Fatalf("%d huge answers in 10 min, want the hub to keep asking", n)
	}
	perAnswer := (after.TotalAlloc - before.TotalAlloc) / uint64(n)
	grew := int64(peak) - int64(before.HeapInuse)
	kept := int64(settled.HeapInuse) - int64(before.HeapInuse)
	capCost := readCapCost()
	t.Logf("%d answers of 50 MiB: %.1f MiB allocated per answer (reading the %d MiB cap alone allocates %.1f MiB in this build); heap in use %.1f MiB before, at most %+.1f MiB while they came, %+.1f MiB after",
		n, mib(int64(perAnswer)), maxBody>>20, mib(int64(capCost)), mib(int64(before.HeapInuse)), mib(grew), mib(kept))
	// Each answer costs what reading the cap costs, and a little for the
	// connection: io.ReadAll's chunks and final copy, about twice the cap
	// (four times under the race detector).
	if perAnswer > capCost*3/2 {
		t.Errorf("%.1f MiB allocated per huge answer; reading the %d MiB cap costs %.1f MiB", mib(int64(perAnswer)), maxBody>>20, mib(int64(capCost)))
	}
	// Two answers may be read at once (Nexus and TBA poll side by side),
	// and the garbage of the last ones waits for the collector; but the
	// heap never grows by as much as one answer.
	if grew >= hugeAnswer {
		t.Errorf("heap in use grew by %.1f MiB while huge answers came, as much as one answer of %d MiB", mib(grew), hugeAnswer>>20)
	}
	if kept > maxBody {
		t.Errorf("heap in use %.1f MiB higher after the huge answers: something of them was kept", mib(kept))
	}
	if !sameData(upstreamOf(h), good) {
		t.Error("a huge answer changed the data held")
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// hugeAnswer is the size of faultreplay.Huge's answers.
const hugeAnswer = 50 << 20

// readCapCost returns the bytes allocated by reading a body of maxBody+1
// bytes the way httpGet does, in this build.
func readCapCost() uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _ = io.ReadAll(io.LimitReader(filler{}, maxBody+1))
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// filler is an endless reader of 'x', which allocates nothing.
type filler struct{}

func (filler) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestHubRidesOutFlapping makes both upstreams fail and answer by turns,
// 20 s each, for half an hour. The page never loses its data, good answers
// keep it fresh, every good answer resets the backoff, and the hub never
// asks faster than its normal pace.
func TestHubRidesOutFlapping(t *testing.T) {
	const flapEvery = 20 * time.Second
	e := newEnvWith(t, replay.Options{Timeline: testTimeline(), Loop: true}, faultreplay.Options{FlapEvery: flapEvery, FlapFault: faultreplay.Status500})
	h, _ := e.runHub(t, e.options(), 2)
	from := e.clk.Now()
	e.up.SetFault("", faultreplay.Flap)
	const window, step = 30 * time.Minute, time.Second
	for at := time.Duration(0); at < window; at += step {
		e.advance(step, step, 2)
		if s := h.Current(); s.Rank == nil || s.EventName == "" || s.NextMatch == nil || s.Pit == "" || len(s.Announcements) == 0 ||
			s.Nexus.AsOf.IsZero() || s.TBA.AsOf.IsZero() {
			t.Fatalf("%v into the flap: the page lost its data: %+v", at+step, s)
		}
	}
	bad := func(at time.Time) bool { return at.Sub(from)/flapEvery%2 == 0 }
	// Nexus's longest wait after one failure: its 30 s doubled.
	const firstFailureWait = 60 * time.Second

	times := e.up.Requests(frcapi.NexusEvent)
	var good, failed int
	for i, at := range times {
		if at.Before(from) {
			continue
		}
		if bad(at) {
			failed++
		} else {
			good++
		}
		if i+1 == len(times) {
			break
		}
		gap := times[i+1].Sub(at)
		switch {
		case !bad(at) && (gap < nexusEvery || gap > nexusEvery+step):
			t.Errorf("Nexus asked again %v after a good answer, want its normal %v", gap, nexusEvery)
		case bad(at) && i > 0 && !bad(times[i-1]) && gap > firstFailureWait+step:
			// The first failure after a good answer waits as a first
			// failure: the good answer reset the count.
			t.Errorf("Nexus asked again %v after a failure that followed a good answer, want at most %v", gap, firstFailureWait)
		case gap < nexusEvery:
			t.Errorf("Nexus asked again after %v, faster than its normal %v", gap, nexusEvery)
		}
	}
	t.Logf("Nexus in %v of flapping every %v: %d good answers, %d failures", window, flapEvery, good, failed)
	if good < 5 || failed < 5 {
		t.Fatalf("%d good answers and %d failures: want both, many times", good, failed)
	}
	if s := h.Current(); !s.TBA.AsOf.After(from.Add(window/2)) || !s.Nexus.AsOf.After(from) {
		t.Errorf("as of %v (Nexus %v, TBA %v) after %v of flapping: want data from good answers during it", s.AsOf, s.Nexus.AsOf, s.TBA.AsOf, window)
	}
	e.up.SetFault("", faultreplay.None)
	e.advance(maxBackoff+10*time.Second, 5*time.Second, 2)
	if s := h.Current(); s.Nexus.State != board.StateOK || s.TBA.State != board.StateOK {
		t.Fatalf("after the flapping: %+v / %+v", s.Nexus, s.TBA)
	}
}
