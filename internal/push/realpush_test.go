package push

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/testutil/webpushtest"
)

// received is a decrypted payload as the phone gets it.
type received struct {
	WebPush      int  `json:"web_push"`
	Mutable      bool `json:"mutable"`
	Notification struct {
		Title    string `json:"title"`
		Body     string `json:"body"`
		Navigate string `json:"navigate"`
		Tag      string `json:"tag"`
		Lang     string `json:"lang"`
	} `json:"notification"`
	ID          string `json:"id"`
	Topic       string `json:"topic"`
	Title       string `json:"title"`
	Body        string `json:"body"`
	URL         string `json:"url"`
	Tag         string `json:"tag"`
	Unsubscribe string `json:"unsubscribe"`
}

// TestRealPush: a subscription made by a real push service stand-in
// (web-push-testing, which checks the VAPID signature and decrypts the
// aes128gcm payload) gets the notification with our fields and the
// Declarative Web Push ones; an expired one (410) is deleted; a body that
// fills the payload's limit goes through.
func TestRealPush(t *testing.T) {
	service := webpushtest.Start(t)
	c := clock.NewFake(start)
	db := openLocal(t)
	n := newNotifier(t, db, c, Options{})
	key, err := n.PublicKey(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	browser := service.Subscribe(t, key)
	var s Subscription
	s.Endpoint, s.Keys.P256dh, s.Keys.Auth, s.Topics = browser.Endpoint, browser.Keys.P256dh, browser.Keys.Auth, []Topic{TopicResults}
	id, created, err := n.Subscribe(t.Context(), s, "127.0.0.1")
	if err != nil || !created {
		t.Fatalf("Subscribe = %v, %v", created, err)
	}

	if err := n.Notify(t.Context(), results); err != nil {
		t.Fatal(err)
	}
	messages := service.Messages(t, browser)
	if len(messages) != 1 {
		t.Fatalf("%d messages, want 1: %q", len(messages), messages)
	}
	var got received
	if err := json.Unmarshal([]byte(messages[0]), &got); err != nil {
		t.Fatalf("payload %q: %v", messages[0], err)
	}
	want := received{WebPush: 8030, Mutable: true, ID: "result/2026okok_qm44", Topic: "results", Title: "Won qm44", Body: "1209 won 112–87",
		URL: "https://robohornets.test/follow", Tag: "result/qm44", Unsubscribe: "https://robohornets.test/api/push/unsubscribe/" + id}
	want.Notification.Title, want.Notification.Body, want.Notification.Navigate = "Won qm44", "1209 won 112–87", "https://robohornets.test/follow"
	want.Notification.Tag, want.Notification.Lang = "result/qm44", "en-US"
	if got != want {
		t.Errorf("payload\n got %+v\nwant %+v", got, want)
	}

	// The largest payload: a body far too long is cut to fit, and still
	// goes through.
	long := results
	long.ID, long.Body = "news/long", strings.Repeat("Ünïcödé body text. ", 400)
	if err := n.Notify(t.Context(), long); err != nil {
		t.Fatal(err)
	}
	messages = service.Messages(t, browser)
	if len(messages) != 2 {
		t.Fatalf("%d messages, want 2", len(messages))
	}
	if len(messages[1]) > MaxPayloadBytes || len(messages[1]) < MaxPayloadBytes-16 {
		t.Errorf("the long payload is %d bytes, want just under %d", len(messages[1]), MaxPayloadBytes)
	}
	if err := json.Unmarshal([]byte(messages[1]), &got); err != nil || !strings.HasSuffix(got.Body, "…") || !utf8.ValidString(got.Body) ||
		got.Notification.Body != got.Body {
		t.Errorf("the long body: %q (%v)", got.Body, err)
	}

	// The service expires the subscription: the next push deletes it.
	service.Expire(t, browser)
	next := results
	next.ID = "result/2026okok_qm50"
	if err := n.Notify(t.Context(), next); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Get(t.Context(), SubscriptionsCollection, id); !errors.Is(err, docstore.ErrNotFound) {
		t.Errorf("after 410 the subscription is still there (%v)", err)
	}
	if total(t, db) != 0 {
		t.Errorf("count %d after 410, want 0", total(t, db))
	}
}

// TestPayloadLimit: the payload never exceeds MaxPayloadBytes; a message
// that does not fit even without its body is refused before anything is
// claimed or sent.
func TestPayloadLimit(t *testing.T) {
	c := clock.NewFake(start)
	db := openLocal(t)
	n := newNotifier(t, db, c, Options{})
	huge := results
	huge.Title = strings.Repeat("t", MaxPayloadBytes/2)
	if err := n.Notify(t.Context(), huge); !errors.Is(err, ErrPayloadTooLarge) {
		t.Errorf("a huge title: %v, want ErrPayloadTooLarge", err)
	}
	if _, err := db.Get(t.Context(), NotificationsCollection, notificationID(huge.ID)); !errors.Is(err, docstore.ErrNotFound) {
		t.Errorf("a refused message was claimed (%v)", err)
	}
	for _, size := range []int{0, 100, 800, 1000, 5000} {
		m := results
		m.Body = strings.Repeat("\"", size) // escaped: two bytes each, twice
		data, err := encodePayload(m, n.unsubscribeURL(SubscriptionID("x")))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > MaxPayloadBytes {
			t.Errorf("a body of %d quotes: %d bytes", size, len(data))
		}
		var p payload
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		if cut := len(p.Body) < size; cut != (size >= 1000) {
			t.Errorf("a body of %d quotes: cut %v", size, cut)
		}
	}
}
