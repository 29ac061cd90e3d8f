//go:build emulator

package rules

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/cli"
	"github.com/robohornets/robohornets/internal/console"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/push"
	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

// rulesFile is the repository's Firestore security rules, from this
// package's directory (where go test runs its tests).
const rulesFile = "../../firestore.rules"

// emulator is the Firestore emulator of the tests, stopped by TestMain;
// each test's project has its rules (firestoretest.RulesProject).
var emulator firestoretest.Emulator

func TestMain(m *testing.M) { firestoretest.Main(m, &emulator) }

// collections returns every collection the program reads or writes: the
// news, the console's documents, the docstore's blobs, readiness's
// document and the followers' push subscriptions, keys and notifications.
// Each comes from the code, so a new one is tested too.
func collections() []string {
	return slices.Concat([]string{news.Collection, docstore.BlobCollection, cli.ReadyCollection}, console.Collections, push.Collections)
}

// httpClient keeps no idle connection, so no goroutine outlives a test
// (firestoretest.Main looks for leaks).
var httpClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}

// Authorization header values.
const (
	// noAuth sends no Authorization header: a browser that is not signed in.
	noAuth = ""
	// ownerAuth is the emulator's admin: it bypasses the rules, as the
	// server's service account does on Google's Firestore.
	ownerAuth = "Bearer owner"
)

// idToken returns an unsigned Firebase ID token of user uid of project:
// the emulator takes it as a signed-in user, as a web client of Firebase
// Authentication sends. Its times are fixed: issued 2026-01-01, expires
// 2100-01-01.
func idToken(tb testing.TB, project, uid string) string {
	tb.Helper()
	header, err := json.Marshal(map[string]string{"alg": "none", "typ": "JWT"})
	if err != nil {
		tb.Fatal(err)
	}
	payload, err := json.Marshal(map[string]any{
		"iss":       "https://securetoken.google.com/" + project,
		"aud":       project,
		"sub":       uid,
		"user_id":   uid,
		"iat":       1767225600,
		"auth_time": 1767225600,
		"exp":       4102444800,
		"firebase":  map[string]any{"sign_in_provider": "password", "identities": map[string]any{}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	enc := base64.RawURLEncoding
	return "Bearer " + enc.EncodeToString(header) + "." + enc.EncodeToString(payload) + "."
}

// rest talks to one project of an emulator over Firestore's REST API.
type rest struct {
	host    string
	project string
}

// documents returns the URL of the project's documents root.
func (r rest) documents() string {
	return "http://" + r.host + "/v1/projects/" + r.project + "/databases/(default)/documents"
}

// name returns the resource name of coll/id.
func (r rest) name(coll, id string) string {
	return "projects/" + r.project + "/databases/(default)/documents/" + coll + "/" + id
}

// do sends one request: method on the documents root followed by path
// (which starts with "/" or ":"), with the Authorization header auth
// ("" for none) and body ("" for none). It returns the status and the
// answer's body.
func (r rest) do(tb testing.TB, method, path, auth, body string) (int, string) {
	tb.Helper()
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(tb.Context(), method, r.documents()+path, reader)
	if err != nil {
		tb.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }() // a read body: nothing to lose
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, string(answer)
}

// jsonField returns the string field json of a document the REST API
// returned, and "" when it has none.
func jsonField(tb testing.TB, body string) string {
	tb.Helper()
	var doc struct {
		Fields struct {
			JSON struct {
				StringValue string `json:"stringValue"`
			} `json:"json"`
		} `json:"fields"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		tb.Fatalf("a document: %v: %s", err, body)
	}
	return doc.Fields.JSON.StringValue
}

// Documents and values of the refusal test.
const (
	// seedID is the document the admin writes first in every collection,
	// which clients then try to read, change and delete.
	seedID = "seed"
	// seeded is the seed's json field.
	seeded = "seeded by the server"
	// createdID is the document clients try to create.
	createdID = "created"
	// clientFields are what clients try to write.
	clientFields = `{"fields":{"json":{"stringValue":"written by a client"}}}`
)

// request is one read or write a client tries.
type request struct {
	name   string
	method string
	path   string
	body   string
}

// requests returns every kind of read and write of the REST API on coll:
// get (of a document that exists and of one that does not), list, query,
// batch get, create, update, commit (a write batch, as the client SDKs
// write) and delete.
func requests(r rest, coll string) []request {
	return []request{
		{"get", http.MethodGet, "/" + coll + "/" + seedID, ""},
		{"get missing", http.MethodGet, "/" + coll + "/absent", ""},
		{"list", http.MethodGet, "/" + coll, ""},
		{"query", http.MethodPost, ":runQuery", `{"structuredQuery":{"from":[{"collectionId":"` + coll + `"}]}}`},
		{"batch get", http.MethodPost, ":batchGet", `{"documents":["` + r.name(coll, seedID) + `"]}`},
		{"create", http.MethodPost, "/" + coll + "?documentId=" + createdID, clientFields},
		{"update", http.MethodPatch, "/" + coll + "/" + seedID, clientFields},
		{"commit", http.MethodPost, ":commit",
			`{"writes":[{"update":{"name":"` + r.name(coll, createdID) + `","fields":{"json":{"stringValue":"written by a client"}}}}]}`},
		{"delete", http.MethodDelete, "/" + coll + "/" + seedID, ""},
	}
}

// refused reports whether an answer is Firestore's refusal by the rules.
func refused(code int, body string) bool {
	return code == http.StatusForbidden && strings.Contains(body, "PERMISSION_DENIED")
}

// TestSignedInTokenIsRecognised proves that the emulator takes idToken's
// tokens as signed-in users, so that TestClientsAreRefused refuses a
// signed-in user and not a request it could not read: in a project whose
// rules let only the user "member-1" in, that user's token reads and
// writes, another user's token and no token are refused.
func TestSignedInTokenIsRecognised(t *testing.T) {
	variant := filepath.Join(t.TempDir(), "member-only.rules")
	err := os.WriteFile(variant, []byte(`rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /{document=**} {
      allow read, write: if request.auth != null && request.auth.uid == "member-1";
    }
  }
}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	project := emulator.RulesProject(t, variant)
	r := rest{host: emulator.Start(t), project: project}
	member, other := idToken(t, project, "member-1"), idToken(t, project, "member-2")
	path := "/" + news.Collection + "/probe"

	if code, body := r.do(t, http.MethodPatch, path, member, clientFields); code != http.StatusOK {
		t.Fatalf("member-1 writes %s: %d %s", path, code, body)
	}
	code, body := r.do(t, http.MethodGet, path, member, "")
	if code != http.StatusOK || jsonField(t, body) != "written by a client" {
		t.Errorf("member-1 reads %s: %d %s", path, code, body)
	}
	for _, c := range []struct{ name, auth string }{{"member-2", other}, {"no token", noAuth}} {
		if code, body := r.do(t, http.MethodGet, path, c.auth, ""); !refused(code, body) {
			t.Errorf("%s reads %s: %d %s, want 403 PERMISSION_DENIED", c.name, path, code, body)
		}
	}
}

// TestClientsAreRefused seeds a document in every collection the program
// uses, as the server (admin), then tries every kind of REST read and
// write on each as a client without credentials and as a signed-in
// Firebase user: every one is refused with 403 PERMISSION_DENIED, and
// afterwards every seed is as it was and no client's document exists.
func TestClientsAreRefused(t *testing.T) {
	project := emulator.RulesProject(t, rulesFile)
	r := rest{host: emulator.Start(t), project: project}
	colls := collections()
	for _, coll := range colls {
		body := `{"fields":{"json":{"stringValue":"` + seeded + `"}}}`
		if code, answer := r.do(t, http.MethodPatch, "/"+coll+"/"+seedID, ownerAuth, body); code != http.StatusOK {
			t.Fatalf("the admin seeds %s/%s: %d %s", coll, seedID, code, answer)
		}
	}
	clients := []struct{ name, auth string }{
		{"no credentials", noAuth},
		{"signed-in user", idToken(t, project, "member-1")},
	}
	for _, client := range clients {
		for _, coll := range colls {
			for _, req := range requests(r, coll) {
				t.Run(client.name+"/"+coll+"/"+req.name, func(t *testing.T) {
					if code, body := r.do(t, req.method, req.path, client.auth, req.body); !refused(code, body) {
						t.Errorf("%s %s: %d %s, want 403 PERMISSION_DENIED", req.method, req.path, code, body)
					}
				})
			}
		}
	}
	for _, coll := range colls {
		code, body := r.do(t, http.MethodGet, "/"+coll+"/"+seedID, ownerAuth, "")
		if code != http.StatusOK || jsonField(t, body) != seeded {
			t.Errorf("%s/%s after the clients: %d %s, want the seed unchanged", coll, seedID, code, body)
		}
		if code, body := r.do(t, http.MethodGet, "/"+coll+"/"+createdID, ownerAuth, ""); code != http.StatusNotFound {
			t.Errorf("%s/%s after the clients: %d %s, want 404", coll, createdID, code, body)
		}
	}
}

// watchTimeout bounds the wait for a listener's first snapshot.
const watchTimeout = 30 * time.Second

// TestServerReadsAndWrites runs the program's own stores, with the client
// library it uses in production, in a project with the rules: the news
// store writes, reads, lists and follows an article; the console's
// docstore writes, reads, lists and updates a document in each console
// collection, follows one, stores and reads a blob and reads readiness's
// document. The client library sends admin credentials to an emulator,
// as the server's service account is on Google's Firestore: the rules do
// not judge it. The article it wrote is still refused to a client.
func TestServerReadsAndWrites(t *testing.T) {
	host := emulator.Start(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := emulator.RulesProject(t, rulesFile)
	ctx := t.Context()

	t.Run("news", func(t *testing.T) {
		store, err := news.OpenFirestore(ctx, project)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = store.Close() })
		want := news.Article{ID: "rules-check", Title: "Rules", Content: "The server writes past the rules.",
			Date: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)}
		if err := store.Put(ctx, want); err != nil {
			t.Fatalf("put: %v", err)
		}
		got, err := store.Get(ctx, want.ID)
		if err != nil || got.Title != want.Title || got.Content != want.Content || !got.Date.Equal(want.Date) {
			t.Errorf("get: %+v, %v; want %+v", got, err, want)
		}
		list, err := store.List(ctx)
		if err != nil || len(list) != 1 || list[0].ID != want.ID {
			t.Errorf("list: %+v, %v; want the one article", list, err)
		}
		watched := watch(t, func(ctx context.Context, seen func(ids []string)) error {
			return store.Watch(ctx, func(list []news.Article) {
				ids := make([]string, 0, len(list))
				for _, a := range list {
					ids = append(ids, a.ID)
				}
				seen(ids)
			})
		})
		if !slices.Equal(watched, []string{want.ID}) {
			t.Errorf("watch: first snapshot %v, want [%s]", watched, want.ID)
		}

		r := rest{host: host, project: project}
		path := "/" + news.Collection + "/" + want.ID
		if code, body := r.do(t, http.MethodGet, path, noAuth, ""); !refused(code, body) {
			t.Errorf("a client reads the server's article: %d %s, want 403 PERMISSION_DENIED", code, body)
		}
		if err := store.Delete(ctx, want.ID); err != nil {
			t.Errorf("delete: %v", err)
		}
	})

	t.Run("docstore", func(t *testing.T) {
		db, err := docstore.OpenFirestore(ctx, project)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		for _, coll := range console.Collections {
			if err := db.Put(ctx, coll, "rules-check", []byte(`{"n":1}`)); err != nil {
				t.Errorf("put %s: %v", coll, err)
				continue
			}
			err := db.Update(ctx, coll, "rules-check", func(cur []byte) ([]byte, error) {
				if string(cur) != `{"n":1}` {
					return nil, fmt.Errorf("update read %s", cur)
				}
				return []byte(`{"n":2}`), nil
			})
			if err != nil {
				t.Errorf("update %s: %v", coll, err)
			}
			if got, err := db.Get(ctx, coll, "rules-check"); err != nil || string(got) != `{"n":2}` {
				t.Errorf("get %s: %s, %v; want {\"n\":2}", coll, got, err)
			}
			if docs, err := db.List(ctx, coll); err != nil || len(docs) != 1 {
				t.Errorf("list %s: %v, %v; want one document", coll, docs, err)
			}
		}
		if err := db.PutBlob(ctx, "rules-check", []byte{1, 2, 3}); err != nil {
			t.Errorf("put blob: %v", err)
		}
		if got, err := db.GetBlob(ctx, "rules-check"); err != nil || string(got) != "\x01\x02\x03" {
			t.Errorf("get blob: %v, %v; want [1 2 3]", got, err)
		}
		if _, err := db.Get(ctx, cli.ReadyCollection, cli.ReadyID); !errors.Is(err, docstore.ErrNotFound) {
			t.Errorf("readiness's read: %v, want an answer of no such document", err)
		}
		watched := watch(t, func(ctx context.Context, seen func(ids []string)) error {
			return db.Watch(ctx, notice.Collection, func(docs []docstore.Doc) {
				ids := make([]string, 0, len(docs))
				for _, d := range docs {
					ids = append(ids, d.ID)
				}
				seen(ids)
			})
		})
		if !slices.Equal(watched, []string{"rules-check"}) {
			t.Errorf("watch %s: first snapshot %v, want [rules-check]", notice.Collection, watched)
		}
	})
}

// watch runs a listener until its first snapshot, given as the ids it
// holds, then stops it and returns them. It fails the test when the
// listener ends first or no snapshot comes within watchTimeout.
func watch(t *testing.T, listen func(ctx context.Context, seen func(ids []string)) error) []string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	first := make(chan []string, 1)
	done := make(chan error, 1)
	go func() {
		done <- listen(ctx, func(ids []string) {
			select {
			case first <- ids:
			default: // only the first snapshot is wanted; the listener never blocks
			}
		})
	}()
	var ids []string
	select {
	case ids = <-first:
	case err := <-done:
		t.Fatalf("the listener ended before its first snapshot: %v", err)
	case <-time.After(watchTimeout):
		cancel()
		t.Fatalf("no snapshot within %v (stopped, the listener ended with %v)", watchTimeout, <-done)
	}
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("the listener ended with %v", err)
	}
	return ids
}
