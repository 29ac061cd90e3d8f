package console

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
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

// auditFailFixture is an authFixture on a store whose audit log can be
// made to fail: Ada and Max are admins, Sam an editor with two passkeys
// (phone and tablet); Max has made an open invitation; Sam has made the
// post "first" and put up the notice "Before".
type auditFailFixture struct {
	*authFixture
	db                *countingDB
	ada, max, sam     string // session cookies
	maxMe, samMe      Me
	phone, tablet     *passkeytest.Authenticator // Sam's
	tabletID          string
	invitation, token string // Max's invitation: its public id and token
	// before is the stores' state when the audit log began to fail.
	before map[string]string
}

func newAuditFailFixture(t *testing.T) *auditFailFixture {
	t.Helper()
	f := newAuthFixture(t)
	db := newCountingDB(f.db)
	f.db = db
	f.c = f.console(Options{})
	x := &auditFailFixture{authFixture: f, db: db}
	_, x.ada, _ = f.member(RoleAdmin, "Ada")
	_, x.max, x.maxMe = f.member(RoleAdmin, "Max")
	x.phone, x.sam, x.samMe = f.member(RoleEditor, "Sam")
	var me Me
	x.tablet, me = f.addPasskey(x.sam, "tablet")
	x.tabletID = me.Passkeys[1].ID
	x.token = f.inviteAs(x.max, RoleEditor, "Eli")
	invs, err := Invitations(t.Context(), db, f.clk.Now())
	if err != nil || len(invs) != 1 {
		t.Fatalf("invitations %+v, %v; want Max's", invs, err)
	}
	x.invitation = invs[0].ID
	f.must(f.c, http.StatusCreated, nil, request{method: "POST", path: "/admin/api/posts", cookie: x.sam, body: PostFields{Title: "First", Date: t0, Content: "text"}})
	f.must(f.c, http.StatusOK, nil, request{method: "PUT", path: "/admin/api/notice", cookie: x.sam, body: notice.Notice{Text: "Before", Until: authStart.Add(time.Hour)}})
	return x
}

// failAudit notes the stores' state and makes every write to the audit
// log fail from now on.
func (x *auditFailFixture) failAudit() {
	x.t.Helper()
	x.before = x.state()
	x.db.failWrites = collAudit
}

// state returns every document of the console's collections, as
// "coll/id" → JSON, and every article of the news store, as "news/id" →
// JSON. Ceremonies are left out: a ceremony is spent before the change
// it allows (and then answers nothing again), by design.
func (x *auditFailFixture) state() map[string]string {
	x.t.Helper()
	out := map[string]string{}
	for _, coll := range Collections {
		if coll == collCeremonies {
			continue
		}
		for _, d := range x.docs(coll) {
			out[coll+"/"+d.ID] = string(d.JSON)
		}
	}
	articles, err := x.c.opts.News.List(x.t.Context())
	if err != nil {
		x.t.Fatal(err)
	}
	for _, a := range articles {
		data, err := json.Marshal(a)
		if err != nil {
			x.t.Fatal(err)
		}
		out["news/"+a.ID] = string(data)
	}
	return out
}

// failed returns nil when w is a failure (5xx), else why not.
func failed(w *httptest.ResponseRecorder) error {
	if w.Code < 500 {
		return fmt.Errorf("%d %s, want a failure (5xx)", w.Code, w.Body)
	}
	return nil
}

// A change and its audit entry are written together or not at all: with
// every write to the audit log failing, each change fails (5xx, or the
// admin command's error) and leaves the stores as they were. (A photo's
// blob may stay, referenced by nothing: photos.go says why.)
func TestAFailedAuditWriteFailsTheChange(t *testing.T) {
	send := func(x *auditFailFixture, rq request) error {
		x.failAudit()
		return failed(x.send(x.c, rq))
	}
	tests := []struct {
		name string
		// change makes the change, calling x.failAudit first (after what
		// must be made before it), and returns nil when it failed.
		change func(x *auditFailFixture) error
	}{
		{"create post", func(x *auditFailFixture) error {
			return send(x, request{method: "POST", path: "/admin/api/posts", cookie: x.sam, body: PostFields{Title: "New", Date: t0}})
		}},
		{"save post", func(x *auditFailFixture) error {
			return send(x, request{method: "PUT", path: "/admin/api/posts/first", cookie: x.sam, body: Save{PostFields: PostFields{Title: "First", Date: t0, Content: "changed"}, BaseVersion: 1}})
		}},
		{"publish post", func(x *auditFailFixture) error {
			return send(x, request{method: "POST", path: "/admin/api/posts/first/publish", cookie: x.sam, body: Save{BaseVersion: 1}})
		}},
		{"restore post", func(x *auditFailFixture) error {
			return send(x, request{method: "POST", path: "/admin/api/posts/first/revisions/1/restore", cookie: x.sam, body: Save{BaseVersion: 1}})
		}},
		{"set notice", func(x *auditFailFixture) error {
			return send(x, request{method: "PUT", path: "/admin/api/notice", cookie: x.sam, body: notice.Notice{Text: "Pit closed", Until: authStart.Add(time.Hour)}})
		}},
		{"clear notice", func(x *auditFailFixture) error {
			return send(x, request{method: "DELETE", path: "/admin/api/notice", cookie: x.sam})
		}},
		{"invite", func(x *auditFailFixture) error {
			return send(x, request{method: "POST", path: "/admin/api/invitations", cookie: x.ada, body: invitationRequest{Role: RoleAdmin, Name: "Ivy"}})
		}},
		{"invite from the command line", func(x *auditFailFixture) error {
			x.failAudit()
			if _, err := Invite(x.t.Context(), x.db, x.clk.Now(), devOrigin, RoleAdmin, "Ivy"); err == nil {
				return errors.New("Invite succeeded")
			}
			return nil
		}},
		{"uninvite", func(x *auditFailFixture) error {
			return send(x, request{method: "DELETE", path: "/admin/api/invitations/" + x.invitation, cookie: x.ada})
		}},
		{"uninvite from the command line", func(x *auditFailFixture) error {
			x.failAudit()
			if _, err := Uninvite(x.t.Context(), x.db, x.clk.Now(), x.invitation); err == nil {
				return errors.New("Uninvite succeeded")
			}
			return nil
		}},
		{"revoke", func(x *auditFailFixture) error {
			return send(x, request{method: "DELETE", path: "/admin/api/members/" + x.maxMe.Member.ID, cookie: x.ada})
		}},
		{"revoke from the command line", func(x *auditFailFixture) error {
			x.failAudit()
			if _, err := Revoke(x.t.Context(), x.db, x.clk.Now(), x.maxMe.Member.ID); err == nil {
				return errors.New("Revoke succeeded")
			}
			return nil
		}},
		{"demote", func(x *auditFailFixture) error {
			return send(x, request{method: "PATCH", path: "/admin/api/members/" + x.maxMe.Member.ID, cookie: x.ada, body: RoleChange{Role: RoleEditor}})
		}},
		{"promote", func(x *auditFailFixture) error {
			return send(x, request{method: "PATCH", path: "/admin/api/members/" + x.samMe.Member.ID, cookie: x.ada, body: RoleChange{Role: RoleAdmin}})
		}},
		{"remove a passkey", func(x *auditFailFixture) error {
			return send(x, request{method: "DELETE", path: "/admin/api/passkeys/" + x.tabletID, cookie: x.sam})
		}},
		{"add a passkey", func(x *auditFailFixture) error {
			var cer Ceremony
			x.must(x.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/passkeys/begin", cookie: x.sam})
			return send(x, request{method: "POST", path: "/admin/api/passkeys/finish", cookie: x.sam, body: x.create(newKey(), cer)})
		}},
		{"sign out", func(x *auditFailFixture) error {
			return send(x, request{method: "POST", path: "/admin/api/signout", cookie: x.sam})
		}},
		{"sign out everywhere", func(x *auditFailFixture) error {
			return send(x, request{method: "POST", path: "/admin/api/signout/everywhere", cookie: x.sam})
		}},
		{"sign in", func(x *auditFailFixture) error {
			finish := x.assert(x.phone, x.beginSignIn(x.c))
			return send(x, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
		}},
		{"verify", func(x *auditFailFixture) error {
			var cer Ceremony
			x.must(x.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/verify/begin", cookie: x.sam})
			return send(x, request{method: "POST", path: "/admin/api/verify/finish", cookie: x.sam, body: x.assert(x.phone, cer)})
		}},
		{"suspend a cloned passkey", func(x *auditFailFixture) error {
			x.signedIn(x.phone) // the phone's counter is 1 in the store
			x.phone.Credentials()[0].SignCount = 0
			finish := x.assert(x.phone, x.beginSignIn(x.c))
			return send(x, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
		}},
		{"clear a suspension", func(x *auditFailFixture) error {
			x.signedIn(x.phone)
			x.phone.Credentials()[0].SignCount = 0
			if w := x.signIn(x.c, x.phone, ""); w.Code != http.StatusUnauthorized {
				x.t.Fatalf("cloned passkey: %d %s, want 401", w.Code, w.Body)
			}
			return send(x, request{method: "DELETE", path: "/admin/api/members/" + x.samMe.Member.ID + "/suspended/" + x.samMe.Passkeys[0].ID, cookie: x.ada})
		}},
		{"enrol", func(x *auditFailFixture) error {
			finish := x.create(newKey(), x.beginEnrol(x.c, x.token))
			return send(x, request{method: "POST", path: "/admin/api/enrol/finish", body: finish})
		}},
		{"upload a photo", func(x *auditFailFixture) error {
			body, ctype := multipartBody(x.t, photoField, cameraJPEG(x.t, 30, 20))
			return send(x, request{method: "POST", path: "/admin/api/photos", cookie: x.sam, body: body, header: http.Header{"Content-Type": {ctype}}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newAuditFailFixture(t)
			if err := tt.change(x); err != nil {
				t.Errorf("with the audit log failing: %v", err)
			}
			if x.before == nil {
				t.Fatal("the row never made the audit log fail")
			}
			x.db.failWrites = ""
			after := x.state()
			var changed []string
			for k, v := range after {
				if before, ok := x.before[k]; !ok {
					changed = append(changed, "added "+k)
				} else if before != v {
					changed = append(changed, "changed "+k)
				}
			}
			for k := range x.before {
				if _, ok := after[k]; !ok {
					changed = append(changed, "deleted "+k)
				}
			}
			slices.Sort(changed)
			if len(changed) != 0 {
				t.Errorf("the failed change left %q", changed)
			}
		})
	}
}
