package console

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
)

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
	// Only the answered ceremonies are stored, until they expire.
	if n := len(f.docs(collCeremonies)); n != 2 {
		t.Errorf("%d answered ceremonies recorded, want 2", n)
	}
}

func TestCeremonyIsAnsweredOnceAndExpires(t *testing.T) {
	f := newAuthFixture(t)
	key, _, _ := f.member(RoleEditor, "")
	finish := f.assert(key, f.beginSignIn(f.c))
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
	w := f.send(f.c, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
	if w.Code != http.StatusBadRequest || errorOf(t, w) != errCeremonyGone.msg {
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
	if w.Code != http.StatusUnauthorized || errorOf(t, w) != errCloned.msg {
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
					if got := errorOf(t, w); got != tt.msg {
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
