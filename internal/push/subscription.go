package push

import (
	"context"
	"crypto/ecdh"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
)

// Errors of Subscribe, which the handlers answer with their status.
var (
	// ErrInvalid means a subscription is not one a browser makes (a bad
	// endpoint, keys, topics or lead).
	ErrInvalid = errors.New("push: invalid subscription")
	// ErrClientFull means the client has made Options.MaxPerClient
	// subscriptions already.
	ErrClientFull = errors.New("push: too many subscriptions from this address")
	// ErrFull means there are Options.MaxSubscriptions subscriptions.
	ErrFull = errors.New("push: no room for more subscriptions")
)

// Subscription is what the page posts to subscribe: its PushSubscription
// as toJSON() gives it, and the choices of the follower.
type Subscription struct {
	// Endpoint is the push service's URL for this browser.
	Endpoint string `json:"endpoint"`
	// ExpirationTime is the browser's, ignored (a lapsed subscription
	// answers 404 or 410, which deletes it).
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
	// Keys are the browser's P-256 public key (p256dh, 65 bytes) and
	// authentication secret (auth, 16 bytes), URL-safe base64.
	Keys struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	// Topics are the kinds of notification wanted.
	Topics []Topic `json:"topics"`
	// MatchesAhead is how many of our matches ahead the queue call comes,
	// 0 to MaxMatchesAhead (see Message.MatchesAhead).
	MatchesAhead int `json:"matchesAhead,omitempty"`
}

// record is a document of SubscriptionsCollection. It holds nothing
// personal beyond the subscription itself: the client is counted in
// ClientsCollection under a hash.
type record struct {
	Endpoint     string    `json:"endpoint"`
	P256dh       string    `json:"p256dh"`
	Auth         string    `json:"auth"`
	Topics       TopicSet  `json:"topics"`
	MatchesAhead int       `json:"matchesAhead,omitempty"`
	Created      time.Time `json:"created"`
	// Key is the fingerprint of the VAPID key the subscription was made
	// with: one made with a key since rotated is skipped and deleted.
	Key string `json:"key"`
}

// wants reports whether the subscriber wants m.
func (r record) wants(m Message) bool {
	return r.Topics.Has(m.Topic) && (m.Topic != TopicQueuing || r.MatchesAhead == m.MatchesAhead)
}

// clientRecord is a document of ClientsCollection: the subscriptions a
// client made. Ids of subscriptions deleted since are dropped when the
// client next subscribes.
type clientRecord struct {
	Subscriptions []string `json:"subscriptions"`
}

// countRecord is the document of CountsCollection.
type countRecord struct {
	Count int `json:"count"`
}

// SubscriptionID is the id of the subscription of endpoint: the hex
// SHA-256 of the endpoint. As the endpoint is secret (only its browser and
// push service know it), so is the id, which makes it the capability of
// the unsubscribe link.
func SubscriptionID(endpoint string) string {
	sum := sha256.Sum256([]byte(endpoint))
	return hex.EncodeToString(sum[:])
}

// hashKey is the document id of ClientsCollection for a client key.
func hashKey(client string) string {
	sum := sha256.Sum256([]byte("push-client\x00" + client))
	return hex.EncodeToString(sum[:])
}

// decodeKey decodes a browser's key, in the URL-safe base64 it gives (with
// or without padding), or the standard alphabet some libraries use.
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// record checks s and returns its record (Created and Key unset).
func (s Subscription) record(allowLoopback bool) (record, error) {
	if err := checkEndpoint(s.Endpoint, allowLoopback); err != nil {
		return record{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	p256dh, err := decodeKey(s.Keys.P256dh)
	if err != nil || len(p256dh) != 65 {
		return record{}, fmt.Errorf("%w: keys.p256dh is not a 65-byte key", ErrInvalid)
	}
	if _, err := ecdh.P256().NewPublicKey(p256dh); err != nil {
		return record{}, fmt.Errorf("%w: keys.p256dh is not a P-256 point", ErrInvalid)
	}
	auth, err := decodeKey(s.Keys.Auth)
	if err != nil || len(auth) != 16 {
		return record{}, fmt.Errorf("%w: keys.auth is not a 16-byte secret", ErrInvalid)
	}
	topics, err := NewTopicSet(s.Topics)
	if err != nil {
		return record{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if s.MatchesAhead < 0 || s.MatchesAhead > MaxMatchesAhead {
		return record{}, fmt.Errorf("%w: matchesAhead %d, want 0 to %d", ErrInvalid, s.MatchesAhead, MaxMatchesAhead)
	}
	return record{
		Endpoint:     s.Endpoint,
		P256dh:       base64.RawURLEncoding.EncodeToString(p256dh),
		Auth:         base64.RawURLEncoding.EncodeToString(auth),
		Topics:       topics,
		MatchesAhead: s.MatchesAhead,
	}, nil
}

// Subscribe stores s for client (netaddr.Keys's client key of the request)
// and returns its id and whether it is new. Subscribing an endpoint again
// replaces its keys and choices, and counts against no cap. A new one is
// refused with ErrClientFull or ErrFull beyond the caps; an invalid one
// with an error wrapping ErrInvalid.
func (n *Notifier) Subscribe(ctx context.Context, s Subscription, client string) (id string, created bool, err error) {
	rec, err := s.record(n.opts.AllowLoopback)
	if err != nil {
		return "", false, err
	}
	keys, err := n.keys(ctx)
	if err != nil {
		return "", false, err
	}
	rec.Key = keys.fingerprint()
	rec.Created = n.opts.Clock.Now().UTC()
	id = SubscriptionID(rec.Endpoint)
	doc, err := json.Marshal(rec)
	if err != nil {
		return "", false, fmt.Errorf("push: encode subscription: %w", err)
	}
	clientID := hashKey(client)
	err = n.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		created = false
		cur, err := tx.Get(SubscriptionsCollection, id)
		if err == nil {
			// The same endpoint again: new choices (and keys, should the
			// browser have new ones), the first subscription's time.
			var old record
			if json.Unmarshal(cur, &old) == nil && !old.Created.IsZero() {
				again := rec
				again.Created = old.Created
				return putJSON(tx, SubscriptionsCollection, id, again)
			}
			return tx.Put(SubscriptionsCollection, id, doc)
		}
		if !errors.Is(err, docstore.ErrNotFound) {
			return err
		}
		var total countRecord
		if err := getJSON(tx, CountsCollection, totalDocID, &total); err != nil {
			return err
		}
		if total.Count >= n.opts.MaxSubscriptions {
			return ErrFull
		}
		var cr clientRecord
		if err := getJSON(tx, ClientsCollection, clientID, &cr); err != nil {
			return err
		}
		live := []string{id}
		for _, other := range cr.Subscriptions {
			if _, err := tx.Get(SubscriptionsCollection, other); err == nil {
				live = append(live, other)
			} else if !errors.Is(err, docstore.ErrNotFound) {
				return err
			}
		}
		if len(live) > n.opts.MaxPerClient {
			return ErrClientFull
		}
		total.Count++
		created = true
		return errors.Join(
			tx.Create(SubscriptionsCollection, id, doc),
			putJSON(tx, ClientsCollection, clientID, clientRecord{Subscriptions: live}),
			putJSON(tx, CountsCollection, totalDocID, total),
		)
	})
	if err != nil {
		return "", false, fmt.Errorf("push: subscribe: %w", err)
	}
	return id, created, nil
}

// Unsubscribe deletes the subscription with id (SubscriptionID); one that
// is not there is no error.
func (n *Notifier) Unsubscribe(ctx context.Context, id string) error {
	if err := docstore.ValidateID(id); err != nil || len(id) != 2*sha256.Size {
		return fmt.Errorf("%w: not a subscription id", ErrInvalid)
	}
	err := n.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		return deleteSubscriptions(tx, []string{id})
	})
	if err != nil {
		return fmt.Errorf("push: unsubscribe: %w", err)
	}
	return nil
}

// deleteSubscriptions stages the deletion of the subscriptions with ids
// that exist, and takes them off the total count.
func deleteSubscriptions(tx docstore.Txn, ids []string) error {
	gone := 0
	for _, id := range ids {
		if _, err := tx.Get(SubscriptionsCollection, id); errors.Is(err, docstore.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		if err := tx.Delete(SubscriptionsCollection, id); err != nil {
			return err
		}
		gone++
	}
	if gone == 0 {
		return nil
	}
	var total countRecord
	if err := getJSON(tx, CountsCollection, totalDocID, &total); err != nil {
		return err
	}
	total.Count = max(0, total.Count-gone)
	return putJSON(tx, CountsCollection, totalDocID, total)
}

// getJSON decodes the document coll/id into v, leaving v as it is when
// there is none.
func getJSON(tx docstore.Txn, coll, id string, v any) error {
	doc, err := tx.Get(coll, id)
	if errors.Is(err, docstore.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(doc, v); err != nil {
		return fmt.Errorf("push: %s/%s is damaged: %w", coll, id, err)
	}
	return nil
}

// putJSON stages v as the document coll/id.
func putJSON(tx docstore.Txn, coll, id string, v any) error {
	doc, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("push: encode %s/%s: %w", coll, id, err)
	}
	return tx.Put(coll, id, doc)
}
