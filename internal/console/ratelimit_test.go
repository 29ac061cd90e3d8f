package console

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
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

// ipv4 is the i-th of a range of distinct IPv4 addresses.
func ipv4(i int) string { return fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255) }

func TestRateLimiterForgetsIdleClientsWhenFull(t *testing.T) {
	l := newRateLimiter()
	now := authStart
	for i := range maxLimited {
		l.allow(ipv4(i), now)
	}
	now = now.Add(time.Minute) // every budget is full again
	if _, ok := l.allow("192.0.2.1", now); !ok {
		t.Fatal("new client refused")
	}
	if len(l.budgets) != 1 {
		t.Errorf("%d budgets remembered, want 1 after the idle ones were forgotten", len(l.budgets))
	}
	for i := range 2 * maxLimited { // all busy: the memory stays bounded
		l.allow(ipv4(maxLimited+i), now)
	}
	if len(l.budgets) != maxLimited {
		t.Errorf("%d budgets remembered, want %d", len(l.budgets), maxLimited)
	}
}

// An attacker that keeps trying keeps its empty budget, however many other
// addresses come and go while the memory is full: eviction forgets the
// least recently used budget, never one at random.
func TestRateLimiterKeepsTheCountOfAClientThatKeepsTrying(t *testing.T) {
	l := newRateLimiter()
	now := authStart
	const attacker = "192.0.2.66"
	for range signInBurst {
		l.allow(attacker, now)
	}
	for i := range 10 * maxLimited {
		l.allow(ipv4(i), now)
		if _, ok := l.allow(attacker, now); ok {
			t.Fatalf("the attacker's budget was forgotten after %d other addresses; want it kept while it keeps trying", i+1)
		}
	}
	// The budgets that went were the least recently used: the newest
	// addresses are still counted, the oldest are not.
	if _, ok := l.budgets[ipv4(10*maxLimited-1)]; !ok {
		t.Error("the most recent address was forgotten")
	}
	if _, ok := l.budgets[ipv4(0)]; ok {
		t.Error("the least recently used address is still remembered")
	}
}

// An IPv6 site (a /48) shares a budget of netaddr.SiteShare clients: one
// that changes its /64 at every request gets 160 requests, not 65,536
// clients' worth, while another site is not held back.
func TestSignInLimitPerIPv6Site(t *testing.T) {
	f := newAuthFixture(t)
	codes := map[int]int{}
	for i := range 1000 {
		w := f.send(f.c, request{method: "POST", path: "/admin/api/signin/begin", remote: fmt.Sprintf("[2001:db8:7:%x::1]:5000", i)})
		codes[w.Code]++
	}
	if want := map[int]int{200: 160, 429: 840}; !maps.Equal(codes, want) {
		t.Errorf("1,000 sign-ins from 1,000 /64s of one /48: status counts %v, want %v", codes, want)
	}
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/signin/begin", remote: "[2001:db8:7:ffff::1]:5000"}); w.Code != http.StatusTooManyRequests {
		t.Errorf("a fresh /64 of the same /48: %d, want 429", w.Code)
	}
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/begin", remote: "[2001:db8:8::1]:5000"})
}

// Behind Cloud Run's front end every request comes from the front end's
// address; with --trusted-proxy-hops 1 the client is the address the front
// end appends to X-Forwarded-For. A flood of anonymous sign-ins from one
// client, which also forges addresses of its own before the front end's,
// does not delay a member's sign-in from another: it completes at once
// (the clock never moves).
func TestSignInFloodBehindOneProxyDoesNotDelayAMember(t *testing.T) {
	f := newAuthFixture(t)
	key, _, _ := f.member(RoleAdmin, "Ada")
	c := f.console(Options{Proxies: netaddr.Proxies{Hops: 1}})
	const frontEnd = "169.254.8.1:41000"
	codes := map[int]int{}
	for i := range 1000 {
		forged := fmt.Sprintf("203.0.113.%d", i%250)
		w := f.send(c, request{method: "POST", path: "/admin/api/signin/begin", remote: frontEnd,
			header: http.Header{"X-Forwarded-For": {forged + ", 198.51.100.66"}}})
		codes[w.Code]++
	}
	if want := map[int]int{200: 10, 429: 990}; !maps.Equal(codes, want) {
		t.Errorf("1,000 anonymous sign-ins from one client: status counts %v, want %v", codes, want)
	}
	member := http.Header{"X-Forwarded-For": {"192.0.2.10"}}
	var cer Ceremony
	f.must(c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/signin/begin", remote: frontEnd, header: member})
	w := f.must(c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/finish", body: f.assert(key, cer), remote: frontEnd, header: member})
	sessionCookieOf(t, w)
	// The audit log names the member's address, not the front end's.
	var addrs []string
	for _, d := range f.docs(collAudit) {
		var e AuditEntry
		if err := json.Unmarshal(d.JSON, &e); err != nil {
			t.Fatal(err)
		}
		if e.Action == "sign-in" {
			addrs = append(addrs, e.Addr)
		}
	}
	if want := []string{"192.0.2.10"}; !slices.Equal(addrs, want) {
		t.Errorf("sign-in audit addresses %q, want %q", addrs, want)
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
