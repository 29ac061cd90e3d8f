package push

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/netaddr"
)

// Options configure a Notifier. Each field says what its zero value means.
type Options struct {
	// DB is the store of keys, subscriptions and notifications; required.
	DB docstore.DB
	// Subject is the VAPID subject the push services may contact: a
	// "mailto:" address or an "https://" URL; required.
	Subject string
	// SiteURL is the site's origin, e.g. "https://robohornets.org": it makes
	// a Message's URL that is a path absolute, and the unsubscribe links.
	// Empty: a Message's URL must be absolute and the links are paths.
	SiteURL string
	// FollowPath is the follow page, where the unsubscribe page links back
	// to. Empty: "/".
	FollowPath string
	// AllowLoopback, for tests only (serve's --push-allow-loopback), also
	// takes endpoints on a loopback address (127.0.0.0/8, ::1), over http
	// too, and lets the pushes go there. Nothing else is allowed with it.
	AllowLoopback bool
	// Lookup resolves the push services' names when a push is sent. Nil:
	// the system's resolver.
	Lookup LookupFunc
	// Clock tells the time of leases, expiries and retries. Nil: clock.Real.
	Clock clock.Clock
	// Logger logs what fails. Nil: slog.Default().
	Logger *slog.Logger
	// Owner names this instance in the notifications' records (for the
	// logs). Empty: a random name.
	Owner string
	// Batch is how many subscriptions are read, sent and recorded at a
	// time. Zero: DefaultBatch; at most docstore.MaxTxWrites-2.
	Batch int
	// Workers is how many pushes of a notification are in flight at once.
	// Zero: DefaultWorkers.
	Workers int
	// Lease is how long a claim on a notification lasts without progress.
	// Zero: DefaultLease.
	Lease time.Duration
	// ResumeEvery is how often Run looks for notifications whose owner
	// stopped. Zero: DefaultResumeEvery.
	ResumeEvery time.Duration
	// PruneAfter is how long the record of a notification is kept (a
	// Notify of its ID meanwhile sends nothing). Zero: DefaultPruneAfter.
	PruneAfter time.Duration
	// MaxPerClient caps the subscriptions made from one client
	// (netaddr.Keys). Zero: DefaultMaxPerClient.
	MaxPerClient int
	// MaxSubscriptions caps the subscriptions in all. Zero:
	// DefaultMaxSubscriptions.
	MaxSubscriptions int
	// SubscribePerMinute and SubscribeBurst are the rate limit of one
	// client's subscribe and unsubscribe requests (an IPv6 /48 gets
	// netaddr.SiteShare times it). Zero: DefaultSubscribePerMinute and
	// DefaultSubscribeBurst.
	SubscribePerMinute int
	SubscribeBurst     int
	// Proxies says whose X-Forwarded-For to believe when naming a
	// request's client. Zero: none, the peer is the client.
	Proxies netaddr.Proxies
}

// Notifier sends notifications to the subscribers and serves the
// subscription API (Handler). It is safe for concurrent use; each serve
// instance has one, over the same store.
type Notifier struct {
	opts    Options
	site    *url.URL
	client  *http.Client
	limiter *limiter

	mu        sync.Mutex
	cached    vapidKeys
	keysUntil time.Time
	nextPrune time.Time
}

// NewNotifier returns a Notifier over opts.DB, making the VAPID key pair
// if the store has none yet.
func NewNotifier(ctx context.Context, opts Options) (*Notifier, error) {
	if opts.DB == nil {
		return nil, errors.New("push: no store")
	}
	if !validSubject(opts.Subject) {
		return nil, fmt.Errorf("push: subject %q is neither a mailto: address nor an https URL", opts.Subject)
	}
	opts.Clock = cmp.Or[clock.Clock](opts.Clock, clock.Real{})
	opts.Logger = cmp.Or(opts.Logger, slog.Default())
	if opts.Lookup == nil {
		opts.Lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if opts.Owner == "" {
		opts.Owner = randomHex(6)
	}
	opts.Batch = min(cmp.Or(opts.Batch, DefaultBatch), docstore.MaxTxWrites-2, docstore.MaxPage)
	opts.Workers = cmp.Or(opts.Workers, DefaultWorkers)
	opts.Lease = cmp.Or(opts.Lease, DefaultLease)
	opts.ResumeEvery = cmp.Or(opts.ResumeEvery, DefaultResumeEvery)
	opts.PruneAfter = cmp.Or(opts.PruneAfter, DefaultPruneAfter)
	opts.MaxPerClient = cmp.Or(opts.MaxPerClient, DefaultMaxPerClient)
	opts.MaxSubscriptions = cmp.Or(opts.MaxSubscriptions, DefaultMaxSubscriptions)
	opts.SubscribePerMinute = cmp.Or(opts.SubscribePerMinute, DefaultSubscribePerMinute)
	opts.SubscribeBurst = cmp.Or(opts.SubscribeBurst, DefaultSubscribeBurst)
	opts.FollowPath = cmp.Or(opts.FollowPath, "/")
	n := &Notifier{
		opts:    opts,
		client:  newClient(opts.Lookup, opts.AllowLoopback, opts.Workers),
		limiter: newLimiter(opts.SubscribePerMinute, opts.SubscribeBurst),
	}
	if opts.SiteURL != "" {
		u, err := url.Parse(opts.SiteURL)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return nil, fmt.Errorf("push: site URL %q is not absolute", opts.SiteURL)
		}
		n.site = u
	}
	k, err := loadKeys(ctx, opts.DB, opts.Clock)
	if err != nil {
		return nil, err
	}
	n.cached, n.keysUntil = k, opts.Clock.Now().Add(KeyCacheFor)
	return n, nil
}

// Close releases the idle connections to the push services. The
// Notifier stays usable; the store is the caller's to close.
func (n *Notifier) Close() { n.client.CloseIdleConnections() }

// PublicKey returns the VAPID public key in the URL-safe base64 that a
// page gives PushManager.subscribe as applicationServerKey.
func (n *Notifier) PublicKey(ctx context.Context) (string, error) {
	k, err := n.keys(ctx)
	return k.Public, err
}

// keys returns the key pair, read again from the store once KeyCacheFor
// has passed since the last read.
func (n *Notifier) keys(ctx context.Context) (vapidKeys, error) {
	return n.readKeys(ctx, false)
}

// readKeys returns the key pair: the one read last, unless KeyCacheFor
// has passed since or fresh is set.
func (n *Notifier) readKeys(ctx context.Context, fresh bool) (vapidKeys, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.opts.Clock.Now()
	if !fresh && now.Before(n.keysUntil) {
		return n.cached, nil
	}
	k, err := loadKeys(ctx, n.opts.DB, n.opts.Clock)
	if err != nil {
		return vapidKeys{}, err
	}
	n.cached, n.keysUntil = k, now.Add(KeyCacheFor)
	return k, nil
}

// unsubscribeURL is the link that unsubscribes the subscription with id.
func (n *Notifier) unsubscribeURL(id string) string {
	path := PathUnsubscribe + "/" + id
	if n.site == nil {
		return path
	}
	return n.site.JoinPath(path).String()
}

// notification is a document of NotificationsCollection: the progress of
// one Message's fan-out.
type notification struct {
	Message Message `json:"message"`
	// Owner names the instance that holds the claim, for the logs; Claim
	// is the claim's own random token, which its progress must match.
	Owner string `json:"owner"`
	Claim string `json:"claim"`
	// LeaseUntil is when another instance may take the claim over.
	LeaseUntil time.Time `json:"leaseUntil"`
	// Cursor is the id of the last subscription done; Done says all are.
	Cursor string `json:"cursor"`
	Done   bool   `json:"done"`
	// Created is when the first claim was made (pruning).
	Created time.Time `json:"created"`
	// Delivered, Gone and Failed count the pushes, for the logs.
	Delivered int `json:"delivered"`
	Gone      int `json:"gone"`
	Failed    int `json:"failed"`
}

// notificationID is the document id of the notification of a Message ID.
func notificationID(messageID string) string {
	sum := sha256.Sum256([]byte(messageID))
	return hex.EncodeToString(sum[:])
}

// Errors of a claim and of the progress of a fan-out.
var (
	// errSkip: the notification is done, or another claim on it holds.
	errSkip = errors.New("push: notification handled elsewhere")
	// errLost: the claim was taken over while its pushes were sent.
	errLost = errors.New("push: claim taken over")
)

// Notify sends m to every subscriber who wants it, once, however many
// instances call it for the same m.ID: the first to claim it sends it and
// the others return at once; if the sender stops, another instance (its
// Run, or a later Notify of the same ID) takes over where it left off once
// its lease ends. Notify returns when this instance has sent what it
// claimed, or ctx ends; an error means m is invalid, or the store failed.
func (n *Notifier) Notify(ctx context.Context, m Message) error {
	m, err := m.validate(n.site)
	if err != nil {
		return err
	}
	if _, err := encodePayload(m, n.unsubscribeURL(SubscriptionID(""))); err != nil {
		return err
	}
	id := notificationID(m.ID)
	note, err := n.claim(ctx, id, &notification{Message: m})
	if errors.Is(err, errSkip) {
		return nil
	}
	if err != nil {
		return err
	}
	return n.fanout(ctx, id, note)
}

// claim takes the notification with id for this instance, in one
// transaction: a new one made from fresh, with its entry in
// PendingCollection, or one whose lease has ended. It returns errSkip when
// the notification is done or claimed, or, with fresh nil, when there is
// none (its pending entry, left by a pruned one, is deleted).
func (n *Notifier) claim(ctx context.Context, id string, fresh *notification) (notification, error) {
	var note notification
	orphan := false
	err := n.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		now := n.opts.Clock.Now()
		note, orphan = notification{}, false
		cur, err := tx.Get(NotificationsCollection, id)
		switch {
		case err == nil:
			if err := json.Unmarshal(cur, &note); err != nil {
				return fmt.Errorf("push: notification %s is damaged: %w", id, err)
			}
			if note.Done || now.Before(note.LeaseUntil) {
				return errSkip
			}
		case !errors.Is(err, docstore.ErrNotFound):
			return err
		case fresh == nil:
			orphan = true
			return tx.Delete(PendingCollection, id)
		default:
			note = *fresh
			note.Created = now.UTC()
			if err := putJSON(tx, PendingCollection, id, pending{Since: note.Created}); err != nil {
				return err
			}
		}
		note.Owner, note.Claim, note.LeaseUntil = n.opts.Owner, randomHex(16), now.Add(n.opts.Lease).UTC()
		return putJSON(tx, NotificationsCollection, id, note)
	})
	if err == nil && orphan {
		err = errSkip
	}
	if err != nil && !errors.Is(err, errSkip) {
		err = fmt.Errorf("push: claim %q: %w", note.Message.ID, err)
	}
	return note, err
}

// pending is a document of PendingCollection: a notification not done yet.
type pending struct {
	Since time.Time `json:"since"`
}

// counts are the outcomes of a page's pushes.
type counts struct {
	delivered, gone, failed int
}

// fanout sends the claimed notification to the subscribers after its
// cursor, a page at a time, recording each page's progress in one
// transaction that also deletes the page's lapsed subscriptions.
func (n *Notifier) fanout(ctx context.Context, id string, note notification) error {
	m := note.Message
	for {
		now := n.opts.Clock.Now()
		if !m.Expires.IsZero() && !now.Before(m.Expires) {
			n.opts.Logger.Info("push: notification expired before it was sent to all", "message", m.ID)
			if err := n.advance(ctx, id, note.Claim, note.Cursor, true, nil, counts{}); !errors.Is(err, errLost) {
				return err
			}
			return nil
		}
		page, err := n.opts.DB.Page(ctx, SubscriptionsCollection, note.Cursor, n.opts.Batch)
		if err != nil {
			return fmt.Errorf("push: read subscriptions of %q: %w", m.ID, err)
		}
		recs := make([]record, len(page))
		for i, doc := range page {
			if err := json.Unmarshal(doc.JSON, &recs[i]); err != nil {
				n.opts.Logger.Error("push: damaged subscription", "subscription", doc.ID, "err", err)
			}
		}
		keys, err := n.pageKeys(ctx, recs)
		if err != nil {
			return err
		}
		d := delivery{msg: m, keys: keys, ttl: ttlSeconds(m, now), topic: topicHeader(m.Tag), subject: librarySubject(n.opts.Subject)}
		var stale, lapsed []string
		var c counts
		var mu sync.Mutex
		var wg sync.WaitGroup
		sem := make(chan struct{}, n.opts.Workers)
		// A page of slow push services may outlast the lease: it is kept
		// while the page is sent, and the sends stop if it is lost.
		pageCtx, stopPage := context.WithCancel(ctx)
		var lost atomic.Bool
		release := n.keepLease(pageCtx, id, note.Claim, func() { lost.Store(true); stopPage() })
		fingerprint := keys.fingerprint()
		for i, doc := range page {
			rec := recs[i]
			switch {
			case rec.Endpoint == "":
				continue // damaged
			case rec.Key != fingerprint:
				stale = append(stale, doc.ID)
				continue
			case !rec.wants(m):
				continue
			}
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				out := n.send(pageCtx, d, doc.ID, rec)
				mu.Lock()
				defer mu.Unlock()
				switch out {
				case delivered:
					c.delivered++
				case gone:
					c.gone++
					lapsed = append(lapsed, doc.ID)
				default:
					c.failed++
				}
			})
		}
		wg.Wait()
		release()
		stopPage()
		if err := ctx.Err(); err != nil {
			return err
		}
		if lost.Load() {
			n.opts.Logger.Warn("push: another instance took the notification over", "message", m.ID)
			return nil
		}
		done := len(page) < n.opts.Batch
		if len(page) > 0 {
			note.Cursor = page[len(page)-1].ID
		}
		err = n.advance(ctx, id, note.Claim, note.Cursor, done, append(stale, lapsed...), c)
		if errors.Is(err, errLost) {
			n.opts.Logger.Warn("push: another instance took the notification over", "message", m.ID)
			return nil
		}
		if err != nil || done {
			return err
		}
	}
}

// pageKeys returns the key pair to send a page of subscriptions with. When
// one of them was made with another key, the pair is read afresh: either
// it was rotated since it was cached here, and the subscriptions made
// with the new one are good, or theirs is an old one and they are stale.
func (n *Notifier) pageKeys(ctx context.Context, recs []record) (vapidKeys, error) {
	keys, err := n.keys(ctx)
	if err != nil {
		return keys, err
	}
	fingerprint := keys.fingerprint()
	for _, rec := range recs {
		if rec.Endpoint != "" && rec.Key != fingerprint {
			return n.readKeys(ctx, true)
		}
	}
	return keys, nil
}

// keepLease renews the claim's lease every third of Options.Lease until
// the returned release is called or ctx ends; lost is called, and the
// renewals end, when the claim is no longer this one.
func (n *Notifier) keepLease(ctx context.Context, id, claim string, lost func()) (release func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-n.opts.Clock.After(n.opts.Lease / 3):
			}
			err := n.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
				var note notification
				if err := getJSON(tx, NotificationsCollection, id, &note); err != nil {
					return err
				}
				if note.Claim != claim || note.Done {
					return errLost
				}
				note.LeaseUntil = n.opts.Clock.Now().Add(n.opts.Lease).UTC()
				return putJSON(tx, NotificationsCollection, id, note)
			})
			if errors.Is(err, errLost) {
				lost()
				return
			}
			if err != nil && ctx.Err() == nil {
				n.opts.Logger.Warn("push: renew lease", "id", id, "err", err)
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// advance records the progress of a claim in one transaction: the cursor,
// done, a renewed lease and the counts; and deletes the subscriptions in
// del. It returns errLost when the claim is no longer this one.
func (n *Notifier) advance(ctx context.Context, id, claim, cursor string, done bool, del []string, c counts) error {
	err := n.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		var note notification
		if err := getJSON(tx, NotificationsCollection, id, &note); err != nil {
			return err
		}
		if note.Claim != claim || note.Done {
			return errLost
		}
		note.Cursor, note.Done = cursor, done
		note.LeaseUntil = n.opts.Clock.Now().Add(n.opts.Lease).UTC()
		note.Delivered += c.delivered
		note.Gone += c.gone
		note.Failed += c.failed
		if err := deleteSubscriptions(tx, del); err != nil {
			return err
		}
		if done {
			if err := tx.Delete(PendingCollection, id); err != nil {
				return err
			}
		}
		return putJSON(tx, NotificationsCollection, id, note)
	})
	if err != nil && !errors.Is(err, errLost) {
		return fmt.Errorf("push: record progress of %s: %w", id, err)
	}
	return err
}

// Resume finishes every notification whose owner stopped before it was
// done (its lease has ended), one after another, from the entries of
// PendingCollection (few, so each pass reads little); and, at most once per
// pruneEvery, deletes the records older than Options.PruneAfter. Run calls
// it periodically; it returns the first failure of the store.
func (n *Notifier) Resume(ctx context.Context) error {
	after := ""
	for {
		page, err := n.opts.DB.Page(ctx, PendingCollection, after, resumePage)
		if err != nil {
			return fmt.Errorf("push: read pending notifications: %w", err)
		}
		for _, doc := range page {
			claimed, err := n.claim(ctx, doc.ID, nil)
			if errors.Is(err, errSkip) {
				continue
			}
			if err != nil {
				return err
			}
			n.opts.Logger.Info("push: resuming a notification", "message", claimed.Message.ID)
			if err := n.fanout(ctx, doc.ID, claimed); err != nil {
				return err
			}
		}
		if len(page) < resumePage {
			break
		}
		after = page[len(page)-1].ID
	}
	now := n.opts.Clock.Now()
	n.mu.Lock()
	due := !now.Before(n.nextPrune)
	if due {
		n.nextPrune = now.Add(pruneEvery)
	}
	n.mu.Unlock()
	if !due {
		return nil
	}
	return n.prune(ctx, now)
}

// prune deletes the records of notifications (and their pending entries)
// made more than Options.PruneAfter before now.
func (n *Notifier) prune(ctx context.Context, now time.Time) error {
	after := ""
	for {
		page, err := n.opts.DB.Page(ctx, NotificationsCollection, after, resumePage)
		if err != nil {
			return fmt.Errorf("push: read notifications: %w", err)
		}
		for _, doc := range page {
			var note notification
			if err := json.Unmarshal(doc.JSON, &note); err != nil {
				n.opts.Logger.Error("push: damaged notification", "id", doc.ID, "err", err)
				continue
			}
			if now.Sub(note.Created) <= n.opts.PruneAfter {
				continue
			}
			err := n.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
				return errors.Join(tx.Delete(NotificationsCollection, doc.ID), tx.Delete(PendingCollection, doc.ID))
			})
			if err != nil {
				return fmt.Errorf("push: prune notification: %w", err)
			}
		}
		if len(page) < resumePage {
			return nil
		}
		after = page[len(page)-1].ID
	}
}

// Run calls Resume every Options.ResumeEvery until ctx ends, logging its
// failures, and returns ctx.Err().
func (n *Notifier) Run(ctx context.Context) error {
	for {
		if err := n.Resume(ctx); err != nil && ctx.Err() == nil {
			n.opts.Logger.Warn("push: resume", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-n.opts.Clock.After(n.opts.ResumeEvery):
		}
	}
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
