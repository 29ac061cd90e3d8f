package frcevent

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
	"github.com/robohornets/robohornets/internal/testutil/faultreplay"
)

func notified(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestHubMergesBothSources(t *testing.T) {
	e := newEnv(t, testTimeline())
	h, _ := e.runHub(t, e.options(), 2)
	s := h.Current()
	if !s.Configured || s.EventName != "Test Regional" || s.Timezone != "America/Chicago" || s.Pit != "B12" {
		t.Fatalf("Status = %+v", s)
	}
	if s.NextMatch == nil || s.NextMatch.Label != "Qualification 2" || s.NextMatch.Status != "Queuing soon" || s.NextMatch.Alliance != "blue" {
		t.Fatalf("NextMatch = %+v", s.NextMatch)
	}
	if len(s.Recent) != 1 || s.Recent[0].Result != "win" || *s.Recent[0].RedScore != 90 {
		t.Fatalf("Recent = %+v", s.Recent)
	}
	if s.Rank == nil || *s.Rank != (board.Rank{Rank: 3, Of: 24, Record: board.Record{Wins: 1}}) {
		t.Fatalf("Rank = %+v", s.Rank)
	}
	if s.Nexus.State != board.StateOK || s.TBA.State != board.StateOK || !s.TBA.AsOf.Equal(start) {
		t.Fatalf("sources = %+v / %+v", s.Nexus, s.TBA)
	}
	if len(s.Announcements) != 1 {
		t.Fatalf("announcements = %+v, want only the one already posted", s.Announcements)
	}
	body, version := h.JSON()
	again, v2 := h.JSON()
	if &body[0] != &again[0] || version != v2 {
		t.Fatal("JSON is encoded again for a second reader")
	}
	var decoded board.Status
	if err := json.Unmarshal(body, &decoded); err != nil || decoded.EventKey != "2026test" {
		t.Fatalf("JSON = %s (%v)", body, err)
	}
}

func TestHubNotifiesOnlyOnChange(t *testing.T) {
	e := newEnv(t, testTimeline())
	h, _ := e.runHub(t, e.options(), 2)
	changed, unsubscribe := h.Subscribe()
	defer unsubscribe()

	// 30 s: Nexus answers the same data.
	e.advance(30*time.Second, time.Second, 2)
	if notified(changed) {
		t.Fatal("notified though nothing changed")
	}
	// 60 s: the announcement of 40 s and the queue call of 60 s.
	e.advance(30*time.Second, time.Second, 2)
	if !notified(changed) {
		t.Fatal("no notification for a new announcement and a queue call")
	}
	s := h.Current()
	if s.Announcements[0].ID != "a2" || s.NextMatch.Status != "Now queuing" || s.NowQueuing != "Qualification 2" {
		t.Fatalf("after 60 s: announcements %+v, next %+v, queuing %q", s.Announcements, s.NextMatch, s.NowQueuing)
	}
	// 61 s: TBA confirms its data (304s): newer AsOf, nothing to show.
	_, before := h.JSON()
	e.advance(time.Second, time.Second, 2)
	if notified(changed) {
		t.Fatal("notified for a confirmation alone")
	}
	if _, after := h.JSON(); after == before || !h.Current().TBA.AsOf.Equal(start.Add(61*time.Second)) {
		t.Fatalf("version %d -> %d, TBA AsOf %v; want the newer AsOf published", before, after, h.Current().TBA.AsOf)
	}
}

func TestHubIsPoliteToTBA(t *testing.T) {
	e := newEnv(t, testTimeline())
	e.runHub(t, e.options(), 2)
	e.advance(20*time.Minute, time.Second, 2)
	for _, ep := range []frcapi.Endpoint{frcapi.TBATeamStatus, frcapi.TBATeamMatches, frcapi.TBAEvent, frcapi.TBARankings, frcapi.TBAStatus} {
		times := e.up.Requests(ep)
		if len(times) < 2 {
			t.Errorf("%s: %d requests in 20 min, want it polled", ep, len(times))
		}
		for i := 1; i < len(times); i++ {
			if gap := times[i].Sub(times[i-1]); gap < 61*time.Second {
				t.Errorf("%s: requests %v apart, want at least 61 s", ep, gap)
			}
		}
	}
	if n := e.up.Count(frcapi.TBATeamStatus); n > 20 {
		t.Errorf("team status asked %d times in 20 min", n)
	}
	if n := e.up.Count(frcapi.NexusEvent); n < 35 || n > 41 {
		t.Errorf("Nexus asked %d times in 20 min, want about every 30 s", n)
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		base     time.Duration
		failures int
		r        float64
		want     time.Duration
	}{
		{30 * time.Second, 1, 0, 30 * time.Second},
		{30 * time.Second, 1, 0.999999, 60 * time.Second},
		{30 * time.Second, 2, 0, time.Minute},
		{30 * time.Second, 3, 0.5, 3 * time.Minute},
		{30 * time.Second, 4, 0, 150 * time.Second},
		{30 * time.Second, 40, 0.999999, 5 * time.Minute},
		{61 * time.Second, 1, 0, 61 * time.Second},
	}
	for _, tt := range tests {
		got := backoff(tt.base, tt.failures, tt.r).Round(time.Second)
		if got != tt.want {
			t.Errorf("backoff(%v, %d, %v) = %v, want %v", tt.base, tt.failures, tt.r, got, tt.want)
		}
	}
}

func TestHubBacksOffWithJitter(t *testing.T) {
	e := newEnv(t, testTimeline())
	e.up.SetFault("nexus", faultreplay.Status500)
	h, _ := e.runHub(t, e.options(), 2)
	e.advance(40*time.Minute, 5*time.Second, 2)
	times := e.up.Requests(frcapi.NexusEvent)
	var gaps []time.Duration
	for i := 1; i < len(times); i++ {
		gaps = append(gaps, times[i].Sub(times[i-1]))
	}
	t.Logf("gaps between Nexus requests while it fails: %v", gaps)
	if len(gaps) < 8 {
		t.Fatalf("gaps = %v, want retries", gaps)
	}
	// Doubling from 30 s with each delay in the upper half of its step.
	for i, lo := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 150 * time.Second} {
		if gaps[i] < lo || gaps[i] > 2*lo+5*time.Second {
			t.Errorf("gap %d = %v, want within [%v, %v]", i, gaps[i], lo, 2*lo)
		}
	}
	distinct := map[time.Duration]bool{}
	for _, g := range gaps {
		if g > maxBackoff+5*time.Second {
			t.Errorf("gap %v over the 5 min cap", g)
		}
		distinct[g] = true
	}
	if len(distinct) < len(gaps)/2 {
		t.Errorf("gaps %v: want them jittered", gaps)
	}
	if s := h.Current(); s.Nexus.State != board.StateUnreachable || s.TBA.State != board.StateOK {
		t.Errorf("sources %+v / %+v", s.Nexus, s.TBA)
	}
	// Nexus comes back: the next poll finds it and the pace is normal again.
	e.up.SetFault("nexus", faultreplay.None)
	e.advance(6*time.Minute, 5*time.Second, 2)
	if s := h.Current(); s.Nexus.State != board.StateOK {
		t.Fatalf("Nexus %+v after it came back", s.Nexus)
	}
	if got := e.nexusPollsIn(5*time.Minute, 2); got < 9 {
		t.Errorf("%d polls in 5 min after recovery, want about 10", got)
	}
}

func TestHubRefusedKeyDoesNotStorm(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.TBAKey = "wrong-tba-secret"
	opts.NexusKey = "wrong-nexus-secret"
	h, _ := e.runHub(t, opts, 2)
	endpoints := []frcapi.Endpoint{frcapi.NexusEvent, frcapi.TBATeamStatus, frcapi.TBATeamMatches, frcapi.TBAStatus}
	// At 0, 5 and 10 min: the slowest pace from the first refusal on.
	e.advance(10*time.Minute, 5*time.Second, 2)
	for _, ep := range endpoints {
		if n := e.up.Count(ep); n > 3 {
			t.Errorf("%s asked %d times in 10 min with a rejected key, want at most 3", ep, n)
		}
	}
	// 4 to 5 min apart, 30 min hold at most 8 (0, 4, …, 28 min): the
	// bound of 7 that this test had held only for the jitter its seed drew
	// before the season's polls drew some too.
	e.advance(20*time.Minute, 5*time.Second, 2)
	for _, ep := range endpoints {
		if n := e.up.Count(ep); n > 8 {
			t.Errorf("%s asked %d times in 30 min with a rejected key, want at most 8", ep, n)
		}
	}
	s := h.Current()
	if s.TBA.State != board.StateKeyRejected || s.TBA.Message != "TBA key rejected" || s.Nexus.Message != "Nexus key rejected" {
		t.Fatalf("sources = %+v / %+v", s.Nexus, s.TBA)
	}
	body, _ := h.JSON()
	for _, secret := range []string{"wrong-tba-secret", "wrong-nexus-secret"} {
		if strings.Contains(string(body), secret) || strings.Contains(e.logs.String(), secret) {
			t.Errorf("a key leaked into the Status or the log")
		}
	}
	if !strings.Contains(e.logs.String(), "key rejected") {
		t.Errorf("log does not say the key was rejected:\n%s", e.logs)
	}
}

// TestHubKeepsLastGoodDataOnBrokenAnswers breaks both upstreams every way
// the replay can for a quarter of an hour: the hub keeps the last good data
// untouched and shows it with its age, asks again only as the backoff says,
// abandons a hung request at its timeout, and takes fresh data as soon as
// upstream answers again.
func TestHubKeepsLastGoodDataOnBrokenAnswers(t *testing.T) {
	tests := []struct {
		fault faultreplay.Fault
		state board.SourceState // both sources' state while it lasts
	}{
		{faultreplay.Malformed, board.StateUnreachable},
		{faultreplay.Truncated, board.StateUnreachable},
		{faultreplay.TruncatedChunked, board.StateUnreachable},
		{faultreplay.Huge, board.StateUnreachable},
		{faultreplay.Status500, board.StateUnreachable},
		{faultreplay.Status403, board.StateKeyRejected},
		{faultreplay.Down, board.StateUnreachable},
		{faultreplay.Hang, board.StateUnreachable},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			e := newEnv(t, testTimeline())
			timed, opts := e.timed(t)
			h := NewHub(opts)
			if tt.fault == faultreplay.Hang {
				// Real time passes only while a request hangs: a short
				// timeout keeps the test short, and is checked below.
				h.nexus.timeout, h.tba.timeout = hangTimeout, hangTimeout
			}
			e.run(t, h, 2)
			good, goodUp := h.Current(), upstreamOf(h)
			from := e.clk.Now()
			e.up.SetFault("", tt.fault)
			timed.reset()
			e.advance(faultWindow, 5*time.Second, 2)

			s := h.Current()
			if s.Nexus.State != tt.state || s.TBA.State != tt.state || s.Nexus.Message == "" || s.TBA.Message == "" {
				t.Fatalf("sources = %+v / %+v, want %q with a message", s.Nexus, s.TBA, tt.state)
			}
			// The data held is the last good, untouched, and so is what
			// the page shows of it, with the time it is from: the page
			// says "Data as of" that time, and calls it stale after 10 min.
			if up := upstreamOf(h); !sameData(up, goodUp) {
				t.Errorf("upstream data changed during the fault:\n got %+v\nwant %+v", up, goodUp)
			}
			if s.Rank == nil || s.EventName != "Test Regional" || s.NextMatch == nil || s.Pit != "B12" || len(s.Announcements) == 0 {
				t.Errorf("Status = %+v, want the last good data", s)
			}
			if !s.AsOf.Equal(good.AsOf) || !s.Nexus.AsOf.Equal(good.Nexus.AsOf) || !s.TBA.AsOf.Equal(good.TBA.AsOf) {
				t.Errorf("as of %v (Nexus %v, TBA %v), want the last good data's %v (%v, %v)",
					s.AsOf, s.Nexus.AsOf, s.TBA.AsOf, good.AsOf, good.Nexus.AsOf, good.TBA.AsOf)
			}
			if age := e.clk.Now().Sub(s.AsOf); age < faultWindow {
				t.Errorf("data %v old after %v of fault", age, faultWindow)
			}
			// The requests: no more, and no fewer, than the backoff allows
			// in the 15 min (900 s) of fault, worked out by hand from
			// schedule.go. The most: a request as the fault begins, then
			// every wait its shortest; the fewest: the first one a poll
			// late plus a 5 s clock step, then every wait its longest and
			// a step late.
			//   Nexus failing (every 30 s; waits 30-60, 60-120, 120-240,
			//   then 150-300 s): the most at 0, 30, 90, 210, 360, 510, 660
			//   and 810 s; the fewest at 35, 100, 225, 470 and 775 s.
			//   TBA failing (every 61 s, never under 61 s; waits 61-122,
			//   122-244, then 150-300 s): the most at 0, 61, 183, 333, 483,
			//   633 and 783 s; the fewest at 66, 193, 442 and 747 s.
			//   Refused, either (240-300 s apart): the most at 0, 240, 480
			//   and 720 s; the fewest at 35, 340 and 645 s (Nexus) or 66,
			//   371 and 676 s (TBA).
			type bounds struct{ fewest, most int }
			nexus, tba := bounds{5, 8}, bounds{4, 7}
			if tt.state == board.StateKeyRejected {
				nexus, tba = bounds{3, 4}, bounds{3, 4}
			}
			for _, c := range []struct {
				endpoint frcapi.Endpoint
				want     bounds
			}{
				{frcapi.NexusEvent, nexus},
				{frcapi.TBATeamStatus, tba},
			} {
				n := countAfter(e.up.Requests(c.endpoint), from)
				t.Logf("%s: %d requests in %v of fault (backoff allows %d to %d)", c.endpoint, n, faultWindow, c.want.fewest, c.want.most)
				if n < c.want.fewest || n > c.want.most {
					t.Errorf("%s: %d requests in %v of fault, want %d to %d", c.endpoint, n, faultWindow, c.want.fewest, c.want.most)
				}
			}
			if tt.fault == faultreplay.Hang {
				checkAbandoned(t, e, timed)
			}

			// Upstream answers again: the next poll, at most maxBackoff
			// away, takes fresh data.
			back := e.clk.Now()
			e.up.SetFault("", faultreplay.None)
			e.advance(maxBackoff+10*time.Second, 5*time.Second, 2)
			s = h.Current()
			if s.Nexus.State != board.StateOK || s.TBA.State != board.StateOK {
				t.Fatalf("after recovery: %+v / %+v", s.Nexus, s.TBA)
			}
			if !s.Nexus.AsOf.After(good.Nexus.AsOf) || s.TBA.AsOf.Before(back) || !s.AsOf.After(good.AsOf) {
				t.Fatalf("after recovery: as of %v (Nexus %v, TBA %v), want data newer than the fault", s.AsOf, s.Nexus.AsOf, s.TBA.AsOf)
			}
		})
	}
}

func TestHubWithoutKeysAsksNothing(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.NexusKey, opts.TBAKey = "", ""
	h, stop := e.runHub(t, opts, 0)
	e.clk.Advance(10 * time.Minute)
	stop()
	s := h.Current()
	if !s.Configured || s.Nexus.State != board.StateOff || s.TBA.State != board.StateOff || s.Nexus.Message != "No Nexus key set" {
		t.Fatalf("Status = %+v", s)
	}
	if n := e.up.Count(frcapi.NexusEvent) + e.up.Count(frcapi.TBAStatus) + e.up.Count(frcapi.TBATeamEvents); n != 0 {
		t.Fatalf("%d requests without keys", n)
	}
}

// A keyless hub asks both sources and sends no key: this upstream wants
// keys, so it refuses each request.
func TestHubKeylessAsksWithoutKeys(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.NexusKey, opts.TBAKey, opts.Keyless = "", "", true
	h, _ := e.runHub(t, opts, 0)
	waitFor(t, h, "both sources asked without a key", func(s board.Status) bool {
		return s.Nexus.State == board.StateKeyRejected && s.TBA.State == board.StateKeyRejected
	})
}

func TestHubDisabled(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.Disabled = true
	opts.CacheFile = filepath.Join(t.TempDir(), "event.json")
	h, stop := e.runHub(t, opts, 0)
	e.clk.Advance(10 * time.Minute)
	stop()
	s := h.Current()
	if s.Configured || s.Message == "" || s.NextMatch != nil {
		t.Fatalf("Status = %+v, want not configured with a message", s)
	}
	for _, ep := range []frcapi.Endpoint{frcapi.NexusEvent, frcapi.NexusPits, frcapi.TBATeamStatus, frcapi.TBATeamEvents, frcapi.TBAStatus} {
		if n := e.up.Count(ep); n != 0 {
			t.Errorf("%s asked %d times while disabled", ep, n)
		}
	}
	if _, err := os.Stat(opts.CacheFile); !os.IsNotExist(err) {
		t.Errorf("cache written while disabled: %v", err)
	}
}

func TestHubCacheSurvivesRestart(t *testing.T) {
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.CacheFile = filepath.Join(t.TempDir(), "cache", "event.json")
	h1, stop := e.runHub(t, opts, 2)
	data, err := os.ReadFile(opts.CacheFile)
	if err != nil || !strings.Contains(string(data), "Test Regional") {
		t.Fatalf("cache after the first answers: %v, %.200s", err, data)
	}
	// A change is written at once.
	e.advance(time.Minute, time.Second, 2)
	if data, _ := os.ReadFile(opts.CacheFile); !strings.Contains(string(data), "Lunch moved") {
		t.Fatal("cache lacks the new announcement")
	}
	stop()
	last := h1.Current()
	if last.NowQueuing == "" || !last.QueueHold(e.clk.Now()) {
		t.Fatalf("before the restart: %+v, want our match queuing", last)
	}

	// Restart an hour later with both sources down: the cached data with
	// its age, but nothing of it passes for live.
	e.up.SetFault("", faultreplay.Down)
	e.clk.Advance(time.Hour)
	h2 := NewHub(opts)
	if s := h2.Current(); !s.AsOf.Equal(last.AsOf) || s.NextMatch == nil || s.NextMatch.Label != last.NextMatch.Label ||
		s.Rank == nil || s.Nexus.State != board.StateUnreachable || s.NowQueuing != "" || s.QueueHold(e.clk.Now()) {
		t.Fatalf("after restart: %+v\nwant the cached data, its AsOf %v, and no queue call an hour old", s, last.AsOf)
	}
	h2, _ = e.runHub(t, opts, 2)
	s := h2.Current()
	if s.Nexus.State != board.StateUnreachable || s.NextMatch == nil || s.NextMatch.Label != last.NextMatch.Label || s.Rank == nil ||
		!s.AsOf.Equal(last.AsOf) || len(s.Announcements) != 2 {
		t.Fatalf("restarted offline: %+v\nwant the cached data, its AsOf %v", s, last.AsOf)
	}
	// What only the hub keeps (our rank after each match) comes back too.
	if len(last.RankTrend) == 0 || !reflect.DeepEqual(s.RankTrend, last.RankTrend) {
		t.Fatalf("rank trend after restart: %v, want %v", s.RankTrend, last.RankTrend)
	}
}

func TestHubCacheWithoutSourcesIsNeverLive(t *testing.T) {
	// A restart moments after a queue call, with no source to answer: the
	// cached "Now queuing" must not hold the kiosk on the pit display, as
	// nothing would ever merge again to let it go.
	e := newEnv(t, testTimeline())
	opts := e.cachedAfterAMinute(t)
	opts.NexusKey, opts.TBAKey = "", ""
	e.clk.Advance(10 * time.Second)
	s := NewHub(opts).Current()
	if s.QueueHold(e.clk.Now()) || s.NowQueuing != "" || s.Nexus.State != board.StateOff {
		t.Fatalf("cached, no source: next %+v, queuing %q, Nexus %+v; want no hold", s.NextMatch, s.NowQueuing, s.Nexus)
	}
	if s.NextMatch == nil || s.NextMatch.Label != "Qualification 2" || !s.AsOf.Equal(start.Add(time.Minute)) {
		t.Fatalf("cached, no source: %+v, want the cached data with its age", s)
	}
}

func TestHubIgnoresBadCache(t *testing.T) {
	tests := []struct {
		name, content string
		event         string
	}{
		{"garbage", "{not json", "2026test"},
		{"another event", `{"status":{"eventKey":"2026else","configured":true},"upstream":{"team":1209,"configured":true,"eventKey":"2026else","nexusEventKey":"2026else"}}`, "2026test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, testTimeline())
			opts := e.options()
			opts.CacheFile = filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(opts.CacheFile, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			s := NewHub(opts).Current()
			if s.EventKey != "2026test" || s.NextMatch != nil || s.Nexus.State != board.StateUnreachable {
				t.Fatalf("Status = %+v, want a fresh start", s)
			}
			if tt.name == "garbage" && !strings.Contains(e.logs.String(), "unreadable cache") {
				t.Errorf("log = %s, want the cache error", e.logs)
			}
		})
	}
}

// TestHubReadsItsCache: the cache holds Nexus's event as Nexus sends it
// ("eventStatus", times in Unix milliseconds) and TBA's match lists as TBA
// sends them ("teamMatchList" and "eventMatchList", times in Unix
// seconds). Caches of older versions held them in shapes of their own
// under "event", "matches" and "eventMatches": a restart into this version
// keeps the rest of their data, and waits for the sources' next answers
// for those.
func TestHubReadsItsCache(t *testing.T) {
	const head = `{"upstream":{"team":1209,"configured":true,"eventKey":"2026test","nexusEventKey":"2026test",`
	cases := []struct {
		name, cache string
		check       func(t *testing.T, s board.Status, up board.Upstream)
	}{
		{"this version's: TBA's match lists as TBA sent them", head + `
			"tba":{"lastGood":"2026-03-14T19:59:30Z",
			 "teamMatchList":[{"key":"2026test_qm1","event_key":"2026test","comp_level":"qm","set_number":1,"match_number":1,
			  "alliances":{"red":{"team_keys":["frc1209","frc254","frc118"],"score":90,"surrogate_team_keys":[],"dq_team_keys":[]},
			   "blue":{"team_keys":["frc1","frc2","frc3"],"score":40,"surrogate_team_keys":[],"dq_team_keys":[]}},
			  "winning_alliance":"red","time":1773514800,"predicted_time":1773514800,"actual_time":1773515100,"post_result_time":1773515400}],
			 "eventMatchList":[{"key":"2026test_qm1","event_key":"2026test","comp_level":"qm","set_number":1,"match_number":1,
			  "alliances":{"red":{"team_keys":["frc1209","frc254","frc118"],"score":90,"surrogate_team_keys":[],"dq_team_keys":[]},
			   "blue":{"team_keys":["frc1","frc2","frc3"],"score":40,"surrogate_team_keys":[],"dq_team_keys":[]}},
			  "winning_alliance":"red","time":1773514800,"predicted_time":1773514800,"actual_time":1773515100,"post_result_time":1773515400}]}}}`,
			func(t *testing.T, s board.Status, up board.Upstream) {
				if len(s.Recent) != 1 {
					t.Fatalf("Recent = %+v, want the cached match", s.Recent)
				}
				if r := s.Recent[0]; r.Key != "2026test_qm1" || r.Label != "Qualification 1" || r.Result != "win" || *r.RedScore != 90 ||
					!reflect.DeepEqual(r.Partners, []string{"254", "118"}) || r.Times.ActualStart.Unix() != 1773515100 {
					t.Fatalf("Recent[0] = %+v, want the cached qm1, won 90-40", r)
				}
				if len(up.TBA.EventMatches) != 1 {
					t.Fatalf("event matches = %+v, want the cached one", up.TBA.EventMatches)
				}
			}},
		{"the previous version's: Nexus's event as Nexus sent it, all but its TBA match lists", head + `
			"nexus":{"lastGood":"2026-03-14T19:59:00Z","pits":{"1209":"B12"},
			 "eventStatus":{"eventKey":"2026test","dataAsOfTime":1773518340000,"nowQueuing":"Qualification 2",
			  "matches":[{"label":"Qualification 2","status":"Now queuing","redTeams":["1209","254","118"],"blueTeams":["1","2","3"],
			   "times":{"estimatedQueueTime":1773518400000},"breakAfter":null,"replayOf":null}],
			  "announcements":[{"id":"1","announcement":"Hello","postedTime":1773514800000}],
			  "partsRequests":[{"id":"7","parts":"a 4 inch wheel","requestedByTeam":"118","postedTime":1773516600000}]}},
			"tba":{"lastGood":"2026-03-14T19:59:30Z",
			 "matches":[{"key":"2026test_qm1","compLevel":"qm","setNumber":1,"matchNumber":1,"red":["1209","254","118"],"blue":["1","2","3"],
			  "redScore":90,"blueScore":40,"winningAlliance":"red","time":"2026-03-14T19:00:00Z","predictedTime":null,"actualTime":null}],
			 "eventMatches":[{"key":"2026test_qm1","compLevel":"qm","setNumber":1,"matchNumber":1,"red":["1209","254","118"],"blue":["1","2","3"],
			  "redScore":90,"blueScore":40,"winningAlliance":"red","time":"2026-03-14T19:00:00Z","predictedTime":null,"actualTime":null}]}}}`,
			func(t *testing.T, s board.Status, up board.Upstream) {
				if want := time.Date(2026, 3, 14, 19, 59, 0, 0, time.UTC); !s.Nexus.AsOf.Equal(want) || s.Pit != "B12" {
					t.Fatalf("Status = %+v, want Nexus data as of %v and the pit", s, want)
				}
				if len(s.Announcements) != 1 || s.Announcements[0].Text != "Hello" ||
					len(s.PartsRequests) != 1 || s.PartsRequests[0].Team != "118" {
					t.Fatalf("announcements %+v, parts requests %+v: want the cached ones", s.Announcements, s.PartsRequests)
				}
				if up.TBA.Matches != nil || up.TBA.EventMatches != nil || !up.TBA.LastGood.Equal(time.Date(2026, 3, 14, 19, 59, 30, 0, time.UTC)) {
					t.Fatalf("TBA data = %+v, want all but the match lists of the old shape", up.TBA)
				}
			}},
		{"an older version's: its TBA data and pits", head + `
			"nexus":{"health":{"state":"ok","message":""},"lastGood":"2026-03-14T19:59:00Z",
			 "event":{"eventKey":"2026test","dataAsOf":"2026-03-14T19:59:00Z","nowQueuing":"Qualification 2",
			  "matches":[{"label":"Qualification 2","status":"Now queuing","red":["1209","254","118"],"blue":["1","2","3"],
			   "times":{"estimatedQueue":"2026-03-14T20:00:00Z"},"breakAfter":"","replayOf":""}],
			  "announcements":[{"id":"1","text":"Hello","posted":"2026-03-14T19:00:00Z"}],"partsRequests":null},
			 "pits":{"1209":"B12"}},
			"tba":{"health":{"state":"ok","message":""},"lastGood":"2026-03-14T19:59:30Z",
			 "event":{"key":"2026test","name":"Test Regional","timezone":"America/Chicago","webcasts":null,
			  "startDate":"2026-03-13","endDate":"2026-03-15","playoffType":10},
			 "rankings":[{"team":"1209","rank":4,"record":{"wins":2,"losses":0,"ties":0},"sortOrders":[],"played":2}]}}}`,
			func(t *testing.T, s board.Status, _ board.Upstream) {
				if s.EventName != "Test Regional" || s.Rank == nil || *s.Rank != (board.Rank{Rank: 4, Of: 1, Record: board.Record{Wins: 2}}) || s.Pit != "B12" {
					t.Fatalf("Status = %+v, want the old cache's TBA data and pits", s)
				}
				if !s.Nexus.AsOf.IsZero() || len(s.Announcements) != 0 || s.NowQueuing != "" {
					t.Fatalf("Status = %+v, want nothing of the old cache's Nexus event", s)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, testTimeline())
			opts := e.options()
			opts.NexusKey, opts.TBAKey = "", ""
			opts.CacheFile = filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(opts.CacheFile, []byte(c.cache), 0o644); err != nil {
				t.Fatal(err)
			}
			h := NewHub(opts)
			c.check(t, h.Current(), upstreamOf(h))
			if strings.Contains(e.logs.String(), "unreadable cache") {
				t.Fatalf("the cache does not load:\n%s", e.logs)
			}
		})
	}
}

func TestHubSurvivesAStatusThatDoesNotEncode(t *testing.T) {
	// JSON cannot hold a year past 9999. The upstream times are kept out of
	// such years, but should one reach the merge anyway, the hub logs it,
	// keeps showing the last good Status and goes on: no panic, no lock
	// held for ever.
	e := newEnv(t, testTimeline())
	h, _ := e.runHub(t, e.options(), 2)
	before, version := h.JSON()
	h.apply(func(up *board.Upstream) { up.TBA.LastGood = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) })
	if after, v := h.JSON(); string(after) != string(before) || v != version {
		t.Fatalf("after a Status that does not encode: version %d -> %d, want the last good body", version, v)
	}
	if !strings.Contains(e.logs.String(), "cannot encode") {
		t.Errorf("log does not tell:\n%s", e.logs)
	}
	// The hub still works: the next poll of TBA replaces the bad data.
	e.advance(2*frcapi.TBAMaxAge, 5*time.Second, 2)
	if s := h.Current(); s.TBA.AsOf.After(e.clk.Now()) || s.TBA.AsOf.IsZero() {
		t.Fatalf("TBA AsOf = %v after the next poll", s.TBA.AsOf)
	}
}

func TestHubRefusesNexusDataFromTheFuture(t *testing.T) {
	e := newEnv(t, testTimeline())
	o, opts := e.withOverrides(t)
	future := start.Add(time.Hour)
	o.set("/nexus/api/v1/event/2026test", pushed(future, "from the future"))
	h, _ := e.runHub(t, opts, 2)
	s := h.Current()
	if s.Nexus.State != board.StateUnreachable || !s.Nexus.AsOf.IsZero() || s.NowQueuing != "" {
		t.Fatalf("Nexus dated an hour ahead: %+v, queuing %q; want it refused", s.Nexus, s.NowQueuing)
	}
	if !strings.Contains(e.logs.String(), "ahead of our clock") {
		t.Errorf("log does not tell of the data from the future:\n%s", e.logs)
	}
	// Once Nexus dates its data right again, it is taken.
	o.set("/nexus/api/v1/event/2026test", "")
	e.advance(time.Minute, time.Second, 2)
	if s := h.Current(); s.Nexus.State != board.StateOK || s.Nexus.AsOf.After(e.clk.Now()) || s.Nexus.AsOf.IsZero() {
		t.Fatalf("after Nexus came right: %+v", s.Nexus)
	}
	// A clock a little behind Nexus's is no reason to refuse.
	o.set("/nexus/api/v1/event/2026test", pushed(e.clk.Now().Add(maxAhead-time.Second), "a bit ahead"))
	e.advance(30*time.Second, time.Second, 2)
	if s := h.Current(); s.Nexus.State != board.StateOK || s.Announcements[0].Text != "a bit ahead" {
		t.Fatalf("Nexus a little ahead: %+v, %+v", s.Nexus, s.Announcements)
	}
}

func TestHubPollReplacesCachedDataFromTheFuture(t *testing.T) {
	// A cache from before the future was refused holds data dated an hour
	// ahead: every poll would look older than it, for an hour or for good.
	e := newEnv(t, testTimeline())
	opts := e.options()
	opts.CacheFile = filepath.Join(t.TempDir(), "event.json")
	data, err := json.Marshal(cacheFile{Upstream: board.Upstream{
		Team: 1209, Configured: true, EventKey: "2026test", NexusEventKey: "2026test",
		Nexus: board.NexusData{LastGood: start, Event: &frcapi.NexusEventStatus{EventKey: "2026test", DataAsOfTime: new(start.Add(time.Hour).UnixMilli()),
			Matches: []frcapi.NexusMatch{{Label: "Qualification 9", Status: frcapi.NowQueuing}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(opts.CacheFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	h, _ := e.runHub(t, opts, 2)
	if s := h.Current(); s.Nexus.AsOf.After(start) || s.NextMatch == nil || s.NextMatch.Label != "Qualification 2" {
		t.Fatalf("after the first poll: Nexus %+v, next %+v; want the poll's data", s.Nexus, s.NextMatch)
	}
}

func TestHubKeepsDataOnNullAnswers(t *testing.T) {
	e := newEnv(t, testTimeline())
	o, opts := e.withOverrides(t)
	h, _ := e.runHub(t, opts, 2)
	good := h.Current()
	if good.Rank == nil || good.Pit != "B12" || good.EventName == "" || len(good.Recent) == 0 {
		t.Fatalf("before: %+v", good)
	}
	// TBA answers null or [] everywhere, and so do Nexus's pits.
	o.set("/nexus/api/v1/event/2026test/pits", "null")
	for path, body := range map[string]string{
		"/tba/api/v3/team/frc1209/event/2026test/status":         "null",
		"/tba/api/v3/team/frc1209/event/2026test/matches/simple": "[]",
		"/tba/api/v3/event/2026test":                             "null",
		"/tba/api/v3/event/2026test/rankings":                    "null",
	} {
		o.set(path, body)
	}
	e.advance(11*time.Minute, 5*time.Second, 2)
	s := h.Current()
	if s.TBA.State != board.StateOK {
		t.Fatalf("TBA = %+v", s.TBA)
	}
	if s.Rank == nil || *s.Rank != *good.Rank || s.EventName != good.EventName || s.Pit != "B12" {
		t.Errorf("after null answers: rank %+v, event %q, pit %q; want the last good", s.Rank, s.EventName, s.Pit)
	}
	up := func() board.Upstream { h.mu.Lock(); defer h.mu.Unlock(); return h.up }()
	if len(up.TBA.Matches) != 3 || up.TBA.TeamStatus == nil || up.TBA.Rankings == nil || up.TBA.Event == nil {
		t.Errorf("TBA data after null answers: %+v", up.TBA)
	}
	// A null list of matches keeps them too, and a full list replaces them.
	o.set("/tba/api/v3/team/frc1209/event/2026test/matches/simple", "null")
	e.advance(2*time.Minute, 5*time.Second, 2)
	if up := func() board.Upstream { h.mu.Lock(); defer h.mu.Unlock(); return h.up }(); len(up.TBA.Matches) != 3 {
		t.Errorf("matches after null: %d, want 3", len(up.TBA.Matches))
	}
}

func TestRefusedDelayIsJittered(t *testing.T) {
	h := NewHub(Options{Disabled: true, Rand: rand.New(rand.NewPCG(3, 4))})
	refusedErr := &sourceError{board.StateKeyRejected, errors.New("401")}
	for _, p := range []*poll{
		{every: nexusEvery},
		{every: tbaStatusEvery, floor: tbaFloor},
		{every: tbaEventEvery, floor: tbaFloor},
	} {
		slowest := max(p.every, maxBackoff)
		seen := map[time.Duration]bool{}
		failures := 0
		for range 20 {
			d := h.delay(p, refusedErr, &failures)
			if d > slowest || d < slowest*4/5 || d < p.floor {
				t.Errorf("every %v: refused delay %v, want within [%v, %v]", p.every, d, slowest*4/5, slowest)
			}
			seen[d] = true
		}
		if len(seen) < 10 {
			t.Errorf("every %v: %d distinct delays in 20, want them jittered", p.every, len(seen))
		}
	}
}
