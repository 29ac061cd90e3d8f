package console

import (
	"net/http"
	"testing"
	"time"
)

func TestSignInAndEnrolmentAreRateLimitedPerAddress(t *testing.T) {
	f := newAuthFixture(t)
	routes := []request{
		{method: "POST", path: "/admin/api/signin/begin"},
		{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: "guess"}},
		{method: "POST", path: "/admin/api/signin/finish", body: ceremonyFinish{}},
		{method: "POST", path: "/admin/api/enrol/finish", body: ceremonyFinish{}},
	}
	const addr = "[2001:db8:1:2::10]:5000"
	for i := range signInBurst {
		rq := routes[i%len(routes)]
		rq.remote = addr
		if w := f.send(f.c, rq); w.Code == http.StatusTooManyRequests {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	for _, rq := range routes {
		// The same /64, another host: the same client.
		rq.remote = "[2001:db8:1:2::99]:6000"
		w := f.send(f.c, rq)
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "6" {
			t.Errorf("%s over the limit: %d, Retry-After %q; want 429, 6", rq.path, w.Code, w.Header().Get("Retry-After"))
		}
	}
	// Another client is not held back, and the first may go on in 6 s.
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/begin", remote: "[2001:db8:1:3::10]:5000"})
	f.clk.Advance(6 * time.Second)
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/begin", remote: addr})
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/signin/begin", remote: addr}); w.Code != http.StatusTooManyRequests {
		t.Errorf("second request after one token came back: %d, want 429", w.Code)
	}
}

func TestRateLimiterForgetsOldClientsWhenFull(t *testing.T) {
	l := newRateLimiter()
	now := authStart
	for i := range maxLimited {
		l.allow(string(rune(i)), now)
	}
	now = now.Add(time.Minute) // every bucket is full again
	if _, ok := l.allow("new", now); !ok {
		t.Fatal("new client refused")
	}
	if len(l.clients) != 1 {
		t.Errorf("%d clients remembered, want 1 after the idle ones were forgotten", len(l.clients))
	}
	for i := range 2 * maxLimited { // all busy: the map stays bounded
		l.allow(string(rune(i+1000)), now)
	}
	if len(l.clients) > maxLimited {
		t.Errorf("%d clients remembered, more than %d", len(l.clients), maxLimited)
	}
}
