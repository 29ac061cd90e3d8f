//go:build emulator

package console

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
)

// emulator is the real Firestore emulator shared by the tests of this
// package, started on first use and stopped by TestMain.
var emulator firestoretest.Emulator

func TestMain(m *testing.M) { firestoretest.Main(m, &emulator) }

// firestoreConsole is a console on its own connection to project, as one
// serve instance of several would be.
func firestoreConsole(t *testing.T, project string, clk clock.Clock) (*Console, docstore.DB) {
	t.Helper()
	db, err := docstore.OpenFirestore(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return newTestConsole(t, Options{DB: db, Clock: clk}), db
}

// twoInstances returns a fixture whose console is instance one of a fresh
// project of the emulator, and instance two with its own connection to the
// same project, on the same clock.
func twoInstances(t *testing.T) (f *authFixture, two *Console, twoDB docstore.DB) {
	t.Helper()
	t.Setenv("FIRESTORE_EMULATOR_HOST", emulator.Start(t))
	project := firestoretest.FreshProject(t)
	clk := clock.NewFake(authStart)
	one, oneDB := firestoreConsole(t, project, clk)
	two, twoDB = firestoreConsole(t, project, clk)
	return &authFixture{t: t, c: one, db: oneDB, clk: clk}, two, twoDB
}

func TestEmulatorTwoInstancesShareMembersAndSessions(t *testing.T) {
	f, two, twoDB := twoInstances(t)
	one := f.c

	// The first admin's invitation, from the command line on instance one.
	adminKey := passkeytest.New(devOrigin)
	admin, _ := f.enrol(two, adminKey, f.invite(RoleAdmin, "Ada"))

	// The admin invites from instance one; the editor enrols on two.
	var inv Invitation
	f.must(one, http.StatusOK, &inv, request{method: "POST", path: "/admin/api/invitations", cookie: admin, body: invitationRequest{Role: RoleEditor, Name: "Sam"}})
	token := inv.Link[len(devOrigin+"/admin/enrol#"):]
	editorKey := passkeytest.New(devOrigin)
	cer := f.beginEnrol(two, token)
	var ed Me
	f.must(two, http.StatusOK, &ed, request{method: "POST", path: "/admin/api/enrol/finish", body: f.create(editorKey, cer)})
	// The link is spent for every instance.
	if w := f.send(one, request{method: "POST", path: "/admin/api/enrol/begin", body: enrolBegin{Token: token}}); w.Code != http.StatusGone {
		t.Errorf("spent link on the other instance: %d, want 410", w.Code)
	}

	// Sign in begun on one, finished on two; the session works on both.
	finish := f.assert(editorKey, f.beginSignIn(one))
	w := f.must(two, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
	editor := sessionCookieOf(t, w)
	for _, c := range []*Console{one, two} {
		f.must(c, http.StatusOK, nil, request{method: "GET", path: "/admin/api/me", cookie: editor})
	}

	// Revoked on one: two refuses the editor's very next request.
	f.must(one, http.StatusOK, nil, request{method: "DELETE", path: "/admin/api/members/" + ed.Member.ID, cookie: admin})
	if w := f.send(two, request{method: "GET", path: "/admin/api/me", cookie: editor}); w.Code != http.StatusUnauthorized {
		t.Errorf("revoked on one, request on two: %d, want 401", w.Code)
	}
	if two.SignedIn(httpRequestWithCookie(editor)) {
		t.Error("two still counts the revoked editor signed in")
	}
	if w := f.signIn(two, editorKey, ""); w.Code != http.StatusForbidden {
		t.Errorf("revoked editor signs in on two: %d, want 403", w.Code)
	}
	sessions, err := twoDB.List(context.Background(), collSessions)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 1 {
		t.Errorf("%d sessions stored, want only the admin's", len(sessions))
	}
}

func TestEmulatorOneLinkRacedOnTwoInstancesEnrolsOnce(t *testing.T) {
	f, two, _ := twoInstances(t)
	one := f.c
	token := f.invite(RoleEditor, "")
	consoles := []*Console{one, two, one, two}
	finishes := make([]ceremonyFinish, len(consoles))
	for i, c := range consoles {
		finishes[i] = f.create(passkeytest.New(devOrigin), f.beginEnrol(c, token))
	}
	codes := make([]int, len(consoles))
	var wg sync.WaitGroup
	for i, c := range consoles {
		rq := request{method: "POST", path: "/admin/api/enrol/finish", body: finishes[i], remote: "203.0.113.9:1"}
		wg.Go(func() { codes[i] = f.send(c, rq).Code })
	}
	wg.Wait()
	slices.Sort(codes)
	if want := []int{http.StatusOK, http.StatusGone, http.StatusGone, http.StatusGone}; !slices.Equal(codes, want) {
		t.Errorf("finishes answered %v, want %v", codes, want)
	}
	if n := len(f.docs(collMembers)); n != 1 {
		t.Errorf("%d members, want 1", n)
	}
}
