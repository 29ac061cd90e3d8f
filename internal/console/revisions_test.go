package console

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestEverySaveIsARevisionAndRestoreMakesANewOne(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Robot reveal", "one")
	f.clk.Advance(time.Minute)
	f.save(bob, p.ID, 1, PostFields{Title: "Robot reveal", Date: t0, Content: "two"})
	f.clk.Advance(time.Minute)
	f.save(alice, p.ID, 2, PostFields{Title: "Robot reveal!", Date: t0, Content: "three"})

	var revs []Revision
	f.must(200, &revs, alice, "GET", "/admin/api/posts/"+p.ID+"/revisions", nil)
	var got []string
	for _, r := range revs {
		got = append(got, r.Title+"/"+r.Note+"/"+r.By+"/"+r.At.Format("15:04")+"/"+r.Content)
	}
	want := []string{"Robot reveal!/saved/Alice/12:02/", "Robot reveal/saved/Bob/12:01/", "Robot reveal/created/Alice/12:00/"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("revisions\n got %v\nwant %v", got, want)
	}

	var one Revision
	f.must(200, &one, alice, "GET", "/admin/api/posts/"+p.ID+"/revisions/1", nil)
	if one.N != 1 || one.Content != "one" {
		t.Errorf("revision 1: %+v", one)
	}

	f.clk.Advance(time.Minute)
	var restored Post
	f.must(200, &restored, bob, "POST", "/admin/api/posts/"+p.ID+"/revisions/1/restore", Save{BaseVersion: 3})
	if restored.Version != 4 || restored.Content != "one" || restored.Title != "Robot reveal" || restored.UpdatedBy != "Bob" {
		t.Errorf("restored: %+v", restored)
	}
	f.must(200, &revs, alice, "GET", "/admin/api/posts/"+p.ID+"/revisions", nil)
	if len(revs) != 4 || revs[0].Note != "restored from 1" || revs[1].Title != "Robot reveal!" {
		t.Errorf("after restore: %+v", revs)
	}
	var three Revision
	f.must(200, &three, alice, "GET", "/admin/api/posts/"+p.ID+"/revisions/3", nil)
	if three.Content != "three" {
		t.Errorf("revision 3 after restore: %+v", three)
	}

	// A restore based on an old version is a conflict.
	if w := f.do(alice, "POST", "/admin/api/posts/"+p.ID+"/revisions/2/restore", Save{BaseVersion: 3}); w.Code != http.StatusConflict {
		t.Errorf("stale restore: %d %s, want 409", w.Code, w.Body)
	}
	for _, n := range []string{"0", "5", "x", "-1"} {
		if w := f.do(alice, "GET", "/admin/api/posts/"+p.ID+"/revisions/"+n, nil); w.Code != http.StatusNotFound {
			t.Errorf("revision %s: %d, want 404", n, w.Code)
		}
		if w := f.do(alice, "POST", "/admin/api/posts/"+p.ID+"/revisions/"+n+"/restore", Save{BaseVersion: 4}); w.Code != http.StatusNotFound {
			t.Errorf("restore %s: %d, want 404", n, w.Code)
		}
	}
}

func TestTheLatestRevisionSurvivesAFailedRecord(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Lost write", "one")
	p = f.save(alice, p.ID, 1, PostFields{Title: "Lost write", Date: t0, Content: "two"})
	// As an older version left it when it died between the post's update
	// and its revision's (now one transaction writes both).
	if err := f.db.Delete(t.Context(), collRevisions, revisionID(p.ID, 2)); err != nil {
		t.Fatal(err)
	}
	var two Revision
	f.must(200, &two, alice, "GET", "/admin/api/posts/"+p.ID+"/revisions/2", nil)
	if two.Content != "two" || two.N != 2 {
		t.Errorf("revision 2: %+v", two)
	}
}
