package console

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestSessionCookieAttributes(t *testing.T) {
	f := newAuthFixture(t)
	finish := f.create(newKey(), f.beginEnrol(f.c, f.invite(RoleEditor, "")))
	w := f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/enrol/finish", body: finish})
	set := w.Result().Header.Values("Set-Cookie")
	if len(set) != 1 {
		t.Fatalf("Set-Cookie %q, want one", set)
	}
	line := set[0]
	for _, want := range []string{SessionCookie + "=", "Path=/", "Secure", "HttpOnly", "SameSite=Strict", "Max-Age=604800"} {
		if !strings.Contains(line, want) {
			t.Errorf("Set-Cookie %q lacks %q", line, want)
		}
	}
	if strings.Contains(strings.ToLower(line), "domain") {
		t.Errorf("Set-Cookie %q has a Domain; __Host- cookies must not", line)
	}
	token := sessionCookieOf(t, w)
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != 48 {
		t.Fatalf("session token %q: want 48 bytes (32 random, 16 of MAC) in base64url", token)
	}
	sum := sha256.Sum256(raw)
	docs := f.docs(collSessions)
	if len(docs) != 1 || docs[0].ID != hex.EncodeToString(sum[:]) || strings.Contains(string(docs[0].JSON), token) {
		t.Errorf("sessions stored %v, want one under the token's SHA-256 and without it", docs)
	}
}

func TestSignInRotatesTheSessionAndAPlantedOneIsWorthless(t *testing.T) {
	f := newAuthFixture(t)
	victimKey, victimCookie, victim := f.member(RoleAdmin, "Victim")
	_, attackerCookie, _ := f.member(RoleEditor, "Attacker")
	// The attacker plants their own valid session cookie in the victim's
	// browser; the victim signs in.
	w := f.signIn(f.c, victimKey, attackerCookie)
	if w.Code != http.StatusOK {
		t.Fatalf("sign-in: %d %s", w.Code, w.Body)
	}
	fresh := sessionCookieOf(t, w)
	if fresh == attackerCookie || fresh == victimCookie {
		t.Fatal("sign-in reused a session id")
	}
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/me", cookie: attackerCookie}); w.Code != http.StatusUnauthorized {
		t.Errorf("the planted session after the sign-in: %d, want 401", w.Code)
	}
	var me Me
	f.must(f.c, http.StatusOK, &me, request{method: "GET", path: "/admin/api/me", cookie: fresh})
	if me.Member.ID != victim.Member.ID {
		t.Errorf("signed in as %s, want %s", me.Member.ID, victim.Member.ID)
	}
	// A made-up cookie is never adopted either.
	planted := newToken(randomBytes(keyBytes))
	w = f.signIn(f.c, victimKey, planted)
	if got := sessionCookieOf(t, w); got == planted {
		t.Error("sign-in adopted a cookie the browser sent")
	}
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/me", cookie: planted}); w.Code != http.StatusUnauthorized {
		t.Errorf("planted cookie: %d, want 401", w.Code)
	}
}

func TestSessionIdleExpiry(t *testing.T) {
	f := newAuthFixture(t)
	_, cookie, _ := f.member(RoleEditor, "")
	me := request{method: "GET", path: "/admin/api/me", cookie: cookie}
	for range 3 { // used within SessionIdle, it lives on
		f.clk.Advance(SessionIdle - time.Second)
		f.must(f.c, http.StatusOK, nil, me)
	}
	f.clk.Advance(SessionIdle)
	w := f.send(f.c, me)
	if w.Code != http.StatusUnauthorized || errorOf(t, w) != "sign in" {
		t.Errorf("after SessionIdle unused: %d %s, want 401 sign in", w.Code, w.Body)
	}
	if !strings.Contains(w.Header().Get("Set-Cookie"), "Max-Age=0") {
		t.Errorf("dead cookie not cleared: %q", w.Header().Get("Set-Cookie"))
	}
	if n := len(f.docs(collSessions)); n != 0 {
		t.Errorf("%d sessions left, want the expired one deleted", n)
	}
}

func TestSessionAbsoluteExpiry(t *testing.T) {
	f := newAuthFixture(t)
	_, cookie, _ := f.member(RoleEditor, "")
	me := request{method: "GET", path: "/admin/api/me", cookie: cookie}
	for elapsed := time.Duration(0); elapsed < SessionMax-time.Hour; elapsed += time.Hour {
		f.clk.Advance(time.Hour)
		f.must(f.c, http.StatusOK, nil, me)
	}
	f.clk.Advance(time.Hour) // SessionMax after the sign-in, used all along
	if w := f.send(f.c, me); w.Code != http.StatusUnauthorized {
		t.Errorf("at SessionMax: %d, want 401", w.Code)
	}
}

func TestLastSeenIsWrittenAtMostOnceAMinute(t *testing.T) {
	f := newAuthFixture(t)
	_, cookie, _ := f.member(RoleEditor, "")
	lastSeen := func() time.Time {
		t.Helper()
		id, _, _ := f.c.tokenID(t.Context(), cookie)
		s, err := f.c.authenticate(httpRequestWithCookie(cookie))
		if err != nil || s.id != id {
			t.Fatalf("authenticate: %v", err)
		}
		return s.doc.LastSeen
	}
	f.clk.Advance(59 * time.Second)
	if got := lastSeen(); !got.Equal(authStart) {
		t.Errorf("59 s after sign-in, last seen %v, want unchanged %v", got, authStart)
	}
	f.clk.Advance(time.Second)
	if got := lastSeen(); !got.Equal(authStart.Add(time.Minute)) {
		t.Errorf("a minute after sign-in, last seen %v, want %v", got, authStart.Add(time.Minute))
	}
}

// httpRequestWithCookie is a request carrying a session cookie.
func httpRequestWithCookie(cookie string) *http.Request {
	r, _ := http.NewRequest("GET", devOrigin+"/admin/api/me", nil)
	r.AddCookie(&http.Cookie{Name: SessionCookie, Value: cookie})
	return r
}

func TestSignOutEndsTheSession(t *testing.T) {
	f := newAuthFixture(t)
	_, cookie, _ := f.member(RoleEditor, "")
	w := f.must(f.c, http.StatusNoContent, nil, request{method: "POST", path: "/admin/api/signout", cookie: cookie})
	if !strings.Contains(w.Header().Get("Set-Cookie"), "Max-Age=0") {
		t.Errorf("sign-out kept the cookie: %q", w.Header().Get("Set-Cookie"))
	}
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/me", cookie: cookie}); w.Code != http.StatusUnauthorized {
		t.Errorf("after sign-out: %d, want 401", w.Code)
	}
	if n := len(f.docs(collSessions)); n != 0 {
		t.Errorf("%d sessions left, want 0", n)
	}
}

func TestSignedIn(t *testing.T) {
	f := newAuthFixture(t)
	_, cookie, _ := f.member(RoleEditor, "")
	if !f.c.SignedIn(httpRequestWithCookie(cookie)) {
		t.Error("SignedIn = false with a valid session")
	}
	for _, bad := range []string{"", "garbage", newToken(randomBytes(keyBytes))} {
		if f.c.SignedIn(httpRequestWithCookie(bad)) {
			t.Errorf("SignedIn = true with cookie %q", bad)
		}
	}
}

func TestRunSweepsExpiredDocumentsInTheBackground(t *testing.T) {
	f := newAuthFixture(t)
	key, cookie, _ := f.member(RoleEditor, "")
	f.signIn(f.c, key, "")
	f.invite(RoleEditor, "")
	// More expired invitations than a sweep reads at a time.
	for i := range 2*sweepPage + 50 {
		data, err := json.Marshal(invitationDoc{Role: RoleEditor, Expires: authStart.Add(time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.db.Put(t.Context(), collInvitations, fmt.Sprintf("old-%03d", i), data); err != nil {
			t.Fatal(err)
		}
	}
	f.clk.Advance(SessionIdle)
	_, live, _ := f.member(RoleEditor, "") // a session, and an answered ceremony, still fresh
	counts := func() map[string]int {
		return map[string]int{collSessions: len(f.docs(collSessions)), collInvitations: len(f.docs(collInvitations)), collCeremonies: len(f.docs(collCeremonies))}
	}
	if got := counts(); got[collSessions] != 3 || got[collInvitations] != 251 || got[collCeremonies] != 3 {
		t.Fatalf("before Run: %v; want 3 sessions, 251 invitations and 3 answered ceremonies (requests sweep nothing)", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- f.c.Run(ctx) }()
	f.clk.BlockUntilWaiters(1) // the first sweep is done
	if got := counts(); got[collSessions] != 1 || got[collInvitations] != 0 || got[collCeremonies] != 1 {
		t.Errorf("after Run's first sweep: %v; want the fresh session and answered ceremony only", got)
	}
	f.clk.Advance(sweepEvery)
	f.clk.BlockUntilWaiters(1) // the second sweep is done
	if got := counts(); got[collSessions] != 1 || got[collCeremonies] != 0 {
		t.Errorf("after Run's second sweep: %v; want the session only", got)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run ended with %v, want context.Canceled", err)
	}
	f.must(f.c, http.StatusOK, nil, request{method: "GET", path: "/admin/api/me", cookie: live})
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/me", cookie: cookie}); w.Code != http.StatusUnauthorized {
		t.Errorf("idle session: %d, want 401", w.Code)
	}
}

func TestRemovingAPasskeyEndsTheSessionsItOpened(t *testing.T) {
	f := newAuthFixture(t)
	first, enrolled, me := f.member(RoleEditor, "Sam")
	second, _ := f.addPasskey(enrolled, "tablet")
	again := f.signedIn(first)  // opened by the first passkey too
	other := f.signedIn(second) // opened by the second
	_, bystander, _ := f.member(RoleEditor, "Kim")
	f.must(f.c, http.StatusOK, nil, request{method: "DELETE", path: "/admin/api/passkeys/" + me.Passkeys[0].ID, cookie: other})
	for _, tt := range []struct {
		name   string
		cookie string
		alive  bool
	}{
		{"enrolment session of the removed passkey", enrolled, false},
		{"sign-in session of the removed passkey", again, false},
		{"session of the other passkey", other, true},
		{"another member's session", bystander, true},
	} {
		if got := f.alive(tt.cookie); got != tt.alive {
			t.Errorf("%s: alive %v, want %v", tt.name, got, tt.alive)
		}
	}
}

func TestSignOutEverywhere(t *testing.T) {
	f := newAuthFixture(t)
	key, first, _ := f.member(RoleEditor, "Sam")
	second := f.signedIn(key)
	third := f.signedIn(key)
	_, bystander, _ := f.member(RoleEditor, "Kim")
	w := f.must(f.c, http.StatusNoContent, nil, request{method: "POST", path: "/admin/api/signout/everywhere", cookie: second})
	if !strings.Contains(w.Header().Get("Set-Cookie"), "Max-Age=0") {
		t.Errorf("sign-out everywhere kept the cookie: %q", w.Header().Get("Set-Cookie"))
	}
	for _, cookie := range []string{first, second, third} {
		if f.alive(cookie) {
			t.Errorf("a session survived sign-out everywhere")
		}
	}
	if !f.alive(bystander) {
		t.Error("another member's session ended")
	}
	if n := len(f.docs(collSessions)); n != 1 {
		t.Errorf("%d sessions stored, want only the other member's", n)
	}
	// The passkey still signs in.
	if !f.alive(f.signedIn(key)) {
		t.Error("no new session after sign-out everywhere")
	}
}
