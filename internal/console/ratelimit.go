package console

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/netaddr"

	"golang.org/x/time/rate"
)

// The limit of sign-in and enrolment requests per client address: a burst
// of signInBurst, then signInPerMinute a minute. A person needs two
// requests (begin and finish) per attempt.
const (
	signInPerMinute = 10
	signInBurst     = 10
	// maxLimited bounds the addresses remembered by one instance.
	maxLimited = 10_000
)

// rateLimiter limits requests per client address, in memory: each
// instance counts its own clients.
type rateLimiter struct {
	mu      sync.Mutex
	limit   rate.Limit
	burst   int
	clients map[string]*clientLimit
}

type clientLimit struct {
	lim  *rate.Limiter
	last time.Time
}

func newRateLimiter() *rateLimiter {
	return &rateLimiter{
		limit:   rate.Limit(signInPerMinute) / 60,
		burst:   signInBurst,
		clients: make(map[string]*clientLimit),
	}
}

// allow takes one request of client at now, or returns how long to wait.
func (l *rateLimiter) allow(client string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cl, ok := l.clients[client]
	if !ok {
		if len(l.clients) >= maxLimited {
			l.evict(now)
		}
		cl = &clientLimit{lim: rate.NewLimiter(l.limit, l.burst)}
		l.clients[client] = cl
	}
	cl.last = now
	res := cl.lim.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return delay, false
	}
	return 0, true
}

// evict forgets the clients whose bucket is full again (as good as new),
// and, if the map is still full, one more: an attacker with many addresses
// then loses its own counts rather than growing the map.
func (l *rateLimiter) evict(now time.Time) {
	refill := time.Duration(float64(l.burst) / float64(l.limit) * float64(time.Second))
	for k, cl := range l.clients {
		if now.Sub(cl.last) >= refill {
			delete(l.clients, k)
		}
	}
	for k := range l.clients {
		if len(l.clients) < maxLimited {
			break
		}
		delete(l.clients, k)
	}
}

// limited refuses a request over the rate limit of its client with 429
// and Retry-After, and else calls h; fail answers h's failure.
func (c *Console) limited(h func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		wait, ok := c.limiter.allow(netaddr.Client(c.opts.Proxies.Peer(r)), c.opts.Clock.Now())
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
