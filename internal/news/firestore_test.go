package news

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// openEmulatorStore returns a FirestoreStore on a fresh project of the real
// emulator, and that project's REST base URL for writes made outside this code.
func openEmulatorStore(t testing.TB) (*FirestoreStore, string) {
	t.Helper()
	host := emulator.Start(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := freshProject(t)
	s, err := OpenFirestore(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, fmt.Sprintf("http://%s/v1/projects/%s/databases/(default)/documents/%s", host, project, Collection)
}

func TestOpenFirestoreNeedsAProject(t *testing.T) {
	_, err := OpenFirestore(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "--project") {
		t.Fatalf("OpenFirestore(\"\") = %v, want an error naming --project", err)
	}
}

func TestFirestoreStoreCRUD(t *testing.T) {
	ctx := context.Background()
	s, _ := openEmulatorStore(t)
	a := Article{ID: "kickoff", Title: "Kickoff", Date: time.Date(2027, 1, 9, 17, 0, 0, 0, time.UTC), Content: "# Rebuilt\n\nGo!"}
	if err := s.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, article("older", 1)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "kickoff")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != a.Title || got.Content != a.Content || !got.Date.Equal(a.Date) {
		t.Fatalf("Get = %+v, want %+v", got, a)
	}
	list, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "kickoff" {
		t.Fatalf("List = %+v, want 2 articles, kickoff first", list)
	}
	if err := s.Delete(ctx, "kickoff"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "kickoff"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "kickoff"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Delete of a missing article = %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"a/b", "__x__", ".."} {
		if err := s.Put(ctx, Article{ID: bad, Title: "t", Date: a.Date}); !errors.Is(err, ErrInvalidID) {
			t.Errorf("Put(%q) = %v, want ErrInvalidID", bad, err)
		}
	}
}

// restWrite changes a document through the emulator's REST API, the way
// another client (the Firebase console, another instance) would.
func restWrite(t testing.TB, method, url string, doc map[string]any) {
	t.Helper()
	var body bytes.Buffer
	if doc != nil {
		_ = json.NewEncoder(&body).Encode(doc)
	}
	req, err := http.NewRequest(method, url, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s", method, url, resp.Status)
	}
}

func restDoc(title, content string, date time.Time) map[string]any {
	return map[string]any{"fields": map[string]any{
		"title":   map[string]string{"stringValue": title},
		"content": map[string]string{"stringValue": content},
		"date":    map[string]string{"timestampValue": date.Format(time.RFC3339)},
	}}
}

func TestFirestoreWatchThroughTheHub(t *testing.T) {
	s, base := openEmulatorStore(t)
	hub := NewHub(HubOptions{Store: s})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hub.Run(ctx)
	}()
	defer func() { cancel(); <-done }()
	changed, stop := hub.Subscribe()
	defer stop()

	await := func(what string, ok func(Snapshot) bool) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for !ok(hub.Current()) {
			select {
			case <-changed:
			case <-deadline:
				t.Fatalf("hub never saw %s; it has %+v", what, hub.Current())
			}
		}
	}
	await("the empty collection", func(s Snapshot) bool { return s.Live })

	date := time.Date(2027, 2, 1, 18, 0, 0, 0, time.UTC)
	restWrite(t, http.MethodPost, base+"?documentId=rest-news", restDoc("From REST", "**bold**", date))
	await("the new document", func(s Snapshot) bool {
		a, ok := s.Article("rest-news")
		return ok && a.Title == "From REST" && strings.Contains(a.HTML, "<strong>bold</strong>") && a.Date.Equal(date)
	})

	restWrite(t, http.MethodPatch, base+"/rest-news", restDoc("Edited over REST", "x", date))
	await("the edit", func(s Snapshot) bool {
		a, ok := s.Article("rest-news")
		return ok && a.Title == "Edited over REST"
	})

	restWrite(t, http.MethodDelete, base+"/rest-news", nil)
	await("the delete", func(s Snapshot) bool {
		_, ok := s.Article("rest-news")
		return !ok
	})
}
