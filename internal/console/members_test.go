package console

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
)

func TestRevokedMemberIsLockedOutMidSessionOnEveryInstance(t *testing.T) {
	f := newAuthFixture(t)
	other := f.console(Options{}) // another serve instance on the same store
	_, admin, _ := f.member(RoleAdmin, "Ada")
	key, editor, ed := f.member(RoleEditor, "Sam")
	f.must(other, http.StatusOK, nil, request{method: "GET", path: "/admin/api/me", cookie: editor})
	f.clk.Advance(time.Second) // well within the minute LastSeen is not rewritten
	var revoked Member
	f.must(f.c, http.StatusOK, &revoked, request{method: "DELETE", path: "/admin/api/members/" + ed.Member.ID, cookie: admin})
	if revoked.ID != ed.Member.ID || !revoked.Revoked.Equal(f.clk.Now()) {
		t.Errorf("revoke answered %+v", revoked)
	}
	for _, c := range []*Console{other, f.c} {
		if w := f.send(c, request{method: "GET", path: "/admin/api/posts", cookie: editor}); w.Code != http.StatusUnauthorized {
			t.Errorf("revoked member's next request: %d, want 401", w.Code)
		}
		if c.SignedIn(httpRequestWithCookie(editor)) {
			t.Error("SignedIn true for a revoked member")
		}
	}
	for _, d := range f.docs(collSessions) {
		var s sessionDoc
		if json.Unmarshal(d.JSON, &s) == nil && s.MemberID == ed.Member.ID {
			t.Errorf("session %s of the revoked member is still stored", d.ID)
		}
	}
	w := f.signIn(other, key, "")
	if w.Code != http.StatusForbidden || errorOf(t, w) != errMemberGone.msg {
		t.Errorf("revoked member signs in: %d %s, want 403 %q", w.Code, w.Body, errMemberGone.msg)
	}
}

func TestAdminCannotRevokeThemself(t *testing.T) {
	f := newAuthFixture(t)
	_, admin, me := f.member(RoleAdmin, "Ada")
	if w := f.send(f.c, request{method: "DELETE", path: "/admin/api/members/" + me.Member.ID, cookie: admin}); w.Code != http.StatusConflict {
		t.Errorf("self-revoke: %d %s, want 409", w.Code, w.Body)
	}
	if w := f.send(f.c, request{method: "DELETE", path: "/admin/api/members/0123456789abcdef0123456789abcdef", cookie: admin}); w.Code != http.StatusNotFound {
		t.Errorf("revoke of nobody: %d %s, want 404", w.Code, w.Body)
	}
}

func TestRevokeFromTheCommandLine(t *testing.T) {
	f := newAuthFixture(t)
	_, editor, ed := f.member(RoleEditor, "Sam")
	m, err := Revoke(context.Background(), f.db, f.clk.Now(), ed.Member.ID)
	if err != nil || m.Revoked.IsZero() {
		t.Fatalf("Revoke = %+v, %v", m, err)
	}
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/me", cookie: editor}); w.Code != http.StatusUnauthorized {
		t.Errorf("after Revoke: %d, want 401", w.Code)
	}
	members, err := Members(context.Background(), f.db)
	if err != nil || len(members) != 1 || members[0].Revoked.IsZero() || members[0].Passkeys != 1 {
		t.Errorf("Members = %+v, %v", members, err)
	}
}

func TestMemberAddsAndRemovesPasskeys(t *testing.T) {
	f := newAuthFixture(t)
	first, cookie, me := f.member(RoleEditor, "Sam")
	second := passkeytest.New(devOrigin)

	var cer Ceremony
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/passkeys/begin", cookie: cookie})
	// The member's own passkey is excluded: the phone that has it says so.
	if _, err := first.Create(cer.Options); err != passkeytest.ErrExcluded {
		t.Errorf("the first phone answered a creation that excludes it: %v", err)
	}
	finish := f.create(second, cer)
	finish.Name = "tablet"
	var after Me
	f.must(f.c, http.StatusOK, &after, request{method: "POST", path: "/admin/api/passkeys/finish", cookie: cookie, body: finish})
	if len(after.Passkeys) != 2 || after.Passkeys[1].Name != "tablet" || after.Member.Passkeys != 2 {
		t.Fatalf("after adding: %+v", after)
	}
	if w := f.signIn(f.c, second, ""); w.Code != http.StatusOK {
		t.Fatalf("sign-in with the new passkey: %d %s", w.Code, w.Body)
	}

	f.must(f.c, http.StatusOK, &after, request{method: "DELETE", path: "/admin/api/passkeys/" + me.Passkeys[0].ID, cookie: cookie})
	if len(after.Passkeys) != 1 || after.Passkeys[0].Name != "tablet" {
		t.Fatalf("after removing: %+v", after)
	}
	if w := f.signIn(f.c, first, ""); w.Code != http.StatusUnauthorized {
		t.Errorf("sign-in with a removed passkey: %d, want 401", w.Code)
	}
	// The session the removed passkey opened ended with it.
	if f.alive(cookie) {
		t.Error("the session of the removed passkey lives on")
	}
	cookie = f.signedIn(second)
	w := f.send(f.c, request{method: "DELETE", path: "/admin/api/passkeys/" + after.Passkeys[0].ID, cookie: cookie})
	if w.Code != http.StatusConflict || errorOf(t, w) != errLastPasskey.msg {
		t.Errorf("removing the last passkey: %d %s, want 409", w.Code, w.Body)
	}
}

func TestPasskeysOfAnotherMemberAreOutOfReach(t *testing.T) {
	f := newAuthFixture(t)
	_, a, _ := f.member(RoleEditor, "A")
	_, b, bMe := f.member(RoleEditor, "B")
	// B adds a second passkey so that removing one is otherwise allowed.
	var cer Ceremony
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/passkeys/begin", cookie: b})
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/passkeys/finish", cookie: b, body: f.create(newKey(), cer)})
	if w := f.send(f.c, request{method: "DELETE", path: "/admin/api/passkeys/" + bMe.Passkeys[0].ID, cookie: a}); w.Code != http.StatusNotFound {
		t.Errorf("A removes B's passkey: %d, want 404", w.Code)
	}
	// A cannot finish B's ceremony.
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/passkeys/begin", cookie: b})
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/passkeys/finish", cookie: a, body: f.create(newKey(), cer)}); w.Code != http.StatusBadRequest {
		t.Errorf("A finishes B's ceremony: %d, want 400", w.Code)
	}
}

func TestAuditLogRecordsEveryChangeNewestFirst(t *testing.T) {
	f := newAuthFixture(t)
	// Entries of the same instant have no order: the clock moves between them.
	enrol := func(role, name string) (string, Me) {
		token := f.invite(role, name)
		f.clk.Advance(time.Second)
		cookie, me := f.enrol(f.c, newKey(), token)
		f.clk.Advance(time.Second)
		return cookie, me
	}
	admin, ad := enrol(RoleAdmin, "Ada")
	editor, ed := enrol(RoleEditor, "Sam")
	f.must(f.c, http.StatusNoContent, nil, request{method: "POST", path: "/admin/api/signout", cookie: editor, remote: "192.0.2.7:5555"})
	f.clk.Advance(time.Second)
	f.must(f.c, http.StatusOK, nil, request{method: "DELETE", path: "/admin/api/members/" + ed.Member.ID, cookie: admin})
	var log []AuditEntry
	f.must(f.c, http.StatusOK, &log, request{method: "GET", path: "/admin/api/audit", cookie: admin})
	var got []string
	for _, e := range log {
		got = append(got, e.Action+" "+e.Name)
	}
	want := []string{"revoke Ada", "sign-out Sam", "enrol Sam", "invite admin command", "enrol Ada", "invite admin command"}
	if !slices.Equal(got, want) {
		t.Errorf("audit log %q, want %q", got, want)
	}
	if log[0].MemberID != ad.Member.ID || log[0].Target != ed.Member.ID || !log[0].At.Equal(f.clk.Now()) {
		t.Errorf("revoke entry %+v", log[0])
	}
	if log[1].Addr != "192.0.2.7" {
		t.Errorf("sign-out entry's address %q, want 192.0.2.7", log[1].Addr)
	}
}

func TestAuditLogShowsTheLast500(t *testing.T) {
	f := newAuthFixture(t)
	_, admin, ad := f.member(RoleAdmin, "Ada")
	for i := range auditShown + 5 {
		f.clk.Advance(time.Millisecond)
		e := AuditEntry{At: f.clk.Now(), MemberID: ad.Member.ID, Action: "test", Target: string(rune('a' + i%26))}
		if err := f.db.Tx(t.Context(), func(tx docstore.Txn) error { return appendAudit(tx, e) }); err != nil {
			t.Fatal(err)
		}
	}
	var log []AuditEntry
	f.must(f.c, http.StatusOK, &log, request{method: "GET", path: "/admin/api/audit", cookie: admin})
	if len(log) != auditShown || !log[0].At.Equal(f.clk.Now()) {
		t.Fatalf("%d entries, the first at %v; want %d, the first at %v", len(log), log[0].At, auditShown, f.clk.Now())
	}
	for i := 1; i < len(log); i++ {
		if !log[i].At.Before(log[i-1].At) {
			t.Fatalf("entry %d at %v is not older than entry %d at %v", i, log[i].At, i-1, log[i-1].At)
		}
	}
}

func TestEveryRequestReadsTheMemberAgain(t *testing.T) {
	f := newAuthFixture(t)
	_, editor, ed := f.member(RoleEditor, "Sam")
	// Revoked by another instance whose deletion of the sessions has not
	// happened (yet, or ever): the member document alone locks them out.
	changeStored(t, f.db, ed.Member.ID, func(m *memberDoc) { m.Revoked = f.clk.Now() })
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/posts", cookie: editor}); w.Code != http.StatusUnauthorized {
		t.Errorf("revoked member with a stored session: %d, want 401", w.Code)
	}
	// A demotion takes effect at once too.
	_, admin, ad := f.member(RoleAdmin, "Ada")
	f.must(f.c, http.StatusOK, nil, request{method: "GET", path: "/admin/api/members", cookie: admin})
	changeStored(t, f.db, ad.Member.ID, func(m *memberDoc) { m.Role = RoleEditor })
	if w := f.send(f.c, request{method: "GET", path: "/admin/api/members", cookie: admin}); w.Code != http.StatusForbidden {
		t.Errorf("demoted admin: %d, want 403", w.Code)
	}
}

func TestAdminChangesARole(t *testing.T) {
	f := newAuthFixture(t)
	_, ada, ad := f.member(RoleAdmin, "Ada")
	_, bob, bo := f.member(RoleAdmin, "Bob")
	_, sam, sa := f.member(RoleEditor, "Sam")
	patch := func(cookie, id, role string) *httptest.ResponseRecorder {
		return f.send(f.c, request{method: "PATCH", path: "/admin/api/members/" + id, cookie: cookie, body: map[string]string{"role": role}})
	}
	var m Member
	w := patch(ada, sa.Member.ID, RoleAdmin)
	checkAnswer(t, w, http.StatusOK, &m, "PATCH", "/admin/api/members/{sam}")
	if m.ID != sa.Member.ID || m.Role != RoleAdmin {
		t.Errorf("promoted %+v", m)
	}
	f.must(f.c, http.StatusOK, nil, request{method: "GET", path: "/admin/api/members", cookie: sam})
	if log := f.auditActions(ada); !slices.Contains(log, "role "+sa.Member.ID+" admin") {
		t.Errorf("audit log %q lacks the role change", log)
	}
	// Ada demotes Bob; Bob, an editor now, can no longer change roles.
	checkAnswer(t, patch(ada, bo.Member.ID, RoleEditor), http.StatusOK, nil, "PATCH", "/admin/api/members/{bob}")
	if w := patch(bob, ad.Member.ID, RoleEditor); w.Code != http.StatusForbidden {
		t.Errorf("a demoted admin changes a role: %d %s, want 403", w.Code, w.Body)
	}
	const self = "You cannot change your own role; ask another admin (so the team always keeps an admin)"
	for _, tt := range []struct {
		name, cookie, id, role string
		status                 int
		msg                    string
	}{
		{"demote yourself", ada, ad.Member.ID, RoleEditor, http.StatusConflict, self},
		{"unknown role", ada, sa.Member.ID, "owner", http.StatusBadRequest, `Role "owner": want editor or admin`},
		{"nobody", ada, "0123456789abcdef0123456789abcdef", RoleEditor, http.StatusNotFound, "not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := patch(tt.cookie, tt.id, tt.role)
			if w.Code != tt.status || errorOf(t, w) != tt.msg {
				t.Errorf("%d %s, want %d %q", w.Code, w.Body, tt.status, tt.msg)
			}
		})
	}
	f.must(f.c, http.StatusOK, nil, request{method: "DELETE", path: "/admin/api/members/" + bo.Member.ID, cookie: ada})
	if w := patch(ada, bo.Member.ID, RoleAdmin); w.Code != http.StatusConflict {
		t.Errorf("promoting a revoked member: %d %s, want 409", w.Code, w.Body)
	}
}

// suspendedOf returns the ids of the suspended passkeys of member id, as
// the admin of cookie sees them in the members list.
func (f *authFixture) suspendedOf(cookie, id string) []string {
	f.t.Helper()
	var members []struct {
		ID                string
		SuspendedPasskeys []struct{ ID string }
	}
	f.must(f.c, http.StatusOK, &members, request{method: "GET", path: "/admin/api/members", cookie: cookie})
	var out []string
	for _, m := range members {
		if m.ID == id {
			for _, p := range m.SuspendedPasskeys {
				out = append(out, p.ID)
			}
		}
	}
	return out
}

// The refusals of a passkey whose sign counter went backwards.
const (
	cloned    = "This passkey's counter went backwards, as a copied passkey's would: it is suspended until an admin clears it. Use another passkey, and tell an admin"
	suspended = "This passkey is suspended: its counter went backwards, as a copied passkey's would. Use another passkey, and ask an admin to check it and clear it"
)

func TestCloneWarningSuspendsThePasskeyUntilAnAdminClearsIt(t *testing.T) {
	f := newAuthFixture(t)
	_, ada, _ := f.member(RoleAdmin, "Ada")
	phone, enrolled, sa := f.member(RoleEditor, "Sam")
	tablet, _ := f.addPasskey(enrolled, "tablet")
	id := sa.Passkeys[0].ID
	opened := f.signedIn(phone) // the phone's counter is 1 in the store

	// A copy of the phone's passkey, its counter behind: refused, and the
	// passkey is suspended, with the sessions it opened.
	phone.Credentials()[0].SignCount = 0
	w := f.signIn(f.c, phone, "")
	if w.Code != http.StatusUnauthorized || errorOf(t, w) != cloned {
		t.Fatalf("cloned passkey: %d %s, want 401 %q", w.Code, w.Body, cloned)
	}
	if log := f.auditActions(ada); !slices.Contains(log, "passkey-suspend "+id) {
		t.Errorf("audit log %q lacks passkey-suspend %s", log, id)
	}
	for _, cookie := range []string{enrolled, opened} {
		if f.alive(cookie) {
			t.Error("a session opened by the suspended passkey lives on")
		}
	}
	if got := f.suspendedOf(ada, sa.Member.ID); !slices.Equal(got, []string{id}) {
		t.Errorf("admins see suspended %v, want [%s]", got, id)
	}

	// The real phone, its counter ahead, is refused too, until an admin clears it.
	phone.Credentials()[0].SignCount = 7
	w = f.signIn(f.c, phone, "")
	if w.Code != http.StatusForbidden || errorOf(t, w) != suspended {
		t.Fatalf("suspended passkey signs in: %d %s, want 403 %q", w.Code, w.Body, suspended)
	}
	// Nor does it verify a session of the member.
	other := f.signedIn(tablet)
	var cer Ceremony
	f.must(f.c, http.StatusOK, &cer, request{method: "POST", path: "/admin/api/verify/begin", cookie: other})
	w = f.send(f.c, request{method: "POST", path: "/admin/api/verify/finish", cookie: other, body: f.assertAnyway(phone, cer)})
	if w.Code != http.StatusForbidden || errorOf(t, w) != suspended {
		t.Errorf("suspended passkey verifies: %d %s, want 403 %q", w.Code, w.Body, suspended)
	}
	// Only an admin clears it.
	unsuspend := request{method: "DELETE", path: "/admin/api/members/" + sa.Member.ID + "/suspended/" + id}
	unsuspend.cookie = other
	if w := f.send(f.c, unsuspend); w.Code != http.StatusForbidden {
		t.Errorf("the member clears their own suspension: %d, want 403", w.Code)
	}
	unsuspend.cookie = ada
	f.must(f.c, http.StatusOK, nil, unsuspend)
	if log := f.auditActions(ada); !slices.Contains(log, "passkey-clear "+id) {
		t.Errorf("audit log %q lacks passkey-clear %s", log, id)
	}
	if got := f.suspendedOf(ada, sa.Member.ID); len(got) != 0 {
		t.Errorf("still suspended: %v", got)
	}
	f.signedIn(phone)
}

func TestMemberRemovesASuspendedPasskey(t *testing.T) {
	f := newAuthFixture(t)
	phone, enrolled, sa := f.member(RoleEditor, "Sam")
	tablet, _ := f.addPasskey(enrolled, "tablet")
	f.signedIn(phone)
	phone.Credentials()[0].SignCount = 0
	if w := f.signIn(f.c, phone, ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("cloned passkey: %d %s", w.Code, w.Body)
	}
	var me Me
	f.must(f.c, http.StatusOK, &me, request{method: "DELETE", path: "/admin/api/passkeys/" + sa.Passkeys[0].ID, cookie: f.signedIn(tablet)})
	if len(me.Passkeys) != 1 || me.Passkeys[0].Name != "tablet" {
		t.Errorf("after removing the suspended passkey: %+v", me.Passkeys)
	}
}
