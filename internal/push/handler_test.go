package push

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
)

// api is the subscription API of a Notifier, served for a test.
type api struct {
	*httptest.Server
	n  *Notifier
	db docstore.DB
	c  *clock.Fake
}

func newAPI(t *testing.T, opts Options) *api {
	t.Helper()
	c := clock.NewFake(start)
	db := openLocal(t)
	n := newNotifier(t, db, c, opts)
	srv := httptest.NewServer(n.Handler())
	t.Cleanup(srv.Close)
	return &api{Server: srv, n: n, db: db, c: c}
}

// call sends body (a string as it is, anything else as JSON) and returns
// the status and answer.
func (a *api) call(t *testing.T, method, path string, body any) (int, string) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, a.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	answer, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(answer)
}

// subscriptions returns how many subscriptions the store holds.
func (a *api) subscriptions(t *testing.T) int {
	t.Helper()
	docs, err := a.db.List(t.Context(), SubscriptionsCollection)
	if err != nil {
		t.Fatal(err)
	}
	return len(docs)
}

func TestAPIKey(t *testing.T) {
	a := newAPI(t, Options{})
	status, body := a.call(t, "GET", PathKey, nil)
	key, _ := a.n.PublicKey(t.Context())
	if status != http.StatusOK || body != `{"publicKey":"`+key+`"}`+"\n" {
		t.Errorf("GET %s = %d %s", PathKey, status, body)
	}
}

func TestAPISubscribe(t *testing.T) {
	a := newAPI(t, Options{})
	s := newSubscription(t, "https://fcm.googleapis.com/fcm/send/abc", TopicResults, TopicQueuing)
	s.MatchesAhead = 1
	status, body := a.call(t, "POST", PathSubscribe, s)
	id := SubscriptionID(s.Endpoint)
	if status != http.StatusCreated || !strings.Contains(body, `"id":"`+id+`"`) ||
		!strings.Contains(body, `"unsubscribe":"https://robohornets.test/api/push/unsubscribe/`+id+`"`) {
		t.Fatalf("subscribe = %d %s", status, body)
	}
	// Again, with other choices: the same subscription, updated.
	s.Topics, s.MatchesAhead = []Topic{TopicNews, TopicNews}, 0
	a.c.Advance(time.Hour)
	if status, body := a.call(t, "POST", PathSubscribe, s); status != http.StatusOK {
		t.Fatalf("subscribe again = %d %s", status, body)
	}
	doc, err := a.db.Get(t.Context(), SubscriptionsCollection, id)
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	if err := json.Unmarshal(doc, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Topics) != 1 || rec.Topics[0] != TopicNews || rec.MatchesAhead != 0 || !rec.Created.Equal(start) {
		t.Errorf("after subscribing again: topics %v, ahead %d, created %v; want [news], 0, %v", rec.Topics, rec.MatchesAhead, rec.Created, start)
	}
	if a.subscriptions(t) != 1 || total(t, a.db) != 1 {
		t.Errorf("%d subscriptions, count %d; want 1 and 1", a.subscriptions(t), total(t, a.db))
	}
	// Unsubscribe by endpoint, twice: 204 both times.
	for range 2 {
		if status, body := a.call(t, "POST", PathUnsubscribe, map[string]string{"endpoint": s.Endpoint}); status != http.StatusNoContent {
			t.Fatalf("unsubscribe = %d %s", status, body)
		}
	}
	if a.subscriptions(t) != 0 || total(t, a.db) != 0 {
		t.Errorf("%d subscriptions, count %d after unsubscribing; want 0 and 0", a.subscriptions(t), total(t, a.db))
	}
}

func TestAPIUnsubscribeLink(t *testing.T) {
	a := newAPI(t, Options{FollowPath: "/follow"})
	s := newSubscription(t, "https://fcm.googleapis.com/fcm/send/abc", TopicResults)
	if status, body := a.call(t, "POST", PathSubscribe, s); status != http.StatusCreated {
		t.Fatalf("subscribe = %d %s", status, body)
	}
	status, body := a.call(t, "GET", PathUnsubscribe+"/"+SubscriptionID(s.Endpoint), nil)
	if status != http.StatusOK || !strings.Contains(body, "Unsubscribed") || !strings.Contains(body, `href="/follow"`) {
		t.Errorf("the link = %d %s", status, body)
	}
	if a.subscriptions(t) != 0 {
		t.Error("the link did not unsubscribe")
	}
	if status, _ := a.call(t, "GET", PathUnsubscribe+"/not-an-id", nil); status != http.StatusBadRequest {
		t.Errorf("a link with a bad id = %d, want 400", status)
	}
}

// TestAPIRefusals: bad input is refused with a clear JSON error and
// changes nothing.
func TestAPIRefusals(t *testing.T) {
	a := newAPI(t, Options{})
	kept := newSubscription(t, "https://fcm.googleapis.com/fcm/send/kept", TopicResults)
	if status, body := a.call(t, "POST", PathSubscribe, kept); status != http.StatusCreated {
		t.Fatalf("subscribe = %d %s", status, body)
	}
	valid := func(edit func(s *Subscription)) Subscription {
		s := newSubscription(t, "https://fcm.googleapis.com/fcm/send/new", TopicResults)
		edit(&s)
		return s
	}
	tests := []struct {
		name   string
		body   any
		status int
		says   string
	}{
		{"not JSON", "{", 400, "not the JSON expected"},
		{"unknown field", `{"endpoint":"https://fcm.googleapis.com/x","name":"Ann"}`, 400, "unknown field"},
		{"two values", `{} {}`, 400, "more than one"},
		{"too large", `{"endpoint":"` + strings.Repeat("a", MaxBodyBytes) + `"}`, 413, "larger than 4096"},
		{"private endpoint", valid(func(s *Subscription) { s.Endpoint = "https://10.0.0.1/x" }), 400, "not public"},
		{"http endpoint", valid(func(s *Subscription) { s.Endpoint = "http://fcm.googleapis.com/x" }), 400, "not https"},
		{"short p256dh", valid(func(s *Subscription) { s.Keys.P256dh = s.Keys.P256dh[:40] }), 400, "p256dh"},
		{"p256dh off the curve", valid(func(s *Subscription) { s.Keys.P256dh = "B" + strings.Repeat("A", 86) }), 400, "P-256"},
		{"long auth", valid(func(s *Subscription) { s.Keys.Auth += "AAAA" }), 400, "auth"},
		{"no topics", valid(func(s *Subscription) { s.Topics = nil }), 400, "no topics"},
		{"unknown topic", valid(func(s *Subscription) { s.Topics = []Topic{"gossip"} }), 400, "gossip"},
		{"lead too long", valid(func(s *Subscription) { s.MatchesAhead = 4 }), 400, "matchesAhead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a.c.Advance(time.Minute) // a full rate budget
			status, body := a.call(t, "POST", PathSubscribe, tt.body)
			var e errorBody
			if err := json.Unmarshal([]byte(body), &e); err != nil || status != tt.status || !strings.Contains(e.Error, tt.says) {
				t.Errorf("= %d %s, want %d saying %q", status, body, tt.status, tt.says)
			}
		})
	}
	if status, _ := a.call(t, "POST", PathUnsubscribe, `{}`); status != http.StatusBadRequest {
		t.Errorf("unsubscribe without an endpoint = %d, want 400", status)
	}
	if a.subscriptions(t) != 1 || total(t, a.db) != 1 {
		t.Errorf("%d subscriptions, count %d after the refusals; want the one kept", a.subscriptions(t), total(t, a.db))
	}
}

// TestAPICaps: the caps per client and in all.
func TestAPICaps(t *testing.T) {
	a := newAPI(t, Options{MaxPerClient: 2, MaxSubscriptions: 3})
	sub := func(path string) Subscription {
		return newSubscription(t, "https://fcm.googleapis.com/fcm/send/"+path, TopicResults)
	}
	for _, p := range []string{"a", "b"} {
		if status, body := a.call(t, "POST", PathSubscribe, sub(p)); status != http.StatusCreated {
			t.Fatalf("subscribe %s = %d %s", p, status, body)
		}
	}
	if status, body := a.call(t, "POST", PathSubscribe, sub("c")); status != http.StatusTooManyRequests || !strings.Contains(body, "too many subscriptions") {
		t.Errorf("a third from one client = %d %s, want 429", status, body)
	}
	// Updating one is no new subscription.
	if status, _ := a.call(t, "POST", PathSubscribe, sub("a")); status != http.StatusOK {
		t.Errorf("updating = %d, want 200", status)
	}
	// Once one is gone, the client has room again.
	if status, _ := a.call(t, "POST", PathUnsubscribe, map[string]string{"endpoint": sub("a").Endpoint}); status != http.StatusNoContent {
		t.Fatal("unsubscribe failed")
	}
	if status, body := a.call(t, "POST", PathSubscribe, sub("c")); status != http.StatusCreated {
		t.Errorf("after unsubscribing = %d %s, want 201", status, body)
	}
	// The total cap, with a subscription from another client.
	if _, _, err := a.n.Subscribe(t.Context(), sub("d"), "other"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.n.Subscribe(t.Context(), sub("e"), "third"); !errors.Is(err, ErrFull) {
		t.Errorf("beyond the total cap: %v, want ErrFull", err)
	}
	a.c.Advance(time.Hour)
	if status, body := a.call(t, "POST", PathSubscribe, sub("f")); status != http.StatusServiceUnavailable {
		t.Errorf("beyond the total cap = %d %s, want 503", status, body)
	}
	if a.subscriptions(t) != 3 || total(t, a.db) != 3 {
		t.Errorf("%d subscriptions, count %d; want 3", a.subscriptions(t), total(t, a.db))
	}
}

// TestAPIRateLimit: a client gets a burst, then 429 with Retry-After
// until its bucket refills.
func TestAPIRateLimit(t *testing.T) {
	a := newAPI(t, Options{SubscribePerMinute: 6, SubscribeBurst: 3})
	body := map[string]string{"endpoint": "https://fcm.googleapis.com/fcm/send/none"}
	for i := range 3 {
		if status, _ := a.call(t, "POST", PathUnsubscribe, body); status != http.StatusNoContent {
			t.Fatalf("request %d = %d, want 204", i, status)
		}
	}
	req, _ := http.NewRequest("POST", a.URL+PathUnsubscribe, strings.NewReader(`{"endpoint":"x"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "10" {
		t.Errorf("over the rate = %s, Retry-After %q; want 429, 10", resp.Status, resp.Header.Get("Retry-After"))
	}
	if status, _ := a.call(t, "GET", PathKey, nil); status != http.StatusOK {
		t.Errorf("the key is not rate limited, got %d", status)
	}
	a.c.Advance(10 * time.Second)
	if status, _ := a.call(t, "POST", PathUnsubscribe, body); status != http.StatusNoContent {
		t.Errorf("after the wait = %d, want 204", status)
	}
}
