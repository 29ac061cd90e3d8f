package push

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/robohornets/robohornets/internal/netaddr"
)

// The paths of the subscription API.
const (
	// PathKey answers GET with {"publicKey": "<applicationServerKey>"}.
	PathKey = "/api/push/key"
	// PathSubscribe takes a POST of a Subscription: 201 when new, 200 when
	// it replaced the choices of the same endpoint.
	PathSubscribe = "/api/push/subscribe"
	// PathUnsubscribe takes a POST of {"endpoint": "..."} (204), and a GET
	// of PathUnsubscribe/{id}, the link in every push, which unsubscribes
	// and answers a small page.
	PathUnsubscribe = "/api/push/unsubscribe"
)

// Route is one pattern of the subscription API and its handler, for the
// server's mux (http.ServeMux.HandleFunc).
type Route struct {
	Pattern string
	Handler http.HandlerFunc
}

// Routes returns the subscription API's patterns, with their methods.
func (n *Notifier) Routes() []Route {
	return []Route{
		{"GET " + PathKey, n.serveKey},
		{"POST " + PathSubscribe, n.limited(n.serveSubscribe)},
		{"POST " + PathUnsubscribe, n.limited(n.serveUnsubscribe)},
		{"GET " + PathUnsubscribe + "/{id}", n.limited(n.serveUnsubscribeLink)},
	}
}

// Handler returns the subscription API as one handler (a mux of Routes).
func (n *Notifier) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, r := range n.Routes() {
		mux.HandleFunc(r.Pattern, r.Handler)
	}
	return mux
}

// errorBody is every error's JSON.
type errorBody struct {
	Error string `json:"error"`
}

// writeJSON sends v with status, never cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // a client gone mid-answer has no one to tell
}

// writeError maps err to its status and sends it; a failure of the store
// is logged and answered 503 without its details.
func (n *Notifier) writeError(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{fmt.Sprintf("the body is larger than %d bytes", MaxBodyBytes)})
	case errors.Is(err, ErrInvalid):
		writeJSON(w, http.StatusBadRequest, errorBody{err.Error()})
	case errors.Is(err, ErrClientFull):
		writeJSON(w, http.StatusTooManyRequests, errorBody{ErrClientFull.Error()})
	case errors.Is(err, ErrFull):
		writeJSON(w, http.StatusServiceUnavailable, errorBody{ErrFull.Error()})
	default:
		n.opts.Logger.Error("push: store", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, errorBody{"push: the store is unavailable; try again later"})
	}
}

// readJSON decodes the body, at most MaxBodyBytes, into v; an error wraps
// ErrInvalid or is an *http.MaxBytesError.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return fmt.Errorf("%w: the body is not the JSON expected: %w", ErrInvalid, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: more than one JSON value", ErrInvalid)
	}
	return nil
}

// keyBody is the answer of PathKey.
type keyBody struct {
	PublicKey string `json:"publicKey"`
}

func (n *Notifier) serveKey(w http.ResponseWriter, r *http.Request) {
	k, err := n.PublicKey(r.Context())
	if err != nil {
		n.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, keyBody{k})
}

// subscribed is the answer of PathSubscribe.
type subscribed struct {
	ID          string `json:"id"`
	Unsubscribe string `json:"unsubscribe"`
}

func (n *Notifier) serveSubscribe(w http.ResponseWriter, r *http.Request) {
	var s Subscription
	if err := readJSON(w, r, &s); err != nil {
		n.writeError(w, err)
		return
	}
	client, _ := netaddr.Keys(n.opts.Proxies.Peer(r))
	id, created, err := n.Subscribe(r.Context(), s, client)
	if err != nil {
		n.writeError(w, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, subscribed{ID: id, Unsubscribe: n.unsubscribeURL(id)})
}

// unsubscribeBody is what PathUnsubscribe takes.
type unsubscribeBody struct {
	Endpoint string `json:"endpoint"`
}

func (n *Notifier) serveUnsubscribe(w http.ResponseWriter, r *http.Request) {
	var b unsubscribeBody
	if err := readJSON(w, r, &b); err != nil {
		n.writeError(w, err)
		return
	}
	if b.Endpoint == "" {
		n.writeError(w, fmt.Errorf("%w: no endpoint", ErrInvalid))
		return
	}
	if err := n.Unsubscribe(r.Context(), SubscriptionID(b.Endpoint)); err != nil {
		n.writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// unsubscribedPage is the page of the unsubscribe link.
var unsubscribedPage = template.Must(template.New("unsubscribed").Parse(`<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Unsubscribed · RoboHornets 1209</title>
<h1>Unsubscribed</h1>
<p>This device will get no more notifications from RoboHornets 1209.</p>
<p><a href="{{.}}">Back to the follow page</a></p>
</html>
`))

// serveUnsubscribeLink is the target of the unsubscribe link of a push.
// The id is the hash of a secret endpoint, so the link itself is the
// authority to unsubscribe; the link is only in the pushes, which only
// the subscriber's device decrypts. Unsubscribing twice is no error.
func (n *Notifier) serveUnsubscribeLink(w http.ResponseWriter, r *http.Request) {
	if err := n.Unsubscribe(r.Context(), r.PathValue("id")); err != nil {
		n.writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	_ = unsubscribedPage.Execute(w, n.opts.FollowPath)
}

// limited refuses a request over its client's rate with 429 and
// Retry-After, and else calls h.
func (n *Notifier) limited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		wait, ok := n.limiter.allow(n.opts.Proxies.Peer(r), n.opts.Clock.Now())
		if !ok {
			secs := int(math.Ceil(wait.Seconds()))
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			writeJSON(w, http.StatusTooManyRequests, errorBody{fmt.Sprintf("too many requests from your address; try again in %d seconds", secs)})
			return
		}
		h(w, r)
	}
}

// limiter is a token bucket per client and per IPv6 site (netaddr.Keys),
// in memory: each instance counts its own requests.
type limiter struct {
	mu      sync.Mutex
	limit   rate.Limit
	burst   int
	budgets map[string]*rate.Limiter
}

// newLimiter returns a limiter of perMinute requests a minute after a
// burst of burst, per client.
func newLimiter(perMinute, burst int) *limiter {
	return &limiter{limit: rate.Limit(perMinute) / 60, burst: burst, budgets: make(map[string]*rate.Limiter)}
}

// allow takes a request of the client at addr (Proxies.Peer) at now from
// its budget and its site's, or returns how long to wait.
func (l *limiter) allow(addr string, now time.Time) (time.Duration, bool) {
	client, site := netaddr.Keys(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	var fromSite *rate.Reservation
	if site != "" {
		res := l.budget(site, netaddr.SiteShare, now).ReserveN(now, 1)
		if d := res.DelayFrom(now); d > 0 {
			res.CancelAt(now)
			return d, false
		}
		fromSite = res
	}
	res := l.budget(client, 1, now).ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		if fromSite != nil {
			fromSite.CancelAt(now)
		}
		return d, false
	}
	return 0, true
}

// budget returns the bucket of key, made with share times a client's rate
// and burst. When maxBudgets are remembered, the full ones are forgotten
// (a new one starts full, so that loses nothing); if none is full, all
// are: a flood from that many addresses had that many budgets anyway.
func (l *limiter) budget(key string, share int, now time.Time) *rate.Limiter {
	if b, ok := l.budgets[key]; ok {
		return b
	}
	if len(l.budgets) >= maxBudgets {
		for k, b := range l.budgets {
			if b.TokensAt(now) >= float64(b.Burst()) {
				delete(l.budgets, k)
			}
		}
		if len(l.budgets) >= maxBudgets {
			clear(l.budgets)
		}
	}
	b := rate.NewLimiter(l.limit*rate.Limit(share), l.burst*share)
	l.budgets[key] = b
	return b
}
