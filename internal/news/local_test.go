package news

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/chantest"
)

func openTestLocal(t *testing.T) *LocalStore {
	t.Helper()
	s, err := OpenLocal(filepath.Join(t.TempDir(), "news"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLocalStoreSeedsANewDirectoryOnly(t *testing.T) {
	s := openTestLocal(t)
	list, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	samples, _ := SampleArticles()
	if len(list) != len(samples) || len(list) < 4 {
		t.Fatalf("fresh store has %d articles, want the %d samples (at least 4)", len(list), len(samples))
	}
	for _, want := range samples {
		if !slices.ContainsFunc(list, func(a Article) bool { return sameArticle(a, want) }) {
			t.Errorf("fresh store lacks the sample %q", want.ID)
		}
	}
	// Reopening an existing directory, even an emptied one, seeds nothing.
	for _, a := range list {
		if err := s.Delete(context.Background(), a.ID); err != nil {
			t.Fatal(err)
		}
	}
	again, err := OpenLocal(s.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if list, _ := again.List(context.Background()); len(list) != 0 {
		t.Fatalf("reopened store has %d articles, want 0", len(list))
	}
}

func TestSampleArticlesCoverTheFeatures(t *testing.T) {
	samples, err := SampleArticles()
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	cut := false
	for _, a := range samples {
		html, err := Render(a.Content)
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(html)
		if p, _ := Preview(a.Content); strings.Contains(p, "…") {
			cut = true
		}
	}
	for _, want := range []string{"<h2>", "<ul>", "<a href=", "<table>"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no sample article renders %s", want)
		}
	}
	if !cut {
		t.Error("no sample article is long enough for its preview to be cut")
	}
}

func TestLocalStoreCRUD(t *testing.T) {
	// An existing directory is not seeded: the store starts empty.
	s, err := OpenLocal(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	testStoreCRUD(t, s)
}

func TestLocalStoreRejectsBadInputAndWritesNothing(t *testing.T) {
	ctx := context.Background()
	s := openTestLocal(t)
	before := dirNames(t, s.dir)
	date := time.Date(2027, 1, 9, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		a    Article
		want error
	}{
		{"slash", Article{ID: "a/b", Title: "t", Date: date}, ErrInvalidID},
		{"dot dot", Article{ID: "..", Title: "t", Date: date}, ErrInvalidID},
		{"reserved", Article{ID: "__x__", Title: "t", Date: date}, ErrInvalidID},
		{"hidden file", Article{ID: ".secret", Title: "t", Date: date}, ErrInvalidID},
		{"backslash", Article{ID: `a\b`, Title: "t", Date: date}, ErrInvalidID},
		{"too long for a file name", Article{ID: strings.Repeat("x", 300), Title: "t", Date: date}, ErrInvalidID},
		{"no title", Article{ID: "ok", Date: date}, ErrInvalidArticle},
		{"no date", Article{ID: "ok", Title: "t"}, ErrInvalidArticle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Put(ctx, tt.a); !errors.Is(err, tt.want) {
				t.Fatalf("Put = %v, want %v", err, tt.want)
			}
		})
	}
	if after := dirNames(t, s.dir); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("bad input changed the directory: %v -> %v", before, after)
	}
}

func TestLocalStoreSkipsBrokenAndTemporaryFiles(t *testing.T) {
	s := openTestLocal(t)
	n := len(mustList(t, s))
	// A hand edit that broke the front matter, and the temporary file a
	// killed write leaves behind: neither may hide the good articles.
	writeRaw(t, s.dir, "broken.md", "---\ntitle: Oops\ndate: yesterday\n---\nx")
	writeRaw(t, s.dir, ".half.md.tmp-123", "---\ntitle: Half")
	writeRaw(t, s.dir, "notes.txt", "not an article")
	if got := len(mustList(t, s)); got != n {
		t.Fatalf("List has %d articles, want %d (broken and temporary files skipped)", got, n)
	}
	if _, err := s.Get(context.Background(), "broken"); !errors.Is(err, ErrFrontMatter) {
		t.Fatalf("Get(broken) = %v, want ErrFrontMatter", err)
	}
}

func TestLocalStoreWatchSeesWritesEditsAndDeletes(t *testing.T) {
	s := openTestLocal(t)
	ctx, cancel := context.WithCancel(context.Background())
	lists := make(chan []Article, 16)
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx, func(l []Article) { lists <- l }) }()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Watch returned %v, want context.Canceled", err)
		}
	}()
	initial := chantest.Receive(t, lists, "list from Watch", 10*time.Second)

	// A file written by hand (an editor's save) appears.
	writeRaw(t, s.dir, "hand.md", "---\ntitle: By hand\ndate: 2030-01-01T00:00:00Z\n---\nHello")
	waitFor(t, lists, func(l []Article) bool {
		return len(l) == len(initial)+1 && slices.ContainsFunc(l, func(a Article) bool { return a.ID == "hand" })
	})

	// An edit through the store replaces it.
	a, _ := s.Get(context.Background(), "hand")
	a.Title = "Edited"
	if err := s.Put(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	waitFor(t, lists, func(l []Article) bool {
		return slices.ContainsFunc(l, func(a Article) bool { return a.ID == "hand" && a.Title == "Edited" })
	})

	// A delete removes it.
	if err := os.Remove(filepath.Join(s.dir, "hand.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, lists, func(l []Article) bool { return len(l) == len(initial) })
}

func waitFor(t *testing.T, lists <-chan []Article, ok func([]Article) bool) {
	t.Helper()
	for {
		if l := chantest.Receive(t, lists, "list from Watch", 10*time.Second); ok(l) {
			return
		}
	}
}

func mustList(t *testing.T, s Store) []Article {
	t.Helper()
	l, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func writeRaw(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}

// TestStartRemovesStaleCacheFiles: a cache write killed half way (the news
// list's or the pit display's) leaves a temporary file in the cache
// directory; the next start removes it once it is old, and keeps a young one.
func TestStartRemovesStaleCacheFiles(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(cache, ".event.json.tmp-123")
	young := filepath.Join(cache, ".news.json.tmp-456")
	for _, f := range []string{stale, young} {
		if err := os.WriteFile(f, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	_, stop, err := Start(Config{Dir: dir, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale cache file is still there: %v", err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a young temporary file, maybe a write under way, was removed: %v", err)
	}
}
