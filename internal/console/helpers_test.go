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
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
)

// The tests of this package share what is in this file: authFixture drives
// the console as a browser does, enrolling and signing in with virtual
// passkeys; contentFixture acts as members signed in directly, for the
// content routes. Both stand on a local docstore, a news store of their own
// and a fake clock.

// openTestDB opens a local docstore in dir, closed when the test ends.
func openTestDB(t *testing.T, dir string) docstore.DB {
	t.Helper()
	db, err := docstore.OpenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// newTestConsole returns New(opts) with a news store of its own in a new
// temporary directory (an existing one: OpenLocal seeds only a new one) and
// a logger that discards.
func newTestConsole(t *testing.T, opts Options) *Console {
	t.Helper()
	ns, err := news.OpenLocal(t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	opts.News, opts.Logger = ns, slog.New(slog.DiscardHandler)
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// jsonRequest is a request of method to target whose body is body's JSON,
// body itself for a []byte, or none for nil.
func jsonRequest(t *testing.T, method, target string, body any) *http.Request {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	return httptest.NewRequest(method, target, rd)
}

// checkAnswer fails the test unless w, the answer to method path, has
// status, and decodes it into out (if not nil).
func checkAnswer(t *testing.T, w *httptest.ResponseRecorder, status int, out any, method, path string) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("%s %s: status %d, want %d; body %s", method, path, w.Code, status, w.Body)
	}
	if out != nil {
		if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, w.Body)
		}
	}
}

// errorOf returns the "error" of an answer, and fails the test when it has
// none.
func errorOf(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	var e struct{ Error string }
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" {
		t.Fatalf("answer %q is not an error: %v", w.Body, err)
	}
	return e.Error
}

// wins counts the 200 answers among the status codes of requests that
// raced, each of which either wins (200) or is refused with lost; any
// other code fails the test.
func wins(t *testing.T, codes []int, lost int) int {
	t.Helper()
	won := 0
	for _, code := range codes {
		switch code {
		case http.StatusOK:
			won++
		case lost:
		default:
			t.Errorf("status %d, want %d or %d", code, http.StatusOK, lost)
		}
	}
	return won
}

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
	f := &authFixture{t: t, db: openTestDB(t, dir), dir: dir, clk: clock.NewFake(authStart)}
	f.c = f.console(Options{})
	return f
}

// console returns another console (another instance) on the fixture's store
// and clock, with opts' SiteURL and Proxies.
func (f *authFixture) console(opts Options) *Console {
	f.t.Helper()
	opts.DB, opts.Clock = f.db, f.clk
	return newTestConsole(f.t, opts)
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
	r := jsonRequest(f.t, rq.method, "http://localhost:8080"+rq.path, rq.body)
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
	checkAnswer(f.t, w, status, out, rq.method, rq.path)
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

// create answers a registration ceremony with a new credential of key,
// named "phone".
func (f *authFixture) create(key *passkeytest.Authenticator, cer Ceremony) ceremonyFinish {
	f.t.Helper()
	return f.answer(cer, key.Create, "phone")
}

// answer answers cer with the credential that passkey makes of its options.
func (f *authFixture) answer(cer Ceremony, passkey func(options []byte) ([]byte, error), name string) ceremonyFinish {
	f.t.Helper()
	cred, err := passkey(cer.Options)
	if err != nil {
		f.t.Fatal(err)
	}
	return ceremonyFinish{Ceremony: cer.ID, Credential: cred, Name: name}
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
	return f.answer(cer, key.Get, "")
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

// docs returns the documents of coll.
func (f *authFixture) docs(coll string) []docstore.Doc {
	f.t.Helper()
	d, err := f.db.List(context.Background(), coll)
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}

// newKey is a new virtual authenticator on the tests' origin.
func newKey() *passkeytest.Authenticator { return passkeytest.New(devOrigin) }

// t0 is the fake clock's start in every content test.
var t0 = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

// Members that content tests act as (ids are 16 random bytes in hex).
var (
	alice = Member{ID: "a11ce000000000000000000000000001", Name: "Alice", Role: RoleEditor, Created: t0}
	bob   = Member{ID: "b0b00000000000000000000000000002", Name: "Bob", Role: RoleAdmin, Created: t0}
)

// contentFixture is a console made by New on a real local docstore and a
// real local news store, both in temporary directories, with a fake
// clock; requests go through its ServeHTTP with a session cookie of the
// member they act as.
type contentFixture struct {
	t       *testing.T
	c       *Console
	clk     *clock.Fake
	db      docstore.DB
	news    news.Store
	cookies map[string]*http.Cookie
}

func newContentFixture(t *testing.T) *contentFixture {
	t.Helper()
	return newContentFixtureOn(t, openTestDB(t, filepath.Join(t.TempDir(), "db")))
}

// newContentFixtureOn is newContentFixture on db (a wrapper of a real
// store, to count or fail its calls).
func newContentFixtureOn(t *testing.T, db docstore.DB) *contentFixture {
	t.Helper()
	clk := clock.NewFake(t0)
	c := newTestConsole(t, Options{DB: db, Clock: clk})
	f := &contentFixture{t: t, c: c, clk: clk, db: db, news: c.opts.News, cookies: map[string]*http.Cookie{}}
	for _, m := range []Member{alice, bob} {
		f.cookies[m.ID] = f.signIn(m)
	}
	return f
}

// fixturePasskey is the id of the one passkey content tests' members
// hold: listed on the member, never stored, never used.
const fixturePasskey = "f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1"

// signIn stores m as a member and returns the cookie of a new session.
func (f *contentFixture) signIn(m Member) *http.Cookie {
	f.t.Helper()
	data, err := json.Marshal(memberDoc{Member: m, PasskeyIDs: []string{fixturePasskey}})
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.db.Put(f.t.Context(), collMembers, m.ID, data); err != nil {
		f.t.Fatal(err)
	}
	ns, err := f.c.prepareSession(httptest.NewRequest("POST", "/admin/api/signin/finish", nil), m.ID, fixturePasskey)
	if err != nil {
		f.t.Fatal(err)
	}
	err = f.db.Tx(f.t.Context(), func(tx docstore.Txn) error {
		_, err := changeMember(tx, m.ID, func(m *memberDoc) error { return ns.addTo(tx, m) })
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	w := httptest.NewRecorder()
	f.c.giveSession(w, httptest.NewRequest("POST", "/admin/api/signin/finish", nil), ns)
	cookies := w.Result().Cookies()
	if len(cookies) != 1 || cookies[0].Name != SessionCookie {
		f.t.Fatalf("sign-in cookies %v", cookies)
	}
	return cookies[0]
}

// request sends r as m (no session for the zero Member) and returns the answer.
func (f *contentFixture) request(m Member, r *http.Request) *httptest.ResponseRecorder {
	if m.ID != "" {
		r.AddCookie(f.cookies[m.ID])
	}
	w := httptest.NewRecorder()
	f.c.ServeHTTP(w, r)
	return w
}

// do sends a request as m with body (JSON of it unless it is []byte) and
// returns the answer.
func (f *contentFixture) do(m Member, method, path string, body any) *httptest.ResponseRecorder {
	f.t.Helper()
	return f.request(m, jsonRequest(f.t, method, path, body))
}

// must sends a request that must answer status, and decodes the answer into out (if not nil).
func (f *contentFixture) must(status int, out any, m Member, method, path string, body any) {
	f.t.Helper()
	checkAnswer(f.t, f.do(m, method, path, body), status, out, method, path)
}

// create makes a post and returns it.
func (f *contentFixture) create(m Member, title, content string) Post {
	f.t.Helper()
	var p Post
	f.must(http.StatusCreated, &p, m, "POST", "/admin/api/posts", PostFields{Title: title, Date: t0, Content: content})
	return p
}

// save saves fields over base and returns the post.
func (f *contentFixture) save(m Member, id string, base int, fields PostFields) Post {
	f.t.Helper()
	var p Post
	f.must(http.StatusOK, &p, m, "PUT", "/admin/api/posts/"+url.PathEscape(id), Save{PostFields: fields, BaseVersion: base})
	return p
}

// verify answers the re-verification ceremony of the session cookie with
// key, and returns the finish's answer.
func (f *authFixture) verify(cookie string, key *passkeytest.Authenticator) *httptest.ResponseRecorder {
	f.t.Helper()
	var cer Ceremony
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/verify/begin", cookie: cookie})
	return f.send(f.c, request{method: "POST", path: "/admin/api/verify/finish", cookie: cookie, body: f.assert(key, cer)})
}

// addPasskey adds a new passkey named name to the member of cookie and
// returns its authenticator and the answer's Me.
func (f *authFixture) addPasskey(cookie, name string) (*passkeytest.Authenticator, Me) {
	f.t.Helper()
	key := newKey()
	var cer Ceremony
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/passkeys/begin", cookie: cookie})
	finish := f.create(key, cer)
	finish.Name = name
	var me Me
	f.must(f.c, http.StatusOK, &me, request{method: "POST", path: "/admin/api/passkeys/finish", cookie: cookie, body: finish})
	return key, me
}

// signedIn signs in with key on the fixture's console and returns the
// new session's cookie.
func (f *authFixture) signedIn(key *passkeytest.Authenticator) string {
	f.t.Helper()
	w := f.signIn(f.c, key, "")
	checkAnswer(f.t, w, http.StatusOK, nil, "POST", "/admin/api/signin/finish")
	return sessionCookieOf(f.t, w)
}

// refusalOf returns the "error" and "code" of an answer, and fails the
// test when it has no error.
func refusalOf(t *testing.T, w *httptest.ResponseRecorder) (msg, code string) {
	t.Helper()
	var e struct{ Error, Code string }
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" {
		t.Fatalf("answer %q is not an error: %v", w.Body, err)
	}
	return e.Error, e.Code
}

// alive reports whether the session of cookie still answers GET /me.
func (f *authFixture) alive(cookie string) bool {
	f.t.Helper()
	return f.send(f.c, request{method: "GET", path: "/admin/api/me", cookie: cookie}).Code == http.StatusOK
}

// auditActions returns "action target" of every entry of the audit log,
// newest first, as the admin of cookie reads it.
func (f *authFixture) auditActions(cookie string) []string {
	f.t.Helper()
	var log []AuditEntry
	f.must(f.c, http.StatusOK, &log, request{method: "GET", path: "/admin/api/audit", cookie: cookie})
	out := make([]string, len(log))
	for i, e := range log {
		out[i] = e.Action + " " + e.Target
	}
	return out
}

// assertAnyway answers cer with key's newest credential as if cer allowed
// every credential: what a modified browser could send, to test that the
// server itself refuses a passkey the ceremony did not allow.
func (f *authFixture) assertAnyway(key *passkeytest.Authenticator, cer Ceremony) ceremonyFinish {
	f.t.Helper()
	var options map[string]any
	if err := json.Unmarshal(cer.Options, &options); err != nil {
		f.t.Fatal(err)
	}
	delete(options, "allowCredentials")
	loose, err := json.Marshal(options)
	if err != nil {
		f.t.Fatal(err)
	}
	cer.Options = loose
	return f.assert(key, cer)
}

// changeStored changes the member id in db with fn, and nothing else: what
// another instance would have done, or one that failed halfway.
func changeStored(t *testing.T, db docstore.DB, id string, fn func(m *memberDoc)) {
	t.Helper()
	err := db.Tx(t.Context(), func(tx docstore.Txn) error {
		_, err := changeMember(tx, id, func(m *memberDoc) error {
			fn(m)
			return nil
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
