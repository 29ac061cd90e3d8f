package console

import (
	"encoding/base64"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// tampered returns the sealed ceremony id with one bit of its sealed bytes
// at i (from the end when negative) changed.
func tampered(t *testing.T, id string, i int) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil {
		t.Fatal(err)
	}
	if i < 0 {
		i += len(b)
	}
	b[i] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

func TestSealedCeremonyIsRefusedWhenNotAsSealed(t *testing.T) {
	f := newAuthFixture(t)
	key, _, _ := f.member(RoleEditor, "")
	elsewhere := newAuthFixture(t) // another store, with keys of its own
	tests := []struct {
		name   string
		finish func() ceremonyFinish
		path   string
	}{
		{"nonce changed", func() ceremonyFinish {
			fin := f.assert(key, f.beginSignIn(f.c))
			fin.Ceremony = tampered(t, fin.Ceremony, 0)
			return fin
		}, "/admin/api/signin/finish"},
		{"sealed data changed", func() ceremonyFinish {
			fin := f.assert(key, f.beginSignIn(f.c))
			fin.Ceremony = tampered(t, fin.Ceremony, 20)
			return fin
		}, "/admin/api/signin/finish"},
		{"tag changed", func() ceremonyFinish {
			fin := f.assert(key, f.beginSignIn(f.c))
			fin.Ceremony = tampered(t, fin.Ceremony, -1)
			return fin
		}, "/admin/api/signin/finish"},
		{"cut short", func() ceremonyFinish {
			fin := f.assert(key, f.beginSignIn(f.c))
			fin.Ceremony = fin.Ceremony[:10]
			return fin
		}, "/admin/api/signin/finish"},
		{"not base64", func() ceremonyFinish {
			fin := f.assert(key, f.beginSignIn(f.c))
			fin.Ceremony = "!" + fin.Ceremony
			return fin
		}, "/admin/api/signin/finish"},
		{"too long", func() ceremonyFinish {
			fin := f.assert(key, f.beginSignIn(f.c))
			fin.Ceremony = strings.Repeat("A", maxSealedCeremony+1)
			return fin
		}, "/admin/api/signin/finish"},
		{"another kind", func() ceremonyFinish {
			return f.create(newKey(), f.beginSignIn(f.c))
		}, "/admin/api/enrol/finish"},
		{"sealed for another store", func() ceremonyFinish {
			return f.assert(key, elsewhere.beginSignIn(elsewhere.c))
		}, "/admin/api/signin/finish"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(f.docs(collSessions))
			w := f.send(f.c, request{method: "POST", path: tt.path, body: tt.finish()})
			if w.Code != http.StatusBadRequest || errorOf(t, w) != errCeremonyGone.msg {
				t.Errorf("finish: %d %s, want 400 %q", w.Code, w.Body, errCeremonyGone.msg)
			}
			if n := len(f.docs(collSessions)); n != before {
				t.Errorf("%d sessions after a refused finish, want %d", n, before)
			}
		})
	}
}

func TestReplayedCeremonyIsRefusedOnEveryInstance(t *testing.T) {
	f := newAuthFixture(t)
	other := f.console(Options{})
	key, _, _ := f.member(RoleEditor, "")
	finish := f.assert(key, f.beginSignIn(f.c))
	f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
	for name, c := range map[string]*Console{"same instance": f.c, "another instance": other} {
		w := f.send(c, request{method: "POST", path: "/admin/api/signin/finish", body: finish})
		if w.Code != http.StatusBadRequest || errorOf(t, w) != errCeremonyGone.msg {
			t.Errorf("replayed on the %s: %d %s, want 400 %q", name, w.Code, w.Body, errCeremonyGone.msg)
		}
	}
}

// TestTwoTabsSignInAtOnce begins two sign-ins before finishing either, as
// two tabs of one browser do: each has its own sealed ceremony.
func TestTwoTabsSignInAtOnce(t *testing.T) {
	f := newAuthFixture(t)
	key, _, _ := f.member(RoleEditor, "")
	first, second := f.beginSignIn(f.c), f.beginSignIn(f.c)
	for _, cer := range []Ceremony{second, first} {
		f.must(f.c, http.StatusOK, nil, request{method: "POST", path: "/admin/api/signin/finish", body: f.assert(key, cer)})
	}
}

// TestInstancesShareOneKey starts consoles on one new store at once: they
// all make or read the same key, so a ceremony any of them seals opens on
// every other.
func TestInstancesShareOneKey(t *testing.T) {
	db := openTestDB(t, filepath.Join(t.TempDir(), "db"))
	clk := clock.NewFake(authStart)
	consoles := make([]*Console, 8)
	for i := range consoles {
		consoles[i] = newTestConsole(t, Options{DB: db, Clock: clk})
	}
	ceremonies := make([]Ceremony, len(consoles))
	errs := make([]error, len(consoles))
	var wg sync.WaitGroup
	for i, c := range consoles {
		wg.Go(func() {
			ceremonies[i], errs[i] = c.startCeremony(t.Context(), ceremonyDoc{Kind: kindSignIn}, struct{}{})
		})
	}
	wg.Wait()
	for i, cer := range ceremonies {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		opener := consoles[(i+1)%len(consoles)]
		if _, err := opener.openCeremony(t.Context(), cer.ID, kindSignIn); err != nil {
			t.Errorf("ceremony %d sealed on one instance, opened on another: %v", i, err)
		}
	}
	clk.Advance(CeremonyTTL)
	if _, err := consoles[0].openCeremony(t.Context(), ceremonies[0].ID, kindSignIn); err != errCeremonyGone {
		t.Errorf("ceremony after CeremonyTTL: %v, want errCeremonyGone", err)
	}
}

func TestRefusalLimit(t *testing.T) {
	minute := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		client      string
		at          time.Duration
		wantOK      bool
		wantDropped int
	}{
		{"first of a", "a", 0, true, 0},
		{"second of a", "a", time.Second, true, 0},
		{"third of a", "a", 2 * time.Second, true, 0},
		{"fourth of a: over the client's limit", "a", 3 * time.Second, false, 0},
		{"fifth of a", "a", 4 * time.Second, false, 0},
		{"b, with a's two left out before it", "b", 5 * time.Second, true, 2},
		{"c", "c", 6 * time.Second, true, 0},
		{"d", "d", 7 * time.Second, true, 0},
		{"e", "e", 8 * time.Second, true, 0},
		{"f", "f", 9 * time.Second, true, 0},
		{"g", "g", 10 * time.Second, true, 0},
		{"h", "h", 11 * time.Second, true, 0},
		{"i", "i", 12 * time.Second, true, 0},
		{"j: the minute's twelfth", "j", 13 * time.Second, true, 0},
		{"k: over the minute's limit", "k", 14 * time.Second, false, 0},
		{"a in the next minute, with k's left out", "a", time.Minute, true, 1},
	}
	var l refusalLimit
	for _, tt := range tests {
		dropped, ok := l.take(tt.client, minute.Add(tt.at))
		if ok != tt.wantOK || dropped != tt.wantDropped {
			t.Errorf("%s: take = %d, %v; want %d, %v", tt.name, dropped, ok, tt.wantDropped, tt.wantOK)
		}
	}
}

func TestRefusalsAreAudited(t *testing.T) {
	f := newAuthFixture(t)
	_, editor, editorMe := f.member(RoleEditor, "Eve")
	_, admin, _ := f.member(RoleAdmin, "Ada")
	revokedKey, _, revoked := f.member(RoleEditor, "Rex")
	if _, err := Revoke(t.Context(), f.db, f.clk.Now(), revoked.Member.ID); err != nil {
		t.Fatal(err)
	}
	// An editor asks for an admin's page 5 times from one address.
	for range 5 {
		f.send(f.c, request{method: "GET", path: "/admin/api/members", cookie: editor, remote: "198.51.100.7:1"})
	}
	// A revoked member tries to sign in 15 times, from many addresses.
	for range 15 {
		w := f.signIn(f.c, revokedKey, "")
		if w.Code != http.StatusForbidden {
			t.Fatalf("sign-in of a revoked member: %d %s, want 403", w.Code, w.Body)
		}
	}
	f.clk.Advance(time.Minute)
	f.send(f.c, request{method: "GET", path: "/admin/api/members", cookie: editor, remote: "198.51.100.7:1"})
	// Another site's page makes a browser post to the console (CSRF).
	crossSite := http.Header{"Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://evil.example"}}
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/signout/everywhere", cookie: editor, header: crossSite}); w.Code != http.StatusForbidden {
		t.Fatalf("cross-origin POST: %d %s, want 403", w.Code, w.Body)
	}
	// Its path is the attacker's to choose: the entry keeps 200 bytes of it.
	if w := f.send(f.c, request{method: "POST", path: "/admin/api/" + strings.Repeat("a", 5000), header: crossSite}); w.Code != http.StatusForbidden {
		t.Fatalf("cross-origin POST: %d %s, want 403", w.Code, w.Body)
	}
	var log []AuditEntry
	f.must(f.c, http.StatusOK, &log, request{method: "GET", path: "/admin/api/audit", cookie: admin})
	counts := map[string]int{}
	for _, e := range log {
		counts[e.Action+" "+e.Target]++
		if e.Action == "refused" && e.MemberID != editorMe.Member.ID {
			t.Errorf("refusal %+v: want the editor's id", e)
		}
	}
	// 3 of the editor's (2 left out), 9 sign-ins (the minute's 12), the
	// first counting the editor's left out, 6 left out; then the next
	// minute's counts those.
	want := map[string]int{
		"refused GET /admin/api/members":                                         3,
		"sign-in refused (and 2 more refusals not recorded)":                     1,
		"sign-in refused ":                                                       8,
		"refused GET /admin/api/members (and 6 more refusals not recorded)":      1,
		"cross-origin refused POST /admin/api/signout/everywhere":                1,
		"cross-origin refused POST /admin/api/" + strings.Repeat("a", 184) + "…": 1,
	}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%d entries %q, want %d (log %v)", counts[k], k, n, counts)
		}
	}
	if _, err := VerifyAudit(t.Context(), f.db); err != nil {
		t.Errorf("VerifyAudit: %v", err)
	}
}
