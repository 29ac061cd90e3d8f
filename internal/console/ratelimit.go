package console

import (
	"container/list"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/netaddr"

	"golang.org/x/time/rate"
)

// The limit of sign-in and enrolment requests per client (an IPv4 address
// or an IPv6 /64): a burst of signInBurst, then signInPerMinute a minute.
// A person needs two requests (begin and finish) per attempt. An IPv6 /48
// has netaddr.SiteShare times that budget, shared by all its /64s.
const (
	signInPerMinute = 10
	signInBurst     = 10
	// maxLimited bounds the budgets (of clients and of sites) remembered by
	// one instance.
	maxLimited = 10_000
)

// rateLimiter limits requests per client and per IPv6 site, in memory:
// each instance counts its own clients. It remembers at most maxLimited
// budgets, and forgets the least recently used first.
type rateLimiter struct {
	mu    sync.Mutex
	limit rate.Limit
	burst int
	// refill is how long an unused budget takes to be full again: the same
	// for a client's and a site's, whose rate and burst are both scaled.
	refill  time.Duration
	budgets map[string]*list.Element // of *budget, in recent
	// recent orders the budgets by their last use, the latest in front.
	recent *list.List
}

// budget is the token bucket of one client or site.
type budget struct {
	key  string
	lim  *rate.Limiter
	last time.Time
}

func newRateLimiter() *rateLimiter {
	limit := rate.Limit(signInPerMinute) / 60
	return &rateLimiter{
		limit:   limit,
		burst:   signInBurst,
		refill:  time.Duration(float64(signInBurst) / float64(limit) * float64(time.Second)),
		budgets: make(map[string]*list.Element),
		recent:  list.New(),
	}
}

// allow takes one request of the client at addr (Proxies.Peer) at now from
// its own budget and, for IPv6, from its /48's, or returns how long to
// wait. The site's budget is asked first, so that a site over its budget
// does not fill the memory with the budgets of its /64s.
func (l *rateLimiter) allow(addr string, now time.Time) (time.Duration, bool) {
	client, site := netaddr.Keys(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	var fromSite *rate.Reservation
	if site != "" {
		res, wait := l.take(site, netaddr.SiteShare, now)
		if wait > 0 {
			return wait, false
		}
		fromSite = res
	}
	if _, wait := l.take(client, 1, now); wait > 0 {
		if fromSite != nil {
			fromSite.CancelAt(now) // a refused request costs its site nothing
		}
		return wait, false
	}
	return 0, true
}

// take takes one token at now from the budget of key, made with share
// times a client's rate and burst when it is new, or returns how long to
// wait for one. A refused request counts as a use: a client that keeps
// trying keeps its budget, empty, at the front.
func (l *rateLimiter) take(key string, share int, now time.Time) (*rate.Reservation, time.Duration) {
	var b *budget
	if e, ok := l.budgets[key]; ok {
		b = e.Value.(*budget)
		l.recent.MoveToFront(e)
	} else {
		l.makeRoom(now)
		b = &budget{key: key, lim: rate.NewLimiter(l.limit*rate.Limit(share), l.burst*share)}
		l.budgets[key] = l.recent.PushFront(b)
	}
	b.last = now
	res := b.lim.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return nil, delay
	}
	return res, 0
}

// makeRoom keeps the budgets under maxLimited before one more is made. It
// forgets, least recently used first, every budget unused for long enough
// to be full again (a new one starts full, so that loses nothing), and, if
// there is still no room, the least recently used one.
//
// Forgetting a budget that is not full gives its owner a fresh one, so the
// owner must be the one who has waited longest, never one chosen at random:
// a client that keeps trying keeps its budget at the front however many
// addresses come after it. To push it out, it must keep quiet while
// maxLimited other budgets are used; an attacker with that many addresses
// had that many fresh budgets anyway (and an IPv6 one shares its sites').
func (l *rateLimiter) makeRoom(now time.Time) {
	for e := l.recent.Back(); e != nil; e = l.recent.Back() {
		b := e.Value.(*budget)
		if len(l.budgets) < maxLimited && now.Sub(b.last) < l.refill {
			return
		}
		l.recent.Remove(e)
		delete(l.budgets, b.key)
	}
}

// limited refuses a request over the rate limit of its client with 429
// and Retry-After, and else calls h; fail answers h's failure.
func (c *Console) limited(h func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		wait, ok := c.limiter.allow(c.opts.Proxies.Peer(r), c.opts.Clock.Now())
		if !ok {
			secs := int(math.Ceil(wait.Seconds()))
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			writeError(w, http.StatusTooManyRequests, fmt.Sprintf("Too many attempts from your address; try again in %d seconds", secs))
			return
		}
		if err := h(w, r); err != nil {
			c.fail(w, err)
		}
	}
}
