package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/notice"
)

func TestCreateMakesADraftWithAFreeID(t *testing.T) {
	f := newContentFixture(t)
	if err := f.news.Put(context.Background(), news.Article{ID: "kickoff-day-2", Title: "Taken", Date: t0, Content: "x"}); err != nil {
		t.Fatal(err)
	}
	p := f.create(alice, "  Kickoff Day! ", "We are *back*.")
	if p.ID != "kickoff-day" || p.Version != 1 || p.Status != StatusDraft || p.Changed || p.Title != "Kickoff Day!" ||
		p.Content != "We are *back*." || p.UpdatedBy != "Alice" || !p.UpdatedAt.Equal(t0) {
		t.Errorf("created %+v", p)
	}
	// kickoff-day is a post, kickoff-day-2 an article of the news command.
	if again := f.create(bob, "Kickoff day", ""); again.ID != "kickoff-day-3" {
		t.Errorf("second post id %q, want kickoff-day-3", again.ID)
	}
	if _, err := f.news.Get(context.Background(), "kickoff-day"); !errors.Is(err, news.ErrNotFound) {
		t.Errorf("a draft is in the news store: %v", err)
	}
}

func TestCreatesAndSavesAreValidated(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Valid", "text")
	tests := []struct {
		name   string
		fields PostFields
		status int
		want   string
	}{
		{"no title", PostFields{Title: "  ", Date: t0}, 400, "title"},
		{"no date", PostFields{Title: "Hi"}, 400, "date"},
		{"two-line title", PostFields{Title: "Hi\nthere", Date: t0}, 400, "one line"},
		{"long title", PostFields{Title: strings.Repeat("é", MaxTitleRunes+1), Date: t0}, 400, "longer than 200"},
		{"long content", PostFields{Title: "Hi", Date: t0, Content: strings.Repeat("a", MaxContentBytes+1)}, 400, "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := f.do(alice, "POST", "/admin/api/posts", tt.fields)
			if w.Code != tt.status || !strings.Contains(errorOf(t, w), tt.want) {
				t.Errorf("create: %d %s, want %d with %q", w.Code, w.Body, tt.status, tt.want)
			}
			w = f.do(alice, "PUT", "/admin/api/posts/"+p.ID, Save{PostFields: tt.fields, BaseVersion: 1})
			if w.Code != tt.status || !strings.Contains(errorOf(t, w), tt.want) {
				t.Errorf("save: %d %s, want %d with %q", w.Code, w.Body, tt.status, tt.want)
			}
		})
	}
	if w := f.do(alice, "POST", "/admin/api/posts", []byte(`{"title":"x","date":"2026-01-01T00:00:00Z","tags":[]}`)); w.Code != 400 {
		t.Errorf("unknown field: %d, want 400", w.Code)
	}
	if w := f.do(alice, "PUT", "/admin/api/posts/nope", Save{PostFields: PostFields{Title: "x", Date: t0}, BaseVersion: 1}); w.Code != 404 {
		t.Errorf("save of a missing post: %d, want 404", w.Code)
	}
	var got Post
	f.must(200, &got, alice, "GET", "/admin/api/posts/"+p.ID, nil)
	if got.Version != 1 || got.Title != "Valid" {
		t.Errorf("after refused saves: %+v", got)
	}
}

func TestSecondEditorGetsAConflictWithBothVersions(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Match Day", "draft")
	f.clk.Advance(time.Minute)
	mine := PostFields{Title: "Match Day", Date: t0, Content: "Alice's words"}
	if got := f.save(alice, p.ID, 1, mine); got.Version != 2 || got.Content != "Alice's words" || !got.UpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("save: %+v", got)
	}
	theirs := PostFields{Title: "Match Day", Date: t0, Content: "Bob's words"}
	w := f.do(bob, "PUT", "/admin/api/posts/"+p.ID, Save{PostFields: theirs, BaseVersion: 1})
	if w.Code != http.StatusConflict {
		t.Fatalf("second save: %d %s, want 409", w.Code, w.Body)
	}
	var conflict Conflict
	if err := json.Unmarshal(w.Body.Bytes(), &conflict); err != nil {
		t.Fatal(err)
	}
	if conflict.Theirs.Version != 2 || conflict.Theirs.Content != "Alice's words" || conflict.Theirs.UpdatedBy != "Alice" ||
		conflict.Yours.Content != "Bob's words" || !strings.Contains(conflict.Error, "Alice saved version 2") {
		t.Errorf("conflict %+v", conflict)
	}
	// A retry of Alice's save (its answer lost) is no conflict and no new revision.
	if got := f.save(alice, p.ID, 1, mine); got.Version != 2 {
		t.Errorf("retried save: version %d, want 2", got.Version)
	}
	// Saving unchanged fields makes no revision either.
	if got := f.save(alice, p.ID, 2, mine); got.Version != 2 {
		t.Errorf("unchanged save: version %d, want 2", got.Version)
	}
	// Bob merges on top of version 2.
	if got := f.save(bob, p.ID, 2, theirs); got.Version != 3 || got.UpdatedBy != "Bob" {
		t.Errorf("merged save: %+v", got)
	}
}

func TestConcurrentSavesOnOneVersionOnlyOneWins(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Race", "")
	const editors = 8
	codes := make([]int, editors)
	var wg sync.WaitGroup
	for i := range editors {
		wg.Go(func() {
			w := f.do(alice, "PUT", "/admin/api/posts/"+p.ID, Save{PostFields: PostFields{Title: "Race", Date: t0, Content: strings.Repeat("x", i+1)}, BaseVersion: 1})
			codes[i] = w.Code
		})
	}
	wg.Wait()
	won := wins(t, codes, http.StatusConflict)
	var got Post
	f.must(200, &got, alice, "GET", "/admin/api/posts/"+p.ID, nil)
	if won != 1 || got.Version != 2 {
		t.Errorf("%d saves won (codes %v), version %d; want exactly one, version 2", won, codes, got.Version)
	}
}

func TestListSearchesTitleAndContentNewestFirst(t *testing.T) {
	f := newContentFixture(t)
	ctx := context.Background()
	if err := f.news.Put(ctx, news.Article{ID: "old-robot", Title: "Our old ROBOT", Date: t0.Add(-48 * time.Hour), Content: "gears"}); err != nil {
		t.Fatal(err)
	}
	f.create(alice, "Kickoff", "The robot game is revealed.")
	var newer Post
	f.must(201, &newer, alice, "POST", "/admin/api/posts", PostFields{Title: "Week one", Date: t0.Add(time.Hour), Content: "Travel plans"})
	tests := []struct {
		q    string
		want []string
	}{
		{"", []string{"week-one", "kickoff", "old-robot"}},
		{"robot", []string{"kickoff", "old-robot"}},
		{"ROBOT GAME", []string{"kickoff"}},
		{"travel", []string{"week-one"}},
		{"  week ", []string{"week-one"}},
		{"nothing like this", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			var posts []Post
			f.must(200, &posts, alice, "GET", "/admin/api/posts?q="+strings.ReplaceAll(tt.q, " ", "+"), nil)
			ids := []string{}
			for _, p := range posts {
				ids = append(ids, p.ID)
				if p.Content != "" {
					t.Errorf("%s: the list carries content", p.ID)
				}
			}
			if strings.Join(ids, ",") != strings.Join(tt.want, ",") {
				t.Errorf("ids %v, want %v", ids, tt.want)
			}
		})
	}
	var all []Post
	f.must(200, &all, alice, "GET", "/admin/api/posts", nil)
	if legacy := all[2]; legacy.Status != StatusPublished || legacy.Version != 0 || legacy.Changed {
		t.Errorf("article of the news command: %+v, want published, version 0", legacy)
	}
}

func TestEditingAnArticleOfTheNewsCommandMakesItsPost(t *testing.T) {
	f := newContentFixture(t)
	ctx := context.Background()
	old := news.Article{ID: "Old News", Title: "Old news", Date: t0.Add(-time.Hour), Content: "As written\r\nby the command"}
	if err := f.news.Put(ctx, old); err != nil {
		t.Fatal(err)
	}
	var p Post
	f.must(200, &p, alice, "GET", "/admin/api/posts/Old%20News", nil)
	if p.Version != 0 || p.Status != StatusPublished || p.Changed || p.Content != "As written\nby the command" {
		t.Errorf("before editing: %+v", p)
	}
	var revs []Revision
	f.must(200, &revs, alice, "GET", "/admin/api/posts/Old%20News/revisions", nil)
	if len(revs) != 0 {
		t.Errorf("revisions before editing: %+v", revs)
	}
	f.clk.Advance(time.Minute)
	p = f.save(alice, "Old News", 0, PostFields{Title: "Old news", Date: old.Date, Content: "Edited"})
	if p.Version != 2 || p.Status != StatusPublished || !p.Changed {
		t.Errorf("after editing: %+v, want version 2, published, changed", p)
	}
	f.must(200, &revs, alice, "GET", "/admin/api/posts/Old%20News/revisions", nil)
	if len(revs) != 2 || revs[0].N != 2 || revs[0].Note != "saved" || revs[1].N != 1 || revs[1].Note != "from the site" {
		t.Fatalf("revisions %+v", revs)
	}
	var first Revision
	f.must(200, &first, alice, "GET", "/admin/api/posts/Old%20News/revisions/1", nil)
	if first.Content != "As written\nby the command" || first.Title != "Old news" || !first.Date.Equal(old.Date) {
		t.Errorf("revision 1 %+v, want the article as it was", first)
	}
	// The site still shows the article as it was until it is published.
	if a, err := f.news.Get(ctx, "Old News"); err != nil || a.Content != "As written\nby the command" {
		t.Errorf("news store: %+v, %v", a, err)
	}
	// A second save from version 0 is a conflict now.
	if w := f.do(bob, "PUT", "/admin/api/posts/Old%20News", Save{PostFields: PostFields{Title: "x", Date: t0}}); w.Code != 409 {
		t.Errorf("stale save: %d, want 409", w.Code)
	}
}

func TestUnknownPostIs404(t *testing.T) {
	f := newContentFixture(t)
	for _, path := range []string{"/admin/api/posts/nope", "/admin/api/posts/nope/revisions", "/admin/api/posts/nope/revisions/1", "/admin/api/posts/__x__"} {
		if w := f.do(alice, "GET", path, nil); w.Code != 404 || !strings.Contains(errorOf(t, w), "no post") {
			t.Errorf("GET %s: %d %s, want 404", path, w.Code, w.Body)
		}
	}
}

func TestContentRoutesNeedAnEditorSession(t *testing.T) {
	f := newContentFixture(t)
	nobody := Member{ID: "00000000000000000000000000000003", Name: "Nobody", Role: "viewer", Created: t0}
	f.cookies[nobody.ID] = f.signIn(nobody)
	for _, e := range f.c.editorRoutes() {
		method, path, _ := strings.Cut(e.pattern, " ")
		path = strings.NewReplacer("{id}", "x", "{n}", "1").Replace(path)
		t.Run(e.pattern, func(t *testing.T) {
			if w := f.do(Member{}, method, path, []byte("{}")); w.Code != http.StatusUnauthorized {
				t.Errorf("without a session: %d %s, want 401", w.Code, w.Body)
			}
			if w := f.do(nobody, method, path, []byte("{}")); w.Code != http.StatusForbidden {
				t.Errorf("without the editor role: %d %s, want 403", w.Code, w.Body)
			}
		})
	}
	var posts []Post
	f.must(http.StatusOK, &posts, alice, "GET", "/admin/api/posts", nil)
	if len(posts) != 0 {
		t.Errorf("refused requests made posts: %+v", posts)
	}
}

func TestStateChangesAreAudited(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Audit me", "one")
	f.save(alice, p.ID, 1, PostFields{Title: "Audit me", Date: t0, Content: "two"})
	// An autosave of the same text changes nothing: no revision, no entry.
	f.save(alice, p.ID, 2, PostFields{Title: "Audit me", Date: t0, Content: "two"})
	f.must(http.StatusOK, nil, bob, "POST", "/admin/api/posts/"+p.ID+"/revisions/1/restore", Save{BaseVersion: 2})
	f.must(http.StatusOK, nil, bob, "POST", "/admin/api/posts/"+p.ID+"/publish", Save{BaseVersion: 3, At: t0.Add(time.Hour)})
	f.must(http.StatusOK, nil, bob, "POST", "/admin/api/posts/"+p.ID+"/unpublish", Save{BaseVersion: 4})
	f.must(http.StatusOK, nil, alice, "PUT", "/admin/api/notice", notice.Notice{Text: "Pit closed", Until: t0.Add(time.Hour)})
	f.must(http.StatusOK, nil, alice, "DELETE", "/admin/api/notice", nil)
	// Reads and refused changes write nothing.
	f.must(http.StatusOK, nil, alice, "GET", "/admin/api/posts/"+p.ID, nil)
	f.must(http.StatusConflict, nil, alice, "PUT", "/admin/api/posts/"+p.ID, Save{PostFields: PostFields{Title: "x", Date: t0}, BaseVersion: 1})

	docs, err := f.db.List(t.Context(), collAudit)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		var e AuditEntry
		if err := json.Unmarshal(d.JSON, &e); err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Name+" "+e.Action+" "+e.Target)
	}
	want := []string{
		"Alice create post audit-me",
		"Alice save post audit-me v2",
		"Bob restore post audit-me v3 from v1",
		"Bob schedule post audit-me v4 at 2026-03-14T13:00:00Z",
		"Bob unpublish post audit-me",
		"Alice set notice Pit closed",
		"Alice clear notice pit",
	}
	// Entries of one instant (the fake clock stands still) are in no order.
	slices.Sort(got)
	slices.Sort(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit log\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
