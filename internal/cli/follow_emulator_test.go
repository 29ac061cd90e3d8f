//go:build emulator && slow

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
	"github.com/robohornets/robohornets/internal/testutil/webpushtest"
)

// followEmulator is the run's shared emulator when there is one.
var followEmulator firestoretest.Emulator

// followToken is the Nexus webhook's token of TestFollowOnePushFromThree.
const followToken = "follow-test-token"

// queueCallGoal is how soon after the queue call a follower has it (the
// issue's goal, p95, is 2 s; this test takes one sample on a busy machine,
// so it allows more and logs what it saw).
const queueCallGoal = 10 * time.Second

// TestFollowOnePushFromThree runs three serve instances on one Firestore
// project, each with the follow page's push API, and a real push service
// stand-in (web-push-testing). Followers subscribe through different
// instances; then Nexus says our match is queuing, and every instance
// hears it (each webhook delivery stands for an instance's own poll):
// every follower gets exactly one notification, through real Web Push
// encryption, naming the match.
func TestFollowOnePushFromThree(t *testing.T) {
	t.Cleanup(followEmulator.Stop)
	t.Setenv("FIRESTORE_EMULATOR_HOST", followEmulator.Start(t))
	t.Setenv("NEXUS_WEBHOOK_TOKEN", followToken)
	project := firestoretest.FreshProject(t)
	service := webpushtest.Start(t)

	var servers []*servetest.Server
	for range 3 {
		servers = append(servers, servetest.StartServe(t, programCmd(t, "serve", "--store", "firestore", "--project", project,
			"--data", t.TempDir(), "--listen", "127.0.0.1:0", "--event", "2026okok", "--push-allow-loopback"), servetest.ServeOptions{}))
	}
	var key string
	for i, s := range servers {
		var got struct{ PublicKey string }
		getJSON(t, s.URL+"/api/push/key", &got)
		if got.PublicKey == "" || key != "" && got.PublicKey != key {
			t.Fatalf("instance %d's key %q, the first's %q: want one key for all", i, got.PublicKey, key)
		}
		key = got.PublicKey
	}

	var subs []webpushtest.Subscription
	for i := range 4 {
		sub := service.Subscribe(t, key)
		body, _ := json.Marshal(map[string]any{"endpoint": sub.Endpoint, "keys": sub.Keys, "topics": []string{"queuing", "results"}, "matchesAhead": 0})
		res, err := http.Post(servers[i%3].URL+"/api/push/subscribe", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("subscribe through instance %d: %d", i%3, res.StatusCode)
		}
		subs = append(subs, sub)
	}

	// Qualification 14 is ours, queuing soon; then it is queuing.
	start := time.Now()
	nexus(t, servers, start, "Queuing soon")
	for _, s := range servers {
		waitFor(t, s.URL+"/api/event", `"label":"Qualification 14"`)
	}
	called := time.Now()
	nexus(t, servers, called.Add(time.Second), "Now queuing")

	for i, sub := range subs {
		deadline := called.Add(queueCallGoal)
		for len(service.Messages(t, sub)) == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond) // the poll's pace
		}
		if i == 0 {
			t.Logf("the first follower had the call %v after it was made", time.Since(called).Round(time.Millisecond))
		}
	}
	// Long enough for a second instance's copy to have come, were there one.
	time.Sleep(3 * time.Second)
	for i, sub := range subs {
		msgs := service.Messages(t, sub)
		if len(msgs) != 1 {
			t.Errorf("follower %d has %d notifications, want 1: %q", i, len(msgs), msgs)
			continue
		}
		var payload struct {
			Title string `json:"title"`
			Tag   string `json:"tag"`
		}
		if err := json.Unmarshal([]byte(msgs[0]), &payload); err != nil || !strings.Contains(payload.Title, "Qualification 14") ||
			!strings.Contains(strings.ToLower(payload.Title), "queu") {
			t.Errorf("follower %d's notification %s (%v): want the queue call of Qualification 14", i, msgs[0], err)
		}
	}
}

// nexus sends Nexus's event status, our Qualification 14 at status, as of
// asOf, to every instance's webhook.
func nexus(t *testing.T, servers []*servetest.Server, asOf time.Time, status string) {
	t.Helper()
	ms := func(d time.Duration) int64 { return asOf.Add(d).UnixMilli() }
	body := fmt.Sprintf(`{"eventKey":"2026okok","dataAsOfTime":%d,"nowQueuing":"Qualification 13","matches":[`+
		`{"label":"Qualification 13","status":"On field","redTeams":["118","254","1678"],"blueTeams":["148","971","2056"],"times":{"estimatedStartTime":%d}},`+
		`{"label":"Qualification 14","status":%q,"redTeams":["1209","2357","4500"],"blueTeams":["3310","624","5414"],"times":{"estimatedQueueTime":%d,"estimatedStartTime":%d}}],`+
		`"announcements":[],"partsRequests":[]}`, asOf.UnixMilli(), ms(0), status, ms(time.Minute), ms(12*time.Minute))
	for i, s := range servers {
		req, err := http.NewRequest(http.MethodPost, s.URL+"/api/nexus/webhook", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Nexus-Token", followToken)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("webhook of instance %d: %d", i, res.StatusCode)
		}
	}
}

// getJSON decodes url's answer into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, body := servetest.Get(t, url, nil)
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, v) != nil {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, body)
	}
}

// waitFor polls url until its answer holds want.
func waitFor(t *testing.T, url, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, body := servetest.Get(t, url, nil)
		if bytes.Contains(body, []byte(want)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %s: %s", url, want, body)
		}
		time.Sleep(50 * time.Millisecond) // the poll's pace
	}
}
