package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
)

// authStart is the fake clock's start in the tests of accounts and sessions.
var authStart = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// devOrigin is where the tests' browser opens the console.
const devOrigin = "http://localhost:8080"

// authFixture is a console on a real local docstore and news store, with a
// fake clock, driven through its HTTP handler as a browser would.
type authFixture struct {
	t   *testing.T
	c   *Console
	db  docstore.DB
	dir string
	clk *clock.Fake
	// addr is the next client address: each ceremony comes from a new one,
	// so only the rate limit's own tests meet the limit.
	addr int
}

func newAuthFixture(t *testing.T) *authFixture {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "console")
	db, err := docstore.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	f := &authFixture{t: t, db: db, dir: dir, clk: clock.NewFake(authStart)}
	f.c = f.console(Options{})
	return f
}

// console returns another console (another instance) on the fixture's store
// and clock, with opts' SiteURL.
func (f *authFixture) console(opts Options) *Console {
	f.t.Helper()
	ns, err := news.OpenLocal(f.t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		f.t.Fatal(err)
	}
	opts.DB, opts.News, opts.Clock, opts.Logger = f.db, ns, f.clk, slog.New(slog.DiscardHandler)
	c, err := New(opts)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// request is one request of a test's browser.
type request struct {
	method, path string
	body         any
	cookie       string // the session cookie's value, if any
	header       http.Header
	remote       string // RemoteAddr; "" means a fresh address
	host         string // "" means localhost:8080
}

// send sends rq to c and returns the answer.
func (f *authFixture) send(c *Console, rq request) *httptest.ResponseRecorder {
	f.t.Helper()
	var rd io.Reader
	switch b := rq.body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	r := httptest.NewRequest(rq.method, "http://localhost:8080"+rq.path, rd)
	if rq.host != "" {
		r.Host = rq.host
	}
	if rq.remote == "" {
		f.addr++
		rq.remote = fmt.Sprintf("198.51.100.%d:40000", f.addr%250+1)
	}
	r.RemoteAddr = rq.remote
	for k, v := range rq.header {
		r.Header[k] = v
	}
	if rq.cookie != "" {
		r.AddCookie(&http.Cookie{Name: SessionCookie, Value: rq.cookie})
	}
	w := httptest.NewRecorder()
	c.ServeHTTP(w, r)
	return w
}

// must sends rq, fails unless it answers status, and decodes the answer
// into out (if not nil).
func (f *authFixture) must(c *Console, status int, out any, rq request) *httptest.ResponseRecorder {
	f.t.Helper()
	w := f.send(c, rq)
	if w.Code != status {
		f.t.Fatalf("%s %s: status %d, want %d; body %s", rq.method, rq.path, w.Code, status, w.Body)
	}
	if out != nil {
		if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
			f.t.Fatalf("%s %s: %v in %s", rq.method, rq.path, err, w.Body)
		}
	}
	return w
}

// invite makes an invitation with the admin command's function and returns
// its token.
func (f *authFixture) invite(role, name string) string {
	f.t.Helper()
	inv, err := Invite(context.Background(), f.db, f.clk.Now(), devOrigin, role, name)
	if err != nil {
		f.t.Fatal(err)
	}
	u, err := url.Parse(inv.Link)
	if err != nil {
		f.t.Fatal(err)
	}
	return u.Fragment
}

// beginEnrol begins an enrolment with token on c and returns the ceremony.
func (f *authFixture) beginEnrol(c *Console, token string) Ceremony {
	f.t.Helper()
	var cer Ceremony
	f.must(c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: token}})
	return cer
}

// create answers a registration ceremony with a new credential of key.
func (f *authFixture) create(key *passkeytest.Authenticator, cer Ceremony) ceremonyFinish {
	f.t.Helper()
	cred, err := key.Create(cer.Options)
	if err != nil {
		f.t.Fatal(err)
	}
	return ceremonyFinish{Ceremony: cer.ID, Credential: cred, Name: "phone"}
}

// enrol enrols a new member with token and key on c, and returns the
// session cookie and Me.
func (f *authFixture) enrol(c *Console, key *passkeytest.Authenticator, token string) (string, Me) {
	f.t.Helper()
	finish := f.create(key, f.beginEnrol(c, token))
	var me Me
	w := f.must(c, http.StatusOK, &me, request{method: "POST", path: "/admin/api/enrol/finish", body: finish})
	return sessionCookieOf(f.t, w), me
}

// member enrols a new member of role named name and returns its
// authenticator, cookie and Me.
func (f *authFixture) member(role, name string) (*passkeytest.Authenticator, string, Me) {
	f.t.Helper()
	key := passkeytest.New(devOrigin)
	cookie, me := f.enrol(f.c, key, f.invite(role, name))
	return key, cookie, me
}

// beginSignIn begins a sign-in on c.
func (f *authFixture) beginSignIn(c *Console) Ceremony {
	f.t.Helper()
	var cer Ceremony
	f.must(c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/signin/begin"})
	return cer
}

// assert answers a sign-in ceremony with key.
func (f *authFixture) assert(key *passkeytest.Authenticator, cer Ceremony) ceremonyFinish {
	f.t.Helper()
	cred, err := key.Get(cer.Options)
	if err != nil {
		f.t.Fatal(err)
	}
	return ceremonyFinish{Ceremony: cer.ID, Credential: cred}
}

// signIn signs in with key on c, sending cookie (may be ""), and returns
// the answer.
func (f *authFixture) signIn(c *Console, key *passkeytest.Authenticator, cookie string) *httptest.ResponseRecorder {
	f.t.Helper()
	finish := f.assert(key, f.beginSignIn(c))
	return f.send(c, request{method: "POST", path: "/admin/api/signin/finish", body: finish, cookie: cookie})
}

// sessionCookieOf returns the session cookie an answer sets.
func sessionCookieOf(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	for _, c := range w.Result().Cookies() {
		if c.Name == SessionCookie && c.MaxAge > 0 {
			return c.Value
		}
	}
	t.Fatalf("no session cookie in %v", w.Result().Header["Set-Cookie"])
	return ""
}

// errorText returns the "error" of an answer.
func errorText(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	var e struct{ Error string }
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
		t.Fatalf("answer %q: %v", w.Body, err)
	}
	return e.Error
}

// docs returns the documents of coll.
func (f *authFixture) docs(coll string) []docstore.Doc {
	f.t.Helper()
	d, err := f.db.List(context.Background(), coll)
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}

func TestEnrolThenSignIn(t *testing.T) {
	f := newAuthFixture(t)
	key, cookie, me := f.member(RoleAdmin, "Ada")
	if me.Member.Name != "Ada" || me.Member.Role != RoleAdmin || len(me.Passkeys) != 1 || me.Passkeys[0].Name != "phone" {
		t.Fatalf("enrolled as %+v", me)
	}
	if want := authStart.Add(SessionMax); !me.Expires.Equal(want) {
		t.Errorf("session expires %v, want %v", me.Expires, want)
	}
	var got Me
	f.must(f.c, http.StatusOK, &got, request{method: "GET", path: "/admin/api/me", cookie: cookie})
	if got.Member.ID != me.Member.ID {
		t.Errorf("me = %+v, want member %s", got, me.Member.ID)
	}
	w := f.signIn(f.c, key, "")
	if w.Code != http.StatusOK {
		t.Fatalf("sign-in: %d %s", w.Code, w.Body)
	}
	f.must(f.c, http.StatusOK, &got, request{method: "GET", path: "/admin/api/me", cookie: sessionCookieOf(t, w)})
	if got.Member.ID != me.Member.ID {
		t.Errorf("signed in as %+v, want %s", got.Member, me.Member.ID)
	}
}

func TestCeremonyBegunOnOneInstanceFinishesOnAnother(t *testing.T) {
	f := newAuthFixture(t)
	other := f.console(Options{})
	key := passkeytest.New(devOrigin)
	finish := f.create(key, f.beginEnrol(f.c, f.invite(RoleEditor, "")))
	f.must(other, http.StatusOK, nil, request{method: "POST", path: "/admin/api/enrol/finish", body: finish})
	signIn := f.assert(key, f.beginSignIn(other))
	w := f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/finish", body: signIn})
	f.must(other, http.StatusOK, nil, request{method: "GET", path: "/admin/api/me", cookie: sessionCookieOf(t, w)})
	if n := len(f.docs(collCeremonies)); n != 0 {
		t.Errorf("%d ceremonies left after their finish, want 0", n)
	}
}

func TestCeremonyIsAnsweredOnceAndExpires(t *testing.T) {
	f := newAuthFixture(t)
	key, _, _ := f.member(RoleEditor, "")
	finish := f.assert(key, f.beginSignIn(f.c))
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
	w := f.send(f.c, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
	if w.Code != http.StatusBadRequest || errorText(t, w) != errCeremonyGone.msg {
		t.Errorf("replayed sign-in: %d %s, want 400 %q", w.Code, w.Body, errCeremonyGone.msg)
	}
	late := f.assert(key, f.beginSignIn(f.c))
	f.clk.Advance(CeremonyTTL)
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/signin/finish", body: late}); w.Code != http.StatusBadRequest {
		t.Errorf("sign-in after CeremonyTTL: %d %s, want 400", w.Code, w.Body)
	}
}

func TestUserVerificationIsRequired(t *testing.T) {
	f := newAuthFixture(t)
	key := passkeytest.New(devOrigin)
	key.NoUserVerification = true
	token := f.invite(RoleEditor, "")
	finish := f.create(key, f.beginEnrol(f.c, token))
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/enrol/finish", body: finish}); w.Code != http.StatusBadRequest {
		t.Fatalf("enrol without user verification: %d %s, want 400", w.Code, w.Body)
	}
	// A refused answer does not use up the invitation.
	key.NoUserVerification = false
	f.enrol(f.c, key, token)
}

func TestCreationOptionsAskForADiscoverableVerifiedPasskey(t *testing.T) {
	f := newAuthFixture(t)
	cer := f.beginEnrol(f.c, f.invite(RoleEditor, "Sam"))
	var o struct {
		RP          struct{ ID, Name string }
		User        struct{ Name string }
		Attestation string
		Selection   struct {
			ResidentKey        string `json:"residentKey"`
			RequireResidentKey bool   `json:"requireResidentKey"`
			UserVerification   string `json:"userVerification"`
		} `json:"authenticatorSelection"`
	}
	if err := json.Unmarshal(cer.Options, &o); err != nil {
		t.Fatal(err)
	}
	if o.RP.ID != "localhost" || o.User.Name != "Sam" || o.Attestation != "none" ||
		o.Selection.ResidentKey != "required" || !o.Selection.RequireResidentKey || o.Selection.UserVerification != "required" {
		t.Errorf("creation options %s", cer.Options)
	}
	signIn := f.beginSignIn(f.c)
	var so struct {
		RPID             string `json:"rpId"`
		UserVerification string
		AllowCredentials []any
	}
	if err := json.Unmarshal(signIn.Options, &so); err != nil {
		t.Fatal(err)
	}
	if so.RPID != "localhost" || so.UserVerification != "required" || so.AllowCredentials != nil {
		t.Errorf("request options %s", signIn.Options)
	}
}

func TestSignCounterFlagsAndLastUseAreStored(t *testing.T) {
	f := newAuthFixture(t)
	key, _, me := f.member(RoleEditor, "")
	stored := func() passkeyDoc {
		t.Helper()
		data, err := f.db.Get(context.Background(), collPasskeys, me.Passkeys[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		var p passkeyDoc
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := stored(); p.Credential.Authenticator.SignCount != 0 || !p.LastUsed.IsZero() {
		t.Fatalf("after enrolment: count %d, last used %v", p.Credential.Authenticator.SignCount, p.LastUsed)
	}
	for want := uint32(1); want <= 2; want++ {
		f.clk.Advance(time.Hour)
		if w := f.signIn(f.c, key, ""); w.Code != http.StatusOK {
			t.Fatalf("sign-in %d: %d %s", want, w.Code, w.Body)
		}
		p := stored()
		if p.Credential.Authenticator.SignCount != want || !p.LastUsed.Equal(f.clk.Now()) || !p.Credential.Flags.UserVerified {
			t.Errorf("after sign-in %d: count %d, last used %v, flags %+v", want, p.Credential.Authenticator.SignCount, p.LastUsed, p.Credential.Flags)
		}
	}
	// A copy of the passkey, its counter behind the stored one, is refused.
	key.Credentials()[0].SignCount = 0
	w := f.signIn(f.c, key, "")
	if w.Code != http.StatusUnauthorized || errorText(t, w) != errCloned.msg {
		t.Errorf("cloned passkey: %d %s, want 401 %q", w.Code, w.Body, errCloned.msg)
	}
}

func TestUnknownPasskeyIsRefused(t *testing.T) {
	f := newAuthFixture(t)
	f.member(RoleEditor, "")
	// Another site's store: the same kind of passkey, unknown here.
	g := newAuthFixture(t)
	stranger, _, _ := g.member(RoleAdmin, "")
	if w := f.signIn(f.c, stranger, ""); w.Code != http.StatusUnauthorized {
		t.Errorf("unknown passkey: %d %s, want 401", w.Code, w.Body)
	}
}

func TestWrongOriginIsRefused(t *testing.T) {
	f := newAuthFixture(t)
	key, _, _ := f.member(RoleEditor, "")
	key.Origin = "http://localhost:9999"
	if w := f.signIn(f.c, key, ""); w.Code != http.StatusUnauthorized {
		t.Errorf("assertion from another origin: %d %s, want 401", w.Code, w.Body)
	}
}

func TestPlainHTTPIsRefusedBeyondLocalhost(t *testing.T) {
	f := newAuthFixture(t)
	token := f.invite(RoleEditor, "")
	https := "Sign-in needs HTTPS: open the console at https://robohornets.org/admin (or http://localhost for development)"
	tests := []struct {
		name    string
		siteURL string
		host    string
		status  int
		msg     string
		rpID    string
	}{
		{"localhost", "", "localhost:8080", 200, "", "localhost"},
		{"localhost without port", "", "localhost", 200, "", "localhost"},
		{"public host", "", "robohornets.org", 403, https, ""},
		{"public host with port", "", "robohornets.org:8080", 403, https, ""},
		{"loopback address", "", "127.0.0.1:8080", 403, errIPHost.msg, ""},
		{"IPv6 loopback address", "", "[::1]:8080", 403, errIPHost.msg, ""},
		{"https site", "https://robohornets.org", "10.0.0.7:8080", 200, "", "robohornets.org"},
		{"plain-HTTP site", "http://robohornets.org", "robohornets.org", 403, https, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.console(Options{SiteURL: tt.siteURL})
			for _, rq := range []request{
				{method: "POST", path: "/admin/api/signin/begin", host: tt.host},
				{method: "POST", path: "/admin/api/enrol/begin", host: tt.host, body: enrolBegin{Token: token}},
			} {
				w := f.send(c, rq)
				if w.Code != tt.status {
					t.Fatalf("%s: %d %s, want %d", rq.path, w.Code, w.Body, tt.status)
				}
				if tt.status != 200 {
					if got := errorText(t, w); got != tt.msg {
						t.Errorf("%s: %q, want %q", rq.path, got, tt.msg)
					}
					continue
				}
				var cer Ceremony
				if err := json.Unmarshal(w.Body.Bytes(), &cer); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(cer.Options), `"`+tt.rpID+`"`) {
					t.Errorf("%s: options %s, want RP ID %q", rq.path, cer.Options, tt.rpID)
				}
			}
		})
	}
}

// newKey is a new virtual authenticator on the tests' origin.
func newKey() *passkeytest.Authenticator { return passkeytest.New(devOrigin) }
