package push

import (
	"fmt"
	"testing"

	"github.com/robohornets/robohornets/internal/clock"
)

// BenchmarkFanout sends one notification to 10,000 subscribers of a Local
// store, on a receiver on loopback: each op is a whole fan-out (payload,
// aes128gcm encryption and VAPID signature per subscriber, the pages and
// their transactions). It reports the pushes per second and the writes of
// the store per fan-out.
func BenchmarkFanout(b *testing.B) {
	const subs = 10_000
	rc := newReceiver(b, nil)
	c := clock.NewFake(start)
	db := &countingDB{DB: openLocal(b)}
	n := newNotifier(b, db, c, Options{})
	seed(b, n, rc.URL, subs, TopicResults)
	db.writes.Store(0)
	b.ResetTimer()
	for i := range b.N {
		m := results
		m.ID = fmt.Sprintf("bench/%d", i)
		if err := n.Notify(b.Context(), m); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if got := rc.total.Load(); got != int64(subs*b.N) {
		b.Fatalf("%d pushes, want %d", got, subs*b.N)
	}
	b.ReportMetric(float64(subs*b.N)/b.Elapsed().Seconds(), "pushes/s")
	b.ReportMetric(float64(db.writes.Load())/float64(b.N), "writes/op")
}
