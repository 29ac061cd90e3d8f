package console

import (
	"net/http"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/netaddr"
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

// Behind a trusted proxy, each client is the address the proxy saw, not
// the proxy: one client over the limit does not lock the others out.
func TestRateLimitBehindATrustedProxy(t *testing.T) {
	f := newAuthFixture(t)
	proxies, err := netaddr.ParseProxies("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c := f.console(Options{Proxies: proxies})
	through := func(client string) request {
		return request{method: "POST", path: "/admin/api/signin/begin", remote: "127.0.0.1:40000", header: http.Header{"X-Forwarded-For": {client}}}
	}
	for range signInBurst {
		f.must(c, http.StatusOK, nil, through("198.51.100.1"))
	}
	if w := f.send(c, through("198.51.100.1")); w.Code != http.StatusTooManyRequests {
		t.Errorf("the client over its limit: %d, want 429", w.Code)
	}
	f.must(c, http.StatusOK, nil, through("198.51.100.2"))
	// Without a trusted proxy, everyone behind it is one client.
	for range signInBurst {
		f.send(f.c, through("198.51.100.3"))
	}
	if w := f.send(f.c, through("198.51.100.4")); w.Code != http.StatusTooManyRequests {
		t.Errorf("no trusted proxy: another client behind it: %d, want 429 (the proxy's budget)", w.Code)
	}
}
