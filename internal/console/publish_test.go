package console

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/news"
)

func TestPublishNowPutsTheArticleInTheNewsStore(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Regional champions", "We **won**.")
	f.clk.Advance(90 * time.Minute)
	var got Post
	f.must(http.StatusOK, &got, bob, "POST", "/admin/api/posts/"+p.ID+"/publish", Save{BaseVersion: 1})
	published := time.Date(2026, 3, 14, 13, 30, 0, 0, time.UTC)
	if got.Status != StatusPublished || got.Changed || got.Version != 2 || !got.Date.Equal(published) {
		t.Errorf("published: %+v", got)
	}
	a, err := f.news.Get(t.Context(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Regional champions" || a.Content != "We **won**." || !a.Date.Equal(published) {
		t.Errorf("article %+v", a)
	}
	var revs []Revision
	f.must(http.StatusOK, &revs, alice, "GET", "/admin/api/posts/"+p.ID+"/revisions", nil)
	if len(revs) != 2 || revs[0].Note != "published" || revs[0].By != "Bob" {
		t.Errorf("revisions %+v", revs)
	}

	// An edit after publishing changes the post, not the site, until published again.
	got = f.save(alice, p.ID, 2, PostFields{Title: "Regional champions!", Date: published, Content: "We **won**."})
	if got.Status != StatusPublished || !got.Changed {
		t.Errorf("edited: %+v, want published and changed", got)
	}
	if a, _ := f.news.Get(t.Context(), p.ID); a.Title != "Regional champions" {
		t.Errorf("the site shows %q before publishing the edit", a.Title)
	}
	// Publishing from an old version is a conflict and leaves the site alone.
	if w := f.do(bob, "POST", "/admin/api/posts/"+p.ID+"/publish", Save{BaseVersion: 2}); w.Code != http.StatusConflict {
		t.Errorf("stale publish: %d, want 409", w.Code)
	}
	if a, _ := f.news.Get(t.Context(), p.ID); a.Title != "Regional champions" {
		t.Errorf("a refused publish changed the site: %q", a.Title)
	}
}

func TestScheduleDatesTheArticleAndItTurnsPublishedOnTime(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Robot reveal", "Tonight.")
	at := t0.Add(2 * time.Hour)
	var got Post
	f.must(http.StatusOK, &got, alice, "POST", "/admin/api/posts/"+p.ID+"/publish", Save{BaseVersion: 1, At: at})
	if got.Status != StatusScheduled || !got.Date.Equal(at) || got.Changed {
		t.Errorf("scheduled: %+v", got)
	}
	a, err := f.news.Get(t.Context(), p.ID)
	if err != nil || !a.Date.Equal(at) {
		t.Fatalf("article %+v, %v; want dated %v", a, err, at)
	}
	var revs []Revision
	f.must(http.StatusOK, &revs, alice, "GET", "/admin/api/posts/"+p.ID+"/revisions", nil)
	if revs[0].Note != "scheduled" {
		t.Errorf("revision note %q, want scheduled", revs[0].Note)
	}
	var posts []Post
	f.must(http.StatusOK, &posts, alice, "GET", "/admin/api/posts", nil)
	if posts[0].Status != StatusScheduled {
		t.Errorf("list status %q, want scheduled", posts[0].Status)
	}
	f.clk.Advance(2*time.Hour - time.Second)
	f.must(http.StatusOK, &got, alice, "GET", "/admin/api/posts/"+p.ID, nil)
	if got.Status != StatusScheduled {
		t.Errorf("a second before: %q, want scheduled", got.Status)
	}
	f.clk.Advance(time.Second)
	f.must(http.StatusOK, &got, alice, "GET", "/admin/api/posts/"+p.ID, nil)
	if got.Status != StatusPublished {
		t.Errorf("at its time: %q, want published", got.Status)
	}
}

func TestUnpublishRemovesTheArticleAndKeepsThePost(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Oops", "Too early.")
	var got Post
	f.must(http.StatusOK, &got, alice, "POST", "/admin/api/posts/"+p.ID+"/publish", Save{BaseVersion: 1})
	f.must(http.StatusOK, &got, bob, "POST", "/admin/api/posts/"+p.ID+"/unpublish", Save{BaseVersion: 2})
	if got.Status != StatusDraft || got.Version != 3 || got.Content != "Too early." {
		t.Errorf("unpublished: %+v", got)
	}
	if _, err := f.news.Get(t.Context(), p.ID); !errors.Is(err, news.ErrNotFound) {
		t.Errorf("the article is still in the news store: %v", err)
	}
	// Unpublishing again (a retry) is harmless.
	f.must(http.StatusOK, &got, bob, "POST", "/admin/api/posts/"+p.ID+"/unpublish", Save{BaseVersion: 2})
	if got.Version != 3 || got.Status != StatusDraft {
		t.Errorf("second unpublish: %+v", got)
	}
}

func TestUnpublishAnArticleOfTheNewsCommand(t *testing.T) {
	f := newContentFixture(t)
	if err := f.news.Put(t.Context(), news.Article{ID: "legacy", Title: "Legacy", Date: t0.Add(-time.Hour), Content: "old"}); err != nil {
		t.Fatal(err)
	}
	var got Post
	f.must(http.StatusOK, &got, alice, "POST", "/admin/api/posts/legacy/unpublish", Save{BaseVersion: 0})
	if got.Status != StatusDraft || got.Version != 2 || got.Content != "old" {
		t.Errorf("unpublished: %+v", got)
	}
	if _, err := f.news.Get(t.Context(), "legacy"); !errors.Is(err, news.ErrNotFound) {
		t.Errorf("the article is still in the news store: %v", err)
	}
}
