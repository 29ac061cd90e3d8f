// Package push sends standard Web Push notifications to the phones that
// follow the team (issue 37): RFC 8030 delivery, RFC 8291 (aes128gcm)
// encryption and RFC 8292 VAPID, through github.com/SherClockHolmes/webpush-go.
//
// It holds the transport, the storage and the fan-out, not the rules of
// which change of an event makes which notification: the rest of the
// program hands a [Message] to [Notifier.Notify], and every serve instance
// may do so for the same change. One instance claims the notification in
// the store, sends it to the subscribers a page at a time and records its
// progress once per page, so each subscriber gets it once (twice at most,
// for the page in flight when an instance dies, with the same Topic header
// and tag, so the phone shows one).
//
// Everything lives in the docstore: the VAPID key pair ([KeysCollection]),
// the subscriptions ([SubscriptionsCollection]), the progress of each
// notification ([NotificationsCollection], [PendingCollection]) and the counts behind the caps
// ([ClientsCollection], [CountsCollection]).
package push

import (
	"fmt"
	"net/url"
	"slices"
	"time"
)

// The collections of the docstore this package uses.
const (
	// KeysCollection holds one document, [keysDocID]: the VAPID key pair.
	KeysCollection = "PushKeys"
	// SubscriptionsCollection holds one document per subscription; its id
	// is the hex SHA-256 of the endpoint ([SubscriptionID]).
	SubscriptionsCollection = "PushSubscriptions"
	// NotificationsCollection holds the progress of each notification's
	// fan-out; its id is the hex SHA-256 of [Message.ID].
	NotificationsCollection = "PushNotifications"
	// PendingCollection holds an entry per notification not done yet (same
	// id as in NotificationsCollection), which Resume looks through.
	PendingCollection = "PushPending"
	// ClientsCollection holds, per client (the hex SHA-256 of its
	// netaddr.Keys client key), the ids of the subscriptions it made: the
	// per-client cap.
	ClientsCollection = "PushClients"
	// CountsCollection holds one document, [totalDocID]: how many
	// subscriptions there are, for the total cap.
	CountsCollection = "PushCounts"
)

// Collections are every collection of the docstore this package uses:
// the Firestore security rules' test checks each is closed to clients.
var Collections = []string{KeysCollection, SubscriptionsCollection, NotificationsCollection, PendingCollection,
	ClientsCollection, CountsCollection}

// Ids of the single documents of KeysCollection and CountsCollection.
const (
	keysDocID  = "vapid"
	totalDocID = "subscriptions"
)

// The defaults of Options and the fixed limits of the package.
const (
	// DefaultBatch is the default of Options.Batch: subscriptions read and
	// sent per page, each page recorded by one transaction. It stays under
	// docstore.MaxTxWrites with room for the page's deletions (a 404 or 410
	// answer) in that same transaction.
	DefaultBatch = 400
	// DefaultWorkers is the default of Options.Workers: pushes in flight at
	// once per notification.
	DefaultWorkers = 32
	// DefaultLease is the default of Options.Lease: how long a claim on a
	// notification holds without news from its owner, who renews it every
	// third of it while it sends, so it is also the longest a dead
	// owner's notification waits before another instance resumes it.
	DefaultLease = 3 * time.Minute
	// DefaultMaxPerClient is the default of Options.MaxPerClient.
	DefaultMaxPerClient = 20
	// DefaultMaxSubscriptions is the default of Options.MaxSubscriptions.
	DefaultMaxSubscriptions = 100_000
	// DefaultTTL is how long the push service keeps a message whose
	// Expires is zero (results, news).
	DefaultTTL = 24 * time.Hour
	// MaxTTL is the longest TTL sent: push services keep a message for
	// about four weeks at most.
	MaxTTL = 28 * 24 * time.Hour
	// DefaultResumeEvery is the default of Options.ResumeEvery.
	DefaultResumeEvery = 30 * time.Second
	// DefaultPruneAfter is the default of Options.PruneAfter.
	DefaultPruneAfter = 7 * 24 * time.Hour
	// DefaultSubscribePerMinute and DefaultSubscribeBurst are the default
	// rate of the subscribe and unsubscribe requests of one client.
	DefaultSubscribePerMinute = 10
	DefaultSubscribeBurst     = 10
	// MaxBodyBytes bounds the body of a subscribe or unsubscribe request.
	MaxBodyBytes = 4096
	// MaxEndpointBytes bounds a subscription's endpoint (the push
	// services' are a few hundred bytes).
	MaxEndpointBytes = 2048
	// MaxPayloadBytes is the largest JSON payload of a push: one record
	// of 4096 bytes (webpush.MaxRecordSize, the most RFC 8291 lets a push
	// service require) less its 86-byte header, the 16-byte AEAD tag and
	// the padding delimiter.
	MaxPayloadBytes = 4096 - 86 - 16 - 1
	// MaxMatchesAhead is the largest lead a subscriber may choose for the
	// queue calls.
	MaxMatchesAhead = 3
	// KeyCacheFor is how long an instance uses the key pair it read before
	// reading it again, so that one rotated by another process is taken
	// up within it.
	KeyCacheFor = time.Minute
)

// Limits of one push's delivery.
const (
	// maxAttempts bounds the tries of one push (the first and the retries
	// after 429 or 5xx).
	maxAttempts = 3
	// attemptTimeout bounds one try, from dial to the end of the answer.
	attemptTimeout = 10 * time.Second
	// dialTimeout bounds the connection of one try.
	dialTimeout = 5 * time.Second
	// firstBackoff is the wait before the first retry, doubled for each
	// next one, with jitter, when the answer has no Retry-After.
	firstBackoff = time.Second
	// maxRetryWait caps a wait between tries, Retry-After included: a
	// longer one gives up on the subscriber for this notification.
	maxRetryWait = 20 * time.Second
	// maxAnswerBytes is how much of a push service's answer is read (for
	// the log).
	maxAnswerBytes = 1024
)

// Limits of the background work and of the API's memory.
const (
	// resumePage is how many pending entries or records Resume reads at a
	// time.
	resumePage = 100
	// pruneEvery is how often Resume looks for records to prune.
	pruneEvery = time.Hour
	// maxBudgets bounds the rate limit's token buckets one instance
	// remembers.
	maxBudgets = 10_000
)

// Topic is a kind of notification a subscriber chooses to get.
type Topic string

// The topics.
const (
	// TopicQueuing is the call to the queue before one of our matches.
	TopicQueuing Topic = "queuing"
	// TopicResults is the result of one of our matches.
	TopicResults Topic = "results"
	// TopicSelection is alliance selection.
	TopicSelection Topic = "selection"
	// TopicPlayoffs is our progress in the playoffs.
	TopicPlayoffs Topic = "playoffs"
	// TopicNews is a news article.
	TopicNews Topic = "news"
)

// Topics lists every topic, in the order the page shows them.
var Topics = []Topic{TopicQueuing, TopicResults, TopicSelection, TopicPlayoffs, TopicNews}

// Valid reports whether t is one of Topics.
func (t Topic) Valid() bool { return slices.Contains(Topics, t) }

// TopicSet is a set of topics, kept sorted and without repeats.
type TopicSet []Topic

// NewTopicSet returns the set of topics, or an error naming one that is
// not valid. An empty list is an error: a subscription wants something.
func NewTopicSet(topics []Topic) (TopicSet, error) {
	if len(topics) == 0 {
		return nil, fmt.Errorf("push: no topics")
	}
	set := make(TopicSet, 0, len(topics))
	for _, t := range topics {
		if !t.Valid() {
			return nil, fmt.Errorf("push: unknown topic %q", t)
		}
		if !slices.Contains(set, t) {
			set = append(set, t)
		}
	}
	slices.Sort(set)
	return set, nil
}

// Has reports whether t is in the set.
func (s TopicSet) Has(t Topic) bool { return slices.Contains(s, t) }

// Urgency is the Urgency header of a push (RFC 8030 section 5.3): how
// readily a phone on a low battery wakes for it.
type Urgency string

// The urgencies a Message may have.
const (
	// UrgencyHigh is for the queue calls: the phone wakes now.
	UrgencyHigh Urgency = "high"
	// UrgencyNormal is for results and the rest; a zero Urgency means it.
	UrgencyNormal Urgency = "normal"
	// UrgencyLow may wait for the phone to be awake anyway.
	UrgencyLow Urgency = "low"
)

// Message is one notification, as the rest of the program hands it to
// Notify. It is plain data, stored as JSON with the notification's
// progress so that another instance can finish sending it.
type Message struct {
	// ID is the notification's key, the same on every instance that sees
	// the change and unique to it, e.g. "queue/2026okok_qm44/1": Notify
	// sends one ID once (while its record is kept, Options.PruneAfter).
	ID string `json:"id"`
	// Topic says which subscribers want it.
	Topic Topic `json:"topic"`
	// Title and Body are what the phone shows; a Body too long for the
	// payload is shortened (MaxPayloadBytes).
	Title string `json:"title"`
	Body  string `json:"body,omitempty"`
	// URL is the page a tap opens: absolute (https), or a path that
	// Options.SiteURL makes absolute.
	URL string `json:"url"`
	// Tag groups notices on the phone: a newer one with the same tag
	// replaces the older. It also names the push's Topic header, so that
	// the push service drops a superseded notice that it still holds.
	// Empty: the ID.
	Tag string `json:"tag,omitempty"`
	// Urgency is the push's urgency; zero means UrgencyNormal.
	Urgency Urgency `json:"urgency,omitempty"`
	// Expires is when the notice is no longer worth showing (a queue
	// call: the match's start). The TTL header counts down to it, and a
	// notification not sent by then is dropped. Zero: DefaultTTL.
	Expires time.Time `json:"expires,omitzero"`
	// MatchesAhead is, for TopicQueuing, how many of our matches before
	// it this call is made (0: queuing now). Only subscribers whose
	// chosen lead equals it get it; the rules send one call per lead.
	MatchesAhead int `json:"matchesAhead,omitempty"`
}

// validate checks m and returns it with its URL absolute (against site,
// which may be nil) and its Urgency set.
func (m Message) validate(site *url.URL) (Message, error) {
	switch {
	case m.ID == "":
		return m, fmt.Errorf("push: message without an ID")
	case !m.Topic.Valid():
		return m, fmt.Errorf("push: message %q: unknown topic %q", m.ID, m.Topic)
	case m.Title == "":
		return m, fmt.Errorf("push: message %q without a title", m.ID)
	case m.MatchesAhead < 0 || m.MatchesAhead > MaxMatchesAhead:
		return m, fmt.Errorf("push: message %q: matchesAhead %d, want 0 to %d", m.ID, m.MatchesAhead, MaxMatchesAhead)
	}
	switch m.Urgency {
	case "":
		m.Urgency = UrgencyNormal
	case UrgencyHigh, UrgencyNormal, UrgencyLow:
	default:
		return m, fmt.Errorf("push: message %q: unknown urgency %q", m.ID, m.Urgency)
	}
	u, err := url.Parse(m.URL)
	if err != nil {
		return m, fmt.Errorf("push: message %q: url: %w", m.ID, err)
	}
	if !u.IsAbs() && site != nil {
		u = site.ResolveReference(u)
	}
	if u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
		return m, fmt.Errorf("push: message %q: url %q is not absolute", m.ID, m.URL)
	}
	m.URL = u.String()
	if m.Tag == "" {
		m.Tag = m.ID
	}
	return m, nil
}
