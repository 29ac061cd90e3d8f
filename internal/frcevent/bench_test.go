package frcevent

import (
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/testutil/faultreplay"
)

// BenchmarkUpstreamRequestsPerHour plays one hour of an event day on the
// fake clock against the replay server, with both sources answering, and
// reports how many requests one process sends upstream: the same for one
// screen or ten thousand, since viewers only read the hub.
func BenchmarkUpstreamRequestsPerHour(b *testing.B) {
	nexus := []frcapi.Endpoint{frcapi.NexusEvent, frcapi.NexusPits}
	tba := []frcapi.Endpoint{frcapi.TBATeamStatus, frcapi.TBATeamMatches, frcapi.TBAEvent, frcapi.TBARankings, frcapi.TBAStatus}
	count := func(up *faultreplay.Replay, endpoints []frcapi.Endpoint) (n int) {
		for _, ep := range endpoints {
			n += up.Count(ep)
		}
		return n
	}
	var nexusN, tbaN int
	for b.Loop() {
		e := newEnv(b, testTimeline())
		_, stop := e.runHub(b, e.options(), 2)
		e.advance(time.Hour, time.Second, 2)
		stop()
		nexusN, tbaN = count(e.up, nexus), count(e.up, tba)
	}
	b.ReportMetric(float64(nexusN), "nexus-req/h")
	b.ReportMetric(float64(tbaN), "tba-req/h")
	b.ReportMetric(0, "ns/op") // one op is an hour of fake time: its duration says nothing
}
