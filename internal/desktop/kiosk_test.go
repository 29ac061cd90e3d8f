package desktop

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/robohornets/robohornets/internal/clock"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRotationCyclesAndPausesOnInteraction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Buffered: a navigation the rotation makes is recorded even when the
		// test does not expect one, so "no navigation" can be checked.
		navigated := make(chan string, 8)
		interactions := make(chan time.Time)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		r := Rotation{Routes: []string{"/", "/crescendo", "/news"}, Every: 30 * time.Second, PauseFor: 60 * time.Second}
		go func() {
			defer close(done)
			r.Run(ctx, clock.Real{}, interactions, nil, func(route string) { navigated <- route })
		}()
		defer func() { cancel(); <-done }()

		step := func(d time.Duration, want string) {
			t.Helper()
			time.Sleep(d)
			if got := navigatedNow(navigated); got != want {
				t.Fatalf("after %v: navigated to %q, want %q", d, got, want)
			}
		}
		step(30*time.Second, "/crescendo")
		step(30*time.Second, "/news")
		step(30*time.Second, "/") // wraps

		// A touch 10 s later pauses; 59 s after it nothing happens yet.
		time.Sleep(10 * time.Second)
		interactions <- time.Now()
		time.Sleep(20 * time.Second) // the pending 30 s wait wakes up and sleeps on
		time.Sleep(39 * time.Second)
		// The rotation waits again only after handling whatever was due, so once
		// it waits, any navigation it made is in the buffer.
		synctest.Wait()
		if len(navigated) != 0 {
			t.Fatalf("navigated to %q during the pause", <-navigated)
		}
		// The pause ends 60 s after the touch: back to the first route, then on as before.
		time.Sleep(time.Second)
		if got := navigatedNow(navigated); got != "/" {
			t.Fatalf("after the pause: %q, want /", got)
		}
		step(30*time.Second, "/crescendo")
	})
}

// navigatedNow returns the route the rotation navigated to at this moment
// of the bubble's time, once it has handled what was due; "" for none.
func navigatedNow(navigated chan string) string {
	synctest.Wait()
	select {
	case route := <-navigated:
		return route
	default:
		return ""
	}
}

func TestRotationHoldsOnThePitWhileOurMatchQueues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		navigated := make(chan string, 8)
		holds := make(chan bool)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		r := Rotation{Routes: []string{"/", "/news"}, Every: 30 * time.Second, PauseFor: 60 * time.Second, HoldRoute: "/pit"}
		go func() {
			defer close(done)
			r.Run(ctx, clock.Real{}, nil, holds, func(route string) { navigated <- route })
		}()
		defer func() { cancel(); <-done }()
		expect := func(want string) {
			t.Helper()
			if got := navigatedNow(navigated); got != want {
				t.Fatalf("navigated to %q, want %q", got, want)
			}
		}

		// Our match starts queuing 10 s in: straight to the pit display.
		time.Sleep(10 * time.Second)
		holds <- true
		expect("/pit")
		holds <- true // the same state again changes nothing
		// Two minutes of rotation intervals pass without leaving it.
		for range 4 {
			time.Sleep(30 * time.Second)
		}
		synctest.Wait()
		if len(navigated) != 0 {
			t.Fatalf("left the pit display during the hold, to %q", <-navigated)
		}
		// On field: the rotation starts over, a full interval per page.
		holds <- false
		expect("/")
		time.Sleep(30 * time.Second)
		expect("/news")
	})
}

func TestWatchdogReloadsThenGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		begin := time.Now()
		beats := make(chan time.Time)
		reloads := make(chan time.Duration, 8) // when each reload happened, since start
		result := make(chan error, 1)
		w := Watchdog{Timeout: 30 * time.Second, MaxReloads: 3}
		go func() {
			result <- w.Run(context.Background(), clock.Real{}, beats, func() { reloads <- time.Since(begin) })
		}()
		// tick moves time on by seconds, and waits until the watchdog has
		// handled what was due.
		tick := func(seconds int) {
			time.Sleep(time.Duration(seconds) * time.Second)
			synctest.Wait()
		}
		expectReload := func(at time.Duration) {
			t.Helper()
			if got := <-reloads; got != at {
				t.Fatalf("reload at %v, want %v", got, at)
			}
		}

		// A heartbeat every 20 s keeps it quiet; the last one is at 100 s.
		for range 5 {
			tick(20)
			beats <- time.Now()
		}
		tick(29)
		if len(reloads) != 0 {
			t.Fatalf("%d reloads within 30 s of a heartbeat", len(reloads))
		}
		tick(1)
		expectReload(130 * time.Second)

		// The reload brought the page back: its heartbeat resets the count.
		beats <- time.Now()
		tick(30)
		expectReload(160 * time.Second)
		tick(30)
		expectReload(190 * time.Second)
		tick(30)
		expectReload(220 * time.Second)
		// Three reloads in a row brought no heartbeat: give up 30 s later.
		tick(29)
		time.Sleep(time.Second)
		if err := <-result; !errors.Is(err, ErrHung) {
			t.Fatalf("Run = %v, want ErrHung", err)
		}
		if len(reloads) != 0 {
			t.Fatalf("%d extra reloads", len(reloads))
		}
	})
}

func TestWatchdogEndsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		result := make(chan error, 1)
		go func() {
			result <- Watchdog{Timeout: time.Second, MaxReloads: 1}.Run(ctx, clock.Real{}, nil, func() {})
		}()
		synctest.Wait()
		cancel()
		if err := <-result; err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
	})
}

func TestSchedule(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 11, 22, h, m, 0, 0, time.Local) }
	tests := []struct {
		schedule string
		t        time.Time
		want     bool
	}{
		{"22:00-06:00", at(23, 0), true},
		{"22:00-06:00", at(3, 30), true},
		{"22:00-06:00", at(6, 0), false},
		{"22:00-06:00", at(21, 59), false},
		{"22:00-06:00", at(22, 0), true},
		{"08:00-17:30", at(12, 9), true},
		{"08:00-17:30", at(17, 30), false},
		{"", at(23, 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.schedule+"@"+tt.t.Format("15:04"), func(t *testing.T) {
			s, err := ParseSchedule(tt.schedule)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Active(tt.t); got != tt.want {
				t.Fatalf("Active = %v, want %v", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"22:00", "25:00-06:00", "22:00-22:00", "night"} {
		if _, err := ParseSchedule(bad); err == nil {
			t.Errorf("ParseSchedule(%q) succeeded, want an error", bad)
		}
	}
}

func TestParseRoutes(t *testing.T) {
	got, err := ParseRoutes(" /, /crescendo ,/news,")
	if err != nil || len(got) != 3 || got[1] != "/crescendo" {
		t.Fatalf("ParseRoutes = %v, %v", got, err)
	}
	for _, bad := range []string{"", " , ", "news"} {
		if _, err := ParseRoutes(bad); err == nil {
			t.Errorf("ParseRoutes(%q) succeeded, want an error", bad)
		}
	}
}
