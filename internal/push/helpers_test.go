package push

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
)

// start is the fake clock's first reading in every test.
var start = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// openLocal opens a Local store in a fresh directory.
func openLocal(t testing.TB) *docstore.Local {
	t.Helper()
	db, err := docstore.OpenLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// quiet is a logger that drops everything below errors.
func quiet() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// newNotifier returns a Notifier over db with the fake clock c, loopback
// allowed, and opts' other fields where set.
func newNotifier(t testing.TB, db docstore.DB, c clock.Clock, opts Options) *Notifier {
	t.Helper()
	opts.DB, opts.Clock = db, c
	if opts.Subject == "" {
		opts.Subject = "mailto:push@robohornets.test"
	}
	if opts.SiteURL == "" {
		opts.SiteURL = "https://robohornets.test"
	}
	if opts.Logger == nil {
		opts.Logger = quiet()
	}
	opts.AllowLoopback = true
	n, err := NewNotifier(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	return n
}

// browserKeys returns a fresh p256dh and auth as a browser gives them.
func browserKeys(t testing.TB) (p256dh, auth string) {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	return base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(secret)
}

// newSubscription returns a subscription of endpoint to topics.
func newSubscription(t testing.TB, endpoint string, topics ...Topic) Subscription {
	t.Helper()
	var s Subscription
	s.Endpoint = endpoint
	s.Keys.P256dh, s.Keys.Auth = browserKeys(t)
	s.Topics = topics
	return s
}

// seed stores count subscriptions to topic with endpoints base/sub/<i>,
// in transactions of docstore.MaxTxWrites-1 writes (and the count), as
// Subscribe would have made them with n's key.
func seed(t testing.TB, n *Notifier, base string, count int, topic Topic) {
	t.Helper()
	keys, err := n.keys(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// One browser key pair for all: the receivers here do not decrypt.
	p256dh, auth := browserKeys(t)
	for from := 0; from < count; from += docstore.MaxTxWrites - 1 {
		err := n.opts.DB.Tx(t.Context(), func(tx docstore.Txn) error {
			for i := from; i < min(count, from+docstore.MaxTxWrites-1); i++ {
				endpoint := fmt.Sprintf("%s/sub/%d", base, i)
				rec := record{Endpoint: endpoint, P256dh: p256dh, Auth: auth, Topics: TopicSet{topic}, Created: start, Key: keys.fingerprint()}
				if err := putJSON(tx, SubscriptionsCollection, SubscriptionID(endpoint), rec); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := n.opts.DB.Put(t.Context(), CountsCollection, totalDocID, fmt.Appendf(nil, `{"count":%d}`, count)); err != nil {
		t.Fatal(err)
	}
}

// receiver is a push service stand-in that counts the pushes to each path
// and answers with answer (nil: 201).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	hits   map[string]int
	header map[string]http.Header
	total  atomic.Int64
	answer func(w http.ResponseWriter, r *http.Request) bool
}

// newReceiver starts a receiver on 127.0.0.1 for the test.
func newReceiver(t testing.TB, answer func(w http.ResponseWriter, r *http.Request) bool) *receiver {
	t.Helper()
	rc := &receiver{hits: make(map[string]int), header: make(map[string]http.Header), answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if rc.answer != nil && !rc.answer(w, r) {
			return
		}
		rc.mu.Lock()
		rc.hits[r.URL.Path]++
		rc.header[r.URL.Path] = r.Header.Clone()
		rc.mu.Unlock()
		rc.total.Add(1)
		w.WriteHeader(http.StatusCreated)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// count returns the pushes delivered to path.
func (rc *receiver) count(path string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.hits[path]
}

// headers returns the headers of the last push delivered to path.
func (rc *receiver) headers(path string) http.Header {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.header[path]
}

// countingDB counts the writes that reach the store: each Create, Put,
// Delete and each Update or Tx that commits. onTx, if set, runs after
// every committed Tx.
type countingDB struct {
	docstore.DB
	writes atomic.Int64
	onTx   func()
}

func (c *countingDB) count(err error) error {
	if err == nil {
		c.writes.Add(1)
	}
	return err
}

func (c *countingDB) Create(ctx context.Context, coll, id string, doc []byte) error {
	return c.count(c.DB.Create(ctx, coll, id, doc))
}

func (c *countingDB) Put(ctx context.Context, coll, id string, doc []byte) error {
	return c.count(c.DB.Put(ctx, coll, id, doc))
}

func (c *countingDB) Delete(ctx context.Context, coll, id string) error {
	return c.count(c.DB.Delete(ctx, coll, id))
}

func (c *countingDB) Update(ctx context.Context, coll, id string, fn func([]byte) ([]byte, error)) error {
	return c.count(c.DB.Update(ctx, coll, id, fn))
}

func (c *countingDB) Tx(ctx context.Context, fn func(docstore.Txn) error) error {
	err := c.count(c.DB.Tx(ctx, fn))
	if err == nil && c.onTx != nil {
		c.onTx()
	}
	return err
}

// noteOf returns the record of the notification of message id.
func noteOf(t testing.TB, db docstore.DB, id string) notification {
	t.Helper()
	doc, err := db.Get(t.Context(), NotificationsCollection, notificationID(id))
	if err != nil {
		t.Fatal(err)
	}
	var note notification
	if err := json.Unmarshal(doc, &note); err != nil {
		t.Fatal(err)
	}
	return note
}

// total returns the count of subscriptions the store keeps for the cap.
func total(t testing.TB, db docstore.DB) int {
	t.Helper()
	doc, err := db.Get(t.Context(), CountsCollection, totalDocID)
	if err != nil {
		t.Fatal(err)
	}
	var c countRecord
	if err := json.Unmarshal(doc, &c); err != nil {
		t.Fatal(err)
	}
	return c.Count
}
