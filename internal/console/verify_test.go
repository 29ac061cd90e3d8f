package console

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// stale is how long after a verification the tests act: a second past the
// five minutes a verification is fresh for.
const stale = 5*time.Minute + time.Second

// A stolen session (a cookie, or a phone left signed in) cannot add a
// passkey, invite, change a role or revoke without the passkey again.
func TestSensitiveActionsNeedAFreshVerification(t *testing.T) {
	tests := []struct {
		name   string
		action func(sam Me) request
		status int
	}{
		{"add a passkey", func(Me) request {
			return request{method: "POST", path: "/admin/api/passkeys/begin"}
		}, http.StatusOK},
		{"invite", func(Me) request {
			return request{method: "POST", path: "/admin/api/invitations", body: invitationRequest{Role: RoleAdmin, Name: "Kim"}}
		}, http.StatusOK},
		{"change a role", func(sam Me) request {
			return request{method: "PATCH", path: "/admin/api/members/" + sam.Member.ID, body: map[string]string{"role": RoleAdmin}}
		}, http.StatusOK},
		{"revoke", func(sam Me) request {
			return request{method: "DELETE", path: "/admin/api/members/" + sam.Member.ID}
		}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newAuthFixture(t)
			key, ada, _ := f.member(RoleAdmin, "Ada")
			_, _, sam := f.member(RoleEditor, "Sam")
			rq := tt.action(sam)
			rq.cookie = ada

			f.clk.Advance(stale) // the sign-in's own verification is stale
			w := f.send(f.c, rq)
			if msg, code := refusalOf(t, w); w.Code != http.StatusForbidden || code != "verify" {
				t.Fatalf("stale session: %d %q code %q, want 403 with code verify", w.Code, msg, code)
			}
			if w := f.verify(ada, key); w.Code != http.StatusOK {
				t.Fatalf("verify: %d %s", w.Code, w.Body)
			}
			f.clk.Advance(5*time.Minute - time.Second) // still fresh
			if w := f.send(f.c, rq); w.Code != tt.status {
				t.Fatalf("after verifying: %d %s, want %d", w.Code, w.Body, tt.status)
			}
			f.clk.Advance(2 * time.Second)
			if w := f.send(f.c, rq); w.Code != http.StatusForbidden {
				t.Errorf("5 minutes after verifying: %d %s, want 403", w.Code, w.Body)
			}
		})
	}
}

func TestSignInIsAFreshVerification(t *testing.T) {
	f := newAuthFixture(t)
	key, _, _ := f.member(RoleAdmin, "Ada")
	f.clk.Advance(time.Hour)
	cookie := f.signedIn(key)
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/invitations", cookie: cookie, body: invitationRequest{Role: RoleEditor}})
}

func TestVerifyNeedsTheMembersOwnVerifiedPasskey(t *testing.T) {
	f := newAuthFixture(t)
	key, ada, me := f.member(RoleAdmin, "Ada")
	other, _, _ := f.member(RoleAdmin, "Eve")
	f.clk.Advance(stale)
	invite := request{method: "POST", path: "/admin/api/invitations", cookie: ada, body: invitationRequest{Role: RoleAdmin}}

	var cer Ceremony
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/verify/begin", cookie: ada})
	var o struct {
		UserVerification string `json:"userVerification"`
		AllowCredentials []struct {
			ID string `json:"id"`
		} `json:"allowCredentials"`
	}
	if err := json.Unmarshal(cer.Options, &o); err != nil {
		t.Fatal(err)
	}
	if o.UserVerification != "required" || len(o.AllowCredentials) != 1 {
		t.Errorf("verify options %s: want user verification required and Ada's one passkey allowed", cer.Options)
	}
	// Another member's passkey.
	w := f.send(f.c, request{method: "POST", path: "/admin/api/verify/finish", cookie: ada, body: f.assertAnyway(other, cer)})
	if w.Code < 400 || w.Code >= 500 {
		t.Errorf("another member's passkey verifies: %d %s", w.Code, w.Body)
	}
	// Ada's passkey without user verification (presence only).
	key.NoUserVerification = true
	if w := f.verify(ada, key); w.Code < 400 || w.Code >= 500 {
		t.Errorf("verify without user verification: %d %s", w.Code, w.Body)
	}
	key.NoUserVerification = false
	if w := f.send(f.c, invite); w.Code != http.StatusForbidden {
		t.Fatalf("after refused verifications: %d %s, want 403", w.Code, w.Body)
	}

	// A good verification records the passkey's counter, as a sign-in does.
	if w := f.verify(ada, key); w.Code != http.StatusOK {
		t.Fatalf("verify: %d %s", w.Code, w.Body)
	}
	data, err := f.db.Get(context.Background(), collPasskeys, me.Passkeys[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var p passkeyDoc
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if got := p.Credential.Authenticator.SignCount; got != key.Credentials()[0].SignCount || !p.LastUsed.Equal(f.clk.Now()) {
		t.Errorf("after verify: stored count %d last used %v, want %d at %v", got, p.LastUsed, key.Credentials()[0].SignCount, f.clk.Now())
	}
	f.must(f.c, http.StatusOK, nil, invite)
}

func TestVerifyCeremonyIsTheMembersOwn(t *testing.T) {
	f := newAuthFixture(t)
	adaKey, ada, _ := f.member(RoleAdmin, "Ada")
	_, eve, _ := f.member(RoleAdmin, "Eve")
	f.clk.Advance(stale)
	// Eve's stolen session cannot finish a verification Ada began.
	var cer Ceremony
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/verify/begin", cookie: ada})
	w := f.send(f.c, request{method: "POST", path: "/admin/api/verify/finish", cookie: eve, body: f.assert(adaKey, cer)})
	if w.Code != http.StatusBadRequest {
		t.Errorf("Eve finishes Ada's verification: %d %s, want 400", w.Code, w.Body)
	}
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/invitations", cookie: eve, body: invitationRequest{Role: RoleAdmin}}); w.Code != http.StatusForbidden {
		t.Errorf("Eve invites: %d %s, want 403", w.Code, w.Body)
	}
}
