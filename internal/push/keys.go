package push

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
)

// vapidKeys is the document of KeysCollection: the application server's
// P-256 key pair (RFC 8292), in the URL-safe base64 without padding that
// browsers take as applicationServerKey (the public key, an uncompressed
// point) and webpush-go takes for signing (the private scalar). No client
// reads the store (firestore.rules), so the private key stays on the
// server side.
type vapidKeys struct {
	Public  string    `json:"public"`
	Private string    `json:"private"`
	Created time.Time `json:"created"`
}

// fingerprint names the key pair in a subscription's record: the first
// 16 hex digits of the SHA-256 of the public key.
func (k vapidKeys) fingerprint() string {
	sum := sha256.Sum256([]byte(k.Public))
	return hex.EncodeToString(sum[:8])
}

// newKeys makes a fresh key pair.
func newKeys(now time.Time) (vapidKeys, error) {
	private, public, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return vapidKeys{}, fmt.Errorf("push: make VAPID keys: %w", err)
	}
	return vapidKeys{Public: public, Private: private, Created: now.UTC()}, nil
}

// loadKeys returns the key pair of the store, making it on first use. It
// is made with Create, so of two instances that start at once one wins and
// the other reads the winner's.
func loadKeys(ctx context.Context, db docstore.DB, c clock.Clock) (vapidKeys, error) {
	k, err := readKeys(ctx, db)
	if !errors.Is(err, docstore.ErrNotFound) {
		return k, err
	}
	if k, err = newKeys(c.Now()); err != nil {
		return k, err
	}
	doc, err := json.Marshal(k)
	if err != nil {
		return k, fmt.Errorf("push: encode keys: %w", err)
	}
	err = db.Create(ctx, KeysCollection, keysDocID, doc)
	if errors.Is(err, docstore.ErrExists) {
		return readKeys(ctx, db)
	}
	if err != nil {
		return k, fmt.Errorf("push: store keys: %w", err)
	}
	return k, nil
}

// readKeys reads the key pair; the error wraps docstore.ErrNotFound when
// there is none.
func readKeys(ctx context.Context, db docstore.DB) (vapidKeys, error) {
	var k vapidKeys
	doc, err := db.Get(ctx, KeysCollection, keysDocID)
	if err != nil {
		return k, fmt.Errorf("push: read keys: %w", err)
	}
	if err := json.Unmarshal(doc, &k); err != nil || k.Public == "" || k.Private == "" {
		return k, fmt.Errorf("push: keys document is damaged")
	}
	return k, nil
}

// Rotate replaces the store's VAPID key pair with a fresh one and returns
// the new public key. Every instance takes it up within KeyCacheFor. The
// subscriptions made with the old key are then useless: the push services
// refuse pushes signed by another key. The fan-out skips and deletes them,
// and the follow page re-subscribes whenever the key /api/push/key gives
// differs from the applicationServerKey of its subscription (it
// unsubscribes, subscribes with the new key and posts the new
// subscription).
func Rotate(ctx context.Context, db docstore.DB, c clock.Clock) (string, error) {
	k, err := newKeys(c.Now())
	if err != nil {
		return "", err
	}
	doc, err := json.Marshal(k)
	if err != nil {
		return "", fmt.Errorf("push: encode keys: %w", err)
	}
	if err := db.Put(ctx, KeysCollection, keysDocID, doc); err != nil {
		return "", fmt.Errorf("push: store keys: %w", err)
	}
	return k.Public, nil
}
