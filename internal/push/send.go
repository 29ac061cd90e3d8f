package push

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	webpush "github.com/SherClockHolmes/webpush-go"
)

// ErrPayloadTooLarge means a message does not fit MaxPayloadBytes even
// with its body left out.
var ErrPayloadTooLarge = errors.New("push: payload too large")

// payload is the JSON a push carries. Its web_push and notification
// members are a Declarative Web Push message (WebKit, iOS and iPadOS 18.4
// and later: the browser shows it without running the service worker);
// the others are ours, for the service worker of other browsers, beside
// them.
type payload struct {
	WebPush      int         `json:"web_push"`
	Notification declarative `json:"notification"`
	Mutable      bool        `json:"mutable"`
	ID           string      `json:"id"`
	Topic        Topic       `json:"topic"`
	Title        string      `json:"title"`
	Body         string      `json:"body,omitempty"`
	URL          string      `json:"url"`
	Tag          string      `json:"tag"`
	Unsubscribe  string      `json:"unsubscribe"`
}

// declarative is the notification member of a Declarative Web Push
// message: title and navigate are required.
type declarative struct {
	Title    string `json:"title"`
	Body     string `json:"body,omitempty"`
	Navigate string `json:"navigate"`
	Tag      string `json:"tag,omitempty"`
	Lang     string `json:"lang"`
	Dir      string `json:"dir"`
}

// declarativeVersion is the web_push member that marks a Declarative Web
// Push message: the number of RFC 8030.
const declarativeVersion = 8030

// encodePayload returns the payload of m for the subscriber whose
// unsubscribe link is unsubscribe, with the body shortened (at a rune, with
// an ellipsis) as much as needed to fit MaxPayloadBytes.
func encodePayload(m Message, unsubscribe string) ([]byte, error) {
	p := payload{
		WebPush: declarativeVersion,
		Notification: declarative{
			Title: m.Title, Body: m.Body, Navigate: m.URL, Tag: m.Tag, Lang: "en-US", Dir: "ltr",
		},
		// The service worker, where there is one, may show it itself.
		Mutable: true,
		ID:      m.ID, Topic: m.Topic, Title: m.Title, Body: m.Body, URL: m.URL, Tag: m.Tag,
		Unsubscribe: unsubscribe,
	}
	body := []rune(m.Body)
	// Binary search for the longest prefix of the body that fits.
	lo, hi := 0, len(body)
	var best []byte
	for lo <= hi {
		mid := (lo + hi) / 2
		b := string(body[:mid])
		if mid < len(body) {
			b = strings.TrimRightFunc(b, func(r rune) bool { return r == ' ' }) + "…"
		}
		p.Body, p.Notification.Body = b, b
		data, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("push: encode payload: %w", err)
		}
		if len(data) <= MaxPayloadBytes {
			best = data
			if mid == len(body) {
				break
			}
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%w: message %q", ErrPayloadTooLarge, m.ID)
	}
	return best, nil
}

// topicHeader is the Topic header of notices tagged tag: the URL-safe
// base64 of its SHA-256, cut to the 32 characters RFC 8030 allows. Every
// instance and every retry sends the same one, so a push service holding a
// superseded or repeated notice replaces it.
func topicHeader(tag string) string {
	sum := sha256.Sum256([]byte(tag))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:32]
}

// ttlSeconds is the TTL header of m at now: the seconds until m.Expires
// (never below 0), or DefaultTTL when it has none; at most MaxTTL.
func ttlSeconds(m Message, now time.Time) int {
	d := DefaultTTL
	if !m.Expires.IsZero() {
		d = max(0, m.Expires.Sub(now))
	}
	return int(math.Ceil(min(d, MaxTTL).Seconds()))
}

// outcome is what became of one push.
type outcome int

const (
	// delivered: the push service took it (200, 201, 202).
	delivered outcome = iota
	// gone: the subscription has lapsed (404, 410) and is deleted.
	gone
	// failed: given up on for this notification.
	failed
)

// delivery is what send needs of the notification besides the subscriber.
type delivery struct {
	msg     Message
	keys    vapidKeys
	ttl     int
	topic   string
	subject string
}

// send pushes the notification to one subscriber, retrying a 429 or 5xx
// answer, or a failure to reach the push service, up to maxAttempts times.
func (n *Notifier) send(ctx context.Context, d delivery, id string, rec record) outcome {
	data, err := encodePayload(d.msg, n.unsubscribeURL(id))
	if err != nil {
		n.opts.Logger.Error("push: payload", "message", d.msg.ID, "err", err)
		return failed
	}
	sub := &webpush.Subscription{Endpoint: rec.Endpoint, Keys: webpush.Keys{P256dh: rec.P256dh, Auth: rec.Auth}}
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, attemptTimeout)
		resp, err := webpush.SendNotificationWithContext(actx, data, sub, &webpush.Options{
			HTTPClient:      n.client,
			Subscriber:      d.subject,
			Topic:           d.topic,
			TTL:             d.ttl,
			Urgency:         webpush.Urgency(d.msg.Urgency),
			VAPIDPublicKey:  d.keys.Public,
			VAPIDPrivateKey: d.keys.Private,
		})
		var status int
		var wait time.Duration
		var answer string
		if err == nil {
			status = resp.StatusCode
			b, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
			answer = string(b)
			_ = resp.Body.Close()
			wait = retryAfter(resp.Header.Get("Retry-After"), n.opts.Clock.Now())
		}
		cancel()
		switch {
		case err == nil && (status == http.StatusOK || status == http.StatusCreated || status == http.StatusAccepted):
			return delivered
		case err == nil && (status == http.StatusNotFound || status == http.StatusGone):
			return gone
		case ctx.Err() != nil:
			return failed
		case errors.Is(err, ErrForbiddenAddress):
			n.opts.Logger.Warn("push: endpoint refused", "subscription", id, "err", err)
			return failed
		case err != nil && !errors.As(err, new(*url.Error)):
			// Not sent at all (the encryption or the signature failed):
			// trying again would fail the same way.
			n.opts.Logger.Error("push: not sent", "subscription", id, "err", err)
			return failed
		case err == nil && status != http.StatusTooManyRequests && status < 500:
			n.opts.Logger.Warn("push: refused", "subscription", id, "status", status, "answer", answer)
			return failed
		}
		if attempt == maxAttempts {
			n.opts.Logger.Warn("push: giving up", "subscription", id, "status", status, "err", err)
			return failed
		}
		if wait == 0 {
			// Exponential backoff with full jitter in its upper half.
			base := firstBackoff << (attempt - 1)
			wait = base/2 + rand.N(base/2+1)
		}
		if wait > maxRetryWait {
			n.opts.Logger.Warn("push: retry too far off", "subscription", id, "status", status, "wait", wait)
			return failed
		}
		select {
		case <-ctx.Done():
			return failed
		case <-n.opts.Clock.After(wait):
		}
	}
}

// retryAfter reads a Retry-After header at now: seconds, or an HTTP date;
// zero when absent or unreadable.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if secs, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		return time.Duration(max(secs, 0)) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// validSubject reports whether s is a VAPID subject (RFC 8292 section
// 2.1): a mailto: address or an https URL.
func validSubject(s string) bool {
	if addr, ok := strings.CutPrefix(s, "mailto:"); ok {
		return strings.Contains(addr, "@") && utf8.ValidString(addr) && !strings.ContainsAny(addr, " \r\n")
	}
	return strings.HasPrefix(s, "https://") && len(s) > len("https://")
}

// librarySubject is the subject as webpush-go takes it: it adds mailto:
// itself to anything that is not an https URL.
func librarySubject(s string) string {
	return strings.TrimPrefix(s, "mailto:")
}
