package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

// readyAnswer is the body of /readyz.
type readyAnswer struct {
	Ready     bool      `json:"ready"`
	Message   string    `json:"message"`
	Store     string    `json:"store"`
	CheckedAt time.Time `json:"checkedAt"`
	News      string    `json:"news"`
	Event     *struct {
		Configured bool   `json:"configured"`
		Nexus      string `json:"nexus"`
		TBA        string `json:"tba"`
		Stale      bool   `json:"stale"`
	} `json:"event"`
}

// readyServer is a website whose store answers as ready says, in a
// synctest bubble: the clock is Real, and its time moves only when every
// goroutine of the bubble waits.
func readyServer(ready func(context.Context) error) *server.Server {
	hub := news.NewHub(news.HubOptions{Logger: discardLogger()}) // not run: the news is not live
	return server.New(server.Options{Hub: hub, StoreName: "firestore", Ready: ready, Logger: discardLogger()})
}

// getReady asks srv for /readyz and decodes its answer.
func getReady(t *testing.T, srv http.Handler) (*http.Response, readyAnswer, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	res := rec.Result()
	var got readyAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatalf("/readyz: %d %q: %v", res.StatusCode, rec.Body.String(), err)
	}
	return res, got, rec.Body.String()
}

// errSecret is what a store says when it fails: its address and project,
// which no stranger may read.
var errSecret = errors.New("rpc error: dial tcp 10.1.2.3:8681: connection refused (project robohornets-prod-4711)")

func TestReady(t *testing.T) {
	tests := []struct {
		name       string
		ready      func(context.Context) error
		wantStatus int
		wantWait   time.Duration // how long the probe takes
	}{
		{name: "no check", ready: nil, wantStatus: http.StatusOK},
		{name: "store answers", ready: func(context.Context) error { return nil }, wantStatus: http.StatusOK},
		{name: "store fails", ready: func(context.Context) error { return errSecret }, wantStatus: http.StatusServiceUnavailable},
		{
			name:       "store hangs past the deadline",
			ready:      func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
			wantStatus: http.StatusServiceUnavailable, wantWait: server.DefaultReadyTimeout,
		},
		{
			name:       "store answers after the deadline",
			ready:      func(context.Context) error { time.Sleep(server.DefaultReadyTimeout + time.Second); return nil },
			wantStatus: http.StatusServiceUnavailable, wantWait: server.DefaultReadyTimeout,
		},
		{
			name:       "store answers just in time",
			ready:      func(context.Context) error { time.Sleep(server.DefaultReadyTimeout - time.Millisecond); return nil },
			wantStatus: http.StatusOK, wantWait: server.DefaultReadyTimeout - time.Millisecond,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := readyServer(tt.ready)
				start := time.Now()
				res, got, body := getReady(t, srv)
				if waited := time.Since(start); waited != tt.wantWait {
					t.Errorf("the probe took %v, want %v", waited, tt.wantWait)
				}
				if res.StatusCode != tt.wantStatus {
					t.Fatalf("status = %d, want %d; body %s", res.StatusCode, tt.wantStatus, body)
				}
				if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
					t.Errorf("Cache-Control = %q, want no-store", cc)
				}
				if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
					t.Errorf("Content-Type = %q", ct)
				}
				wantMessage := "the store answers"
				if tt.wantStatus != http.StatusOK {
					wantMessage = "the store is not reachable"
				}
				if got.Ready != (tt.wantStatus == http.StatusOK) || got.Message != wantMessage || got.Store != "firestore" {
					t.Errorf("ready, message, store = %v, %q, %q; want %v, %q, firestore", got.Ready, got.Message, got.Store, tt.wantStatus == http.StatusOK, wantMessage)
				}
				for _, secret := range []string{"10.1.2.3", "8681", "robohornets-prod", "rpc error", "deadline"} {
					if strings.Contains(body, secret) {
						t.Errorf("/readyz tells a stranger %q: %s", secret, body)
					}
				}
				// The news hub has not run, and the event feed is off:
				// both told, neither counted.
				if got.News != "not live" {
					t.Errorf("news = %q, want not live", got.News)
				}
				if got.Event == nil || got.Event.Configured {
					t.Errorf("event = %+v, want an event feed that is not configured", got.Event)
				}
				// A check that overran its deadline ends in its own time,
				// within the bubble.
				time.Sleep(time.Minute)
			})
		})
	}
}

// TestReadyCache floods /readyz: the store is asked once a second however
// many probes come, concurrent probes share the one check under way, and a
// store that comes back is seen at the next check.
func TestReadyCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		var failing atomic.Bool
		failing.Store(true)
		srv := readyServer(func(context.Context) error {
			calls.Add(1)
			time.Sleep(100 * time.Millisecond) // a store's round trip
			if failing.Load() {
				return errSecret
			}
			return nil
		})
		probe := func(want int) {
			t.Helper()
			if res, _, body := getReady(t, srv); res.StatusCode != want {
				t.Errorf("status = %d, want %d; body %s", res.StatusCode, want, body)
			}
		}

		// 50 probes at once: one check.
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() { probe(http.StatusServiceUnavailable) })
		}
		wg.Wait()
		if n := calls.Load(); n != 1 {
			t.Fatalf("50 concurrent probes asked the store %d times, want 1", n)
		}
		checked := time.Now() // the check ended as the probes did
		// The store is back, but the answer stands for a second.
		failing.Store(false)
		for range 9 {
			time.Sleep(100 * time.Millisecond)
			probe(http.StatusServiceUnavailable)
		}
		if n := calls.Load(); n != 1 {
			t.Fatalf("probes within a second asked the store %d times, want 1", n)
		}
		time.Sleep(time.Until(checked.Add(time.Second)))
		_, got, _ := getReady(t, srv)
		if !got.Ready || calls.Load() != 2 {
			t.Fatalf("a second after the check: ready %v after %d checks, want true after 2", got.Ready, calls.Load())
		}
		if want := checked.Add(time.Second + 100*time.Millisecond); !got.CheckedAt.Equal(want) {
			t.Errorf("checkedAt = %v, want %v (the end of the second check)", got.CheckedAt, want)
		}
		// A flood over 3 seconds, from 1.1 s after the first check: checks
		// at 2.1 s and 3.2 s (each stands a second from its end), none more.
		for range 300 {
			probe(http.StatusOK)
			time.Sleep(10 * time.Millisecond)
		}
		if n := calls.Load(); n != 4 {
			t.Errorf("300 probes over 3 s asked the store %d times in all, want 4", n)
		}
	})
}

// TestReadyRequestEnds: a probe that gives up before the store answers
// gets no answer, and the check goes on for the next probe.
func TestReadyRequestEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		srv := readyServer(func(context.Context) error {
			calls.Add(1)
			time.Sleep(time.Second)
			return nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequestWithContext(ctx, http.MethodGet, "/readyz", nil))
		if rec.Code != http.StatusServiceUnavailable {
			t.Errorf("a probe that gave up: status %d, want 503", rec.Code)
		}
		if res, got, body := getReady(t, srv); res.StatusCode != http.StatusOK || !got.Ready {
			t.Errorf("the next probe: %d %s, want 200", res.StatusCode, body)
		}
		if n := calls.Load(); n != 1 {
			t.Errorf("the store was asked %d times, want 1", n)
		}
	})
}

// TestReadyAfterShutdown: a server shutting down is not ready.
func TestReadyAfterShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := readyServer(func(ctx context.Context) error { return ctx.Err() })
		if res, _, body := getReady(t, srv); res.StatusCode != http.StatusOK {
			t.Fatalf("before shutdown: %d %s", res.StatusCode, body)
		}
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // past the cached answer
		if res, _, body := getReady(t, srv); res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("after shutdown: %d %s, want 503", res.StatusCode, body)
		}
	})
}

// TestLivenessIgnoresTheStore: /healthz stays 200 while /readyz says the
// store is gone.
func TestLivenessIgnoresTheStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := readyServer(func(context.Context) error { return errSecret })
		if res, _, _ := getReady(t, srv); res.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("/readyz: %d, want 503", res.StatusCode)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "10.1.2.3") {
			t.Errorf("/healthz: %d %s, want 200 without the store's error", rec.Code, rec.Body.String())
		}
	})
}
