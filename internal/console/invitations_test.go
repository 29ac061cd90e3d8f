package console

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
)

func TestInvitationTokenIsInTheFragmentAndStoredOnlyAsItsHash(t *testing.T) {
	f := newAuthFixture(t)
	inv, err := Invite(context.Background(), f.db, f.clk.Now(), "https://robohornets.org/", RoleAdmin, "  Ada  ")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(inv.Link)
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "https" || u.Host != "robohornets.org" || u.Path != "/admin/enrol" || u.RawQuery != "" {
		t.Errorf("link %q: want https://robohornets.org/admin/enrol#<token>", inv.Link)
	}
	token := u.Fragment
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != 48 {
		t.Fatalf("token %q: want 48 bytes (32 random, 16 of MAC) in base64url (%v)", token, err)
	}
	if inv.Role != RoleAdmin || inv.Name != "Ada" || !inv.Expires.Equal(authStart.Add(InvitationTTL)) {
		t.Errorf("invitation %+v", inv)
	}
	sum := sha256.Sum256(raw)
	docs := f.docs(collInvitations)
	if len(docs) != 1 || docs[0].ID != hex.EncodeToString(sum[:]) {
		t.Fatalf("invitations stored %v, want one under the token's SHA-256", docs)
	}
	// Enrol with it, then look for the token in every file of the store.
	key := passkeytest.New(devOrigin)
	f.enrol(f.c, key, token)
	err = filepath.WalkDir(f.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), token) {
			t.Errorf("%s holds the invitation token", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestInvitationIsUsedOnce(t *testing.T) {
	f := newAuthFixture(t)
	token := f.invite(RoleEditor, "")
	// Two enrolments begun with one link: the first to finish wins.
	first, second := f.beginEnrol(f.c, token), f.beginEnrol(f.c, token)
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/enrol/finish", body: f.create(passkeytest.New(devOrigin), first)})
	w := f.send(f.c, request{method: "POST", path: "/admin/api/enrol/finish", body: f.create(passkeytest.New(devOrigin), second)})
	if w.Code != http.StatusGone || errorOf(t, w) != errInvitationGone.msg {
		t.Errorf("second enrolment: %d %s, want 410 %q", w.Code, w.Body, errInvitationGone.msg)
	}
	w = f.send(f.c, request{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: token}})
	if w.Code != http.StatusGone || errorOf(t, w) != errInvitationGone.msg {
		t.Errorf("replayed link: %d %s, want 410 %q", w.Code, w.Body, errInvitationGone.msg)
	}
	if n := len(f.docs(collMembers)); n != 1 {
		t.Errorf("%d members, want 1", n)
	}
}

func TestConcurrentEnrolmentsWithOneLinkExactlyOneWins(t *testing.T) {
	f := newAuthFixture(t)
	other := f.console(Options{}) // the second finish reaches another instance
	token := f.invite(RoleEditor, "")
	const n = 4
	finishes := make([]ceremonyFinish, n)
	for i := range finishes {
		finishes[i] = f.create(passkeytest.New(devOrigin), f.beginEnrol(f.c, token))
	}
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range finishes {
		c := f.c
		if i%2 == 1 {
			c = other
		}
		rq := request{method: "POST", path: "/admin/api/enrol/finish", body: finishes[i], remote: "203.0.113.9:1"}
		wg.Go(func() { codes[i] = f.send(c, rq).Code })
	}
	wg.Wait()
	if won := wins(t, codes, http.StatusGone); won != 1 {
		t.Errorf("%d enrolments won (codes %v), want exactly 1", won, codes)
	}
	if m := len(f.docs(collMembers)); m != 1 {
		t.Errorf("%d members, want 1", m)
	}
}

func TestInvitationExpires(t *testing.T) {
	f := newAuthFixture(t)
	token := f.invite(RoleEditor, "")
	f.clk.Advance(InvitationTTL)
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: token}}); w.Code != http.StatusGone {
		t.Errorf("begin at InvitationTTL: %d %s, want 410", w.Code, w.Body)
	}
	// Begun a minute before the end, finished a minute after: refused.
	token = f.invite(RoleEditor, "")
	f.clk.Advance(InvitationTTL - time.Minute)
	cer := f.beginEnrol(f.c, token)
	f.clk.Advance(2 * time.Minute)
	w := f.send(f.c, request{method: "POST", path: "/admin/api/enrol/finish", body: f.create(passkeytest.New(devOrigin), cer)})
	if w.Code != http.StatusGone {
		t.Errorf("finish after the invitation expired: %d %s, want 410", w.Code, w.Body)
	}
	if n := len(f.docs(collMembers)); n != 0 {
		t.Errorf("%d members, want 0", n)
	}
}

func TestUnknownOrMalformedTokenIsGone(t *testing.T) {
	f := newAuthFixture(t)
	for _, token := range []string{"", "x", strings.Repeat("A", 43), "../../Members/x", strings.Repeat("é", 43)} {
		if w := f.send(f.c, request{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: token}}); w.Code != http.StatusGone {
			t.Errorf("token %q: %d %s, want 410", token, w.Code, w.Body)
		}
	}
}

func TestInviteChecksRoleAndName(t *testing.T) {
	f := newAuthFixture(t)
	for _, tt := range []struct{ role, name string }{
		{"owner", ""}, {"", ""}, {RoleEditor, "two\nlines"}, {RoleEditor, strings.Repeat("n", maxNameRunes+1)},
	} {
		if _, err := Invite(context.Background(), f.db, f.clk.Now(), devOrigin, tt.role, tt.name); !errors.Is(err, ErrBadInvitation) {
			t.Errorf("Invite(%q, %q) = %v, want ErrBadInvitation", tt.role, tt.name, err)
		}
	}
	if n := len(f.docs(collInvitations)); n != 0 {
		t.Errorf("%d invitations stored, want 0", n)
	}
}

func TestAdminInvitesFromTheConsole(t *testing.T) {
	f := newAuthFixture(t)
	_, admin, _ := f.member(RoleAdmin, "Ada")
	var inv Invitation
	f.must(f.c, http.StatusOK, &inv, request{method: "POST", path: "/admin/api/invitations", cookie: admin, body: invitationRequest{Role: RoleEditor, Name: "Sam"}})
	if !strings.HasPrefix(inv.Link, devOrigin+"/admin/enrol#") || inv.Role != RoleEditor || inv.Name != "Sam" {
		t.Fatalf("invitation %+v", inv)
	}
	w := f.send(f.c, request{method: "POST", path: "/admin/api/invitations", cookie: admin, body: invitationRequest{Role: "root"}})
	if w.Code != http.StatusBadRequest {
		t.Errorf("bad role: %d %s, want 400", w.Code, w.Body)
	}
	u, _ := url.Parse(inv.Link)
	_, me := f.enrol(f.c, passkeytest.New(devOrigin), u.Fragment)
	if me.Member.Role != RoleEditor || me.Member.Name != "Sam" {
		t.Errorf("enrolled %+v", me.Member)
	}
}

// A link dies on its first successful use: an enrolment the store fails
// leaves no passkey behind and the link working.
func TestFailedEnrolmentKeepsTheLink(t *testing.T) {
	f := newAuthFixture(t)
	token := f.invite(RoleEditor, "Sam")
	// The store dies in the middle of the enrolment: it cannot store the member.
	down := newCountingDB(f.db)
	down.failWrites = collMembers
	broken := newTestConsole(t, Options{DB: down, Clock: f.clk})
	finish := f.create(newKey(), f.beginEnrol(broken, token))
	if w := f.send(broken, request{method: "POST", path: "/admin/api/enrol/finish", body: finish}); w.Code < 500 {
		t.Fatalf("enrolment on a failing store: %d, want a 5xx", w.Code)
	}
	if keys := f.docs(collPasskeys); len(keys) != 0 {
		t.Errorf("%d passkeys left by the failed enrolment", len(keys))
	}
	_, me := f.enrol(f.c, newKey(), token)
	if me.Member.Name != "Sam" || me.Member.Role != RoleEditor {
		t.Errorf("enrolled with the link again as %+v", me.Member)
	}
}

// inviteAs makes an invitation as the admin of cookie, in the console, and
// returns its token.
func (f *authFixture) inviteAs(cookie, role, name string) string {
	f.t.Helper()
	var inv Invitation
	f.must(f.c, http.StatusOK, &inv, request{method: "POST", path: "/admin/api/invitations", cookie: cookie, body: invitationRequest{Role: role, Name: name}})
	u, err := url.Parse(inv.Link)
	if err != nil {
		f.t.Fatal(err)
	}
	return u.Fragment
}

// The "stolen phone" remedy is to revoke its admin: the links that admin
// made die with them, before the enrolment, during it, and when the admin
// is demoted rather than revoked.
func TestInvitationOfAnInviterWhoCannotInviteIsRefused(t *testing.T) {
	const refused = "The admin who made this invitation can no longer invite (revoked, or no longer an admin); ask an admin for a new link"
	revoke := func(f *authFixture, by string, id string) {
		f.must(f.c, http.StatusOK, nil, request{method: "DELETE", path: "/admin/api/members/" + id, cookie: by})
	}
	// change changes the inviter's document alone, as another instance
	// whose deletion of the invitations failed (or has not happened yet).
	change := func(fn func(m *memberDoc)) func(f *authFixture, _ string, id string) {
		return func(f *authFixture, _ string, id string) { changeStored(f.t, f.db, id, fn) }
	}
	demote := change(func(m *memberDoc) { m.Role = RoleEditor })
	revokedOnly := change(func(m *memberDoc) { m.Revoked = authStart })
	tests := []struct {
		name string
		// lose makes the inviter id unable to invite, as the admin of cookie by.
		lose func(f *authFixture, by string, id string)
		// during: after the enrolment's begin, before its finish.
		during bool
		want   string
	}{
		// Revoking deletes the inviter's links: the enrolment finds them gone.
		{"revoked before the link is opened", revoke, false, errInvitationGone.msg},
		{"revoked while the passkey is made", revoke, true, errInvitationGone.msg},
		{"revoked, links not deleted, before the link is opened", revokedOnly, false, refused},
		{"revoked, links not deleted, while the passkey is made", revokedOnly, true, refused},
		{"demoted before the link is opened", demote, false, refused},
		{"demoted while the passkey is made", demote, true, refused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newAuthFixture(t)
			_, mallory, mal := f.member(RoleAdmin, "Mallory") // the stolen phone's admin
			_, ada, _ := f.member(RoleAdmin, "Ada")
			token := f.inviteAs(mallory, RoleAdmin, "Accomplice")
			members := len(f.docs(collMembers))
			var w *httptest.ResponseRecorder
			if tt.during {
				cer := f.beginEnrol(f.c, token)
				tt.lose(f, ada, mal.Member.ID)
				w = f.send(f.c, request{method: "POST", path: "/admin/api/enrol/finish", body: f.create(newKey(), cer)})
			} else {
				tt.lose(f, ada, mal.Member.ID)
				w = f.send(f.c, request{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: token}})
			}
			if w.Code != http.StatusGone || errorOf(t, w) != tt.want {
				t.Errorf("enrolment: %d %s, want 410 %q", w.Code, w.Body, tt.want)
			}
			if set := w.Result().Header.Values("Set-Cookie"); len(set) != 0 {
				t.Errorf("a refused enrolment set %q", set)
			}
			if n := len(f.docs(collMembers)); n != members {
				t.Errorf("%d members, want %d", n, members)
			}
			if n := len(f.docs(collPasskeys)); n != 2 {
				t.Errorf("%d passkeys, want Mallory's and Ada's", n)
			}
			if n := len(f.docs(collInvitations)); n != 0 {
				t.Errorf("%d invitations left, want the refused one gone", n)
			}
		})
	}
}

func TestRevokingAMemberDeletesTheirInvitations(t *testing.T) {
	f := newAuthFixture(t)
	_, mallory, mal := f.member(RoleAdmin, "Mallory")
	_, ada, _ := f.member(RoleAdmin, "Ada")
	f.inviteAs(mallory, RoleAdmin, "One")
	f.inviteAs(mallory, RoleEditor, "Two")
	kept := f.inviteAs(ada, RoleEditor, "Three")
	f.must(f.c, http.StatusOK, nil, request{method: "DELETE", path: "/admin/api/members/" + mal.Member.ID, cookie: ada})
	if n := len(f.docs(collInvitations)); n != 1 {
		t.Errorf("%d invitations after revoking Mallory, want Ada's one", n)
	}
	_, me := f.enrol(f.c, newKey(), kept)
	if me.Member.Name != "Three" {
		t.Errorf("enrolled %+v with Ada's link", me.Member)
	}
}

func TestAdminListsAndCancelsInvitations(t *testing.T) {
	f := newAuthFixture(t)
	_, ada, ad := f.member(RoleAdmin, "Ada")
	_, editor, _ := f.member(RoleEditor, "Sam")
	f.clk.Advance(time.Minute)
	token := f.inviteAs(ada, RoleAdmin, "Kim")
	f.clk.Advance(time.Second)
	cli := f.invite(RoleEditor, "")
	var list []struct {
		ID, Role, Name, By string
		Created, Expires   time.Time
	}
	w := f.must(f.c, http.StatusOK, &list, request{method: "GET", path: "/admin/api/invitations", cookie: ada})
	if len(list) != 2 {
		t.Fatalf("invitations %s, want 2", w.Body)
	}
	kim := list[0]
	if kim.Role != RoleAdmin || kim.Name != "Kim" || kim.By != ad.Member.ID || !kim.Expires.Equal(authStart.Add(time.Minute+InvitationTTL)) || kim.ID == "" {
		t.Errorf("Kim's invitation listed as %+v", kim)
	}
	if list[1].By != "admin command" || list[1].Role != RoleEditor {
		t.Errorf("the command's invitation listed as %+v", list[1])
	}
	// The listing holds neither a token nor a store id (the token's hash).
	for _, tok := range []string{token, cli} {
		id, _, err := f.c.tokenID(t.Context(), tok)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(w.Body.String(), tok) || strings.Contains(w.Body.String(), id) {
			t.Errorf("the listing %s holds a token or its store id", w.Body)
		}
	}
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/invitations", cookie: editor}); w.Code != http.StatusForbidden {
		t.Errorf("an editor lists invitations: %d, want 403", w.Code)
	}
	if w := f.send(f.c, request{method: "DELETE", path: "/admin/api/invitations/" + kim.ID, cookie: editor}); w.Code != http.StatusForbidden {
		t.Errorf("an editor cancels an invitation: %d, want 403", w.Code)
	}
	f.must(f.c, http.StatusNoContent, nil, request{method: "DELETE", path: "/admin/api/invitations/" + kim.ID, cookie: ada})
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: token}}); w.Code != http.StatusGone {
		t.Errorf("a cancelled link: %d %s, want 410", w.Code, w.Body)
	}
	if w := f.send(f.c, request{method: "DELETE", path: "/admin/api/invitations/" + kim.ID, cookie: ada}); w.Code != http.StatusNotFound {
		t.Errorf("cancelling it again: %d %s, want 404", w.Code, w.Body)
	}
	if log := f.auditActions(ada); !slices.Contains(log, "uninvite admin Kim") {
		t.Errorf("audit log %q lacks uninvite admin Kim", log)
	}
	f.enrol(f.c, newKey(), cli) // the other link still works
}
