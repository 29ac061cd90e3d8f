package news

import (
	"context"
	"errors"
	"testing"
	"time"
)

// testStoreCRUD is what every Store must do, run against each one: an
// article written comes back as it was, a replace replaces, List has every
// article, Delete deletes (and a second Delete is ErrNotFound), and an ID
// that cannot be a file or document name is ErrInvalidID. s must start
// empty.
func testStoreCRUD(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	a := Article{ID: "kickoff", Title: "Kickoff: \"Rebuilt\"", Date: time.Date(2027, 1, 9, 11, 0, 0, 0, time.UTC), Content: "# Rebuilt\n\nWe watched **the reveal**.\n"}
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
	SortNewestFirst(list)
	if len(list) != 2 || list[0].ID != "kickoff" || list[1].ID != "older" {
		t.Fatalf("List = %+v, want 2 articles, kickoff first", list)
	}
	a.Title = "Kickoff day"
	if err := s.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx, "kickoff"); got.Title != "Kickoff day" {
		t.Fatalf("after replace, title = %q", got.Title)
	}
	if err := s.Delete(ctx, "kickoff"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "kickoff"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "kickoff"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second Delete = %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"a/b", "__x__", ".."} {
		if err := s.Put(ctx, Article{ID: bad, Title: "t", Date: a.Date}); !errors.Is(err, ErrInvalidID) {
			t.Errorf("Put(%q) = %v, want ErrInvalidID", bad, err)
		}
	}
}
