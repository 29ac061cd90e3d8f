package console

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/notice"
)

// The attacker tests of what an anonymous request may cost the store: a
// flood of them must cost nothing, or a bounded amount per instance.

func TestAnonymousSignInBeginsCostNoStoreWrites(t *testing.T) {
	f := newAuthFixture(t)
	db := newCountingDB(f.db)
	c := newTestConsole(t, Options{DB: db, Clock: f.clk})
	f.beginSignIn(c) // the instance's first ever: it may load the store's key
	db.reset()
	for i := range 1000 {
		if i%100 == 0 {
			f.clk.Advance(time.Minute) // across sweepEvery: no sweep in a request either
		}
		f.beginSignIn(c)
	}
	if reads, writes := db.counts(); reads != 0 || writes != 0 {
		t.Errorf("1000 anonymous sign-in begins: %d store reads and %d writes, want 0 and 0", reads, writes)
	}
}

// forgedTokens are session cookies no console made, as an attacker sends
// them: random tokens of the old and the new size, and a real one changed
// in its last character.
func forgedTokens(real string) map[string]string {
	last := real[len(real)-1]
	flipped := byte('A')
	if last == 'A' {
		flipped = 'B'
	}
	return map[string]string{
		"random 32 bytes": base64.RawURLEncoding.EncodeToString(randomBytes(32)),
		"random 48 bytes": base64.RawURLEncoding.EncodeToString(randomBytes(48)),
		"changed":         real[:len(real)-1] + string(flipped),
	}
}

func TestForgedSessionCookieCostsNoStoreRead(t *testing.T) {
	db := newCountingDB(openTestDB(t, filepath.Join(t.TempDir(), "db")))
	f := newContentFixtureOn(t, db)
	f.must(http.StatusOK, nil, alice, "GET", "/admin/api/me", nil) // the instance has its key
	for name, token := range forgedTokens(f.cookies[alice.ID].Value) {
		t.Run(name, func(t *testing.T) {
			db.reset()
			r := httptest.NewRequest("GET", "/admin/api/me", nil)
			r.AddCookie(&http.Cookie{Name: SessionCookie, Value: token})
			w := f.request(Member{}, r)
			if w.Code != http.StatusUnauthorized {
				t.Errorf("GET /admin/api/me with a forged cookie: %d, want 401", w.Code)
			}
			if f.c.SignedIn(r) {
				t.Error("SignedIn with a forged cookie")
			}
			if reads, writes := db.counts(); reads != 0 || writes != 0 {
				t.Errorf("a forged cookie cost %d store reads and %d writes, want 0 and 0", reads, writes)
			}
		})
	}
}

func TestMediaCostsOneReadPerInstance(t *testing.T) {
	const name = "0123456789abcdef0123456789abcdef.png"
	db := newCountingDB(openTestDB(t, filepath.Join(t.TempDir(), "db")))
	if err := db.PutBlob(t.Context(), name, []byte("\x89PNG\r\n\x1a\nphoto")); err != nil {
		t.Fatal(err)
	}
	get := func(h http.Handler, header string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/media/"+name, nil)
		if header != "" {
			r.Header.Set("If-None-Match", header)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	t.Run("If-None-Match", func(t *testing.T) {
		for _, header := range []string{`"` + name + `"`, `W/"` + name + `"`, `"other", "` + name + `"`} {
			db.reset()
			w := get(MediaHandler(db), header)
			if w.Code != http.StatusNotModified || w.Header().Get("ETag") != `"`+name+`"` {
				t.Errorf("If-None-Match %s: %d, ETag %q; want 304 with the ETag", header, w.Code, w.Header().Get("ETag"))
			}
			if reads, _ := db.counts(); reads != 0 {
				t.Errorf("If-None-Match %s: %d store reads, want 0", header, reads)
			}
		}
	})
	t.Run("100 GETs", func(t *testing.T) {
		h := MediaHandler(db)
		db.reset()
		for range 100 {
			if w := get(h, ""); w.Code != http.StatusOK || w.Body.String() != "\x89PNG\r\n\x1a\nphoto" {
				t.Fatalf("GET: %d %q", w.Code, w.Body)
			}
		}
		if reads, _ := db.counts(); reads != 1 {
			t.Errorf("100 GETs of one photo: %d store reads, want 1", reads)
		}
	})
}

func TestAuditReadIsNewestFirstAndBounded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := newCountingDB(openTestDB(t, dir))
	f := newContentFixtureOn(t, db)
	writeChain(t, dir, 10_000)
	db.reset()
	var got []AuditEntry
	f.must(http.StatusOK, &got, bob, "GET", "/admin/api/audit", nil)
	if len(got) != 500 || got[0].Target != "p v10000" || got[499].Target != "p v9501" {
		t.Fatalf("audit: %d entries, want 500 from p v10000 down to p v9501", len(got))
	}
	if n := db.readsOf(collAudit); n > auditShown {
		t.Errorf("reading the audit log read %d entries of 10000, want at most %d", n, auditShown)
	}
}

func TestAFailedAuditWriteFailsTheChange(t *testing.T) {
	tests := []struct {
		name         string
		method, path string
		body         any
	}{
		{"create post", "POST", "/admin/api/posts", PostFields{Title: "New", Date: t0}},
		{"save post", "PUT", "/admin/api/posts/first", Save{PostFields: PostFields{Title: "First", Date: t0, Content: "changed"}, BaseVersion: 1}},
		{"publish post", "POST", "/admin/api/posts/first/publish", Save{BaseVersion: 1}},
		{"restore post", "POST", "/admin/api/posts/first/revisions/1/restore", Save{BaseVersion: 1}},
		{"set notice", "PUT", "/admin/api/notice", notice.Notice{Text: "Pit closed", Until: t0.Add(time.Hour)}},
		{"clear notice", "DELETE", "/admin/api/notice", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newCountingDB(openTestDB(t, filepath.Join(t.TempDir(), "db")))
			f := newContentFixtureOn(t, db)
			f.create(alice, "First", "text")
			f.must(http.StatusOK, nil, alice, "PUT", "/admin/api/notice", notice.Notice{Text: "Before", Until: t0.Add(time.Hour)})
			db.failWrites = collAudit
			if w := f.do(alice, tt.method, tt.path, tt.body); w.Code < 500 {
				t.Errorf("%s %s with the audit log failing: %d %s, want a failure (5xx)", tt.method, tt.path, w.Code, w.Body)
			}
			db.failWrites = ""
			var posts []Post
			f.must(http.StatusOK, &posts, alice, "GET", "/admin/api/posts", nil)
			if len(posts) != 1 || posts[0].ID != "first" || posts[0].Version != 1 || posts[0].Status != StatusDraft {
				t.Errorf("posts after the failed change: %+v, want only first, version 1, a draft", posts)
			}
			var revs []Revision
			f.must(http.StatusOK, &revs, alice, "GET", "/admin/api/posts/first/revisions", nil)
			if len(revs) != 1 {
				t.Errorf("%d revisions after the failed change, want 1", len(revs))
			}
			var n notice.Notice
			f.must(http.StatusOK, &n, alice, "GET", "/admin/api/notice", nil)
			if n.Text != "Before" {
				t.Errorf("notice after the failed change: %q, want \"Before\"", n.Text)
			}
		})
	}
}
