package console

import (
	"net/http"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/notice"
)

// adminRoutes are every route only an admin may use.
var adminRoutes = []request{
	{method: "GET", path: "/admin/api/members"},
	{method: "POST", path: "/admin/api/invitations", body: invitationRequest{Role: RoleEditor}},
	{method: "DELETE", path: "/admin/api/members/0123456789abcdef0123456789abcdef"},
	{method: "GET", path: "/admin/api/audit"},
}

// memberRoutes are every route that needs a session, of any role.
var memberRoutes = []request{
	{method: "GET", path: "/admin/api/me"},
	{method: "POST", path: "/admin/api/signout"},
	{method: "POST", path: "/admin/api/passkeys/begin"},
	{method: "POST", path: "/admin/api/passkeys/finish", body: ceremonyFinish{}},
	{method: "DELETE", path: "/admin/api/passkeys/x"},
	{method: "GET", path: "/admin/api/posts?q=x"},
	{method: "POST", path: "/admin/api/posts", body: PostFields{Title: "t"}},
	{method: "GET", path: "/admin/api/posts/x"},
	{method: "PUT", path: "/admin/api/posts/x", body: Save{}},
	{method: "GET", path: "/admin/api/posts/x/revisions"},
	{method: "GET", path: "/admin/api/posts/x/revisions/1"},
	{method: "POST", path: "/admin/api/posts/x/revisions/1/restore", body: Save{}},
	{method: "POST", path: "/admin/api/posts/x/publish", body: Save{}},
	{method: "POST", path: "/admin/api/posts/x/unpublish", body: Save{}},
	{method: "POST", path: "/admin/api/preview", body: map[string]string{"content": "x"}},
	{method: "POST", path: "/admin/api/photos"},
	{method: "GET", path: "/admin/api/notice"},
	{method: "PUT", path: "/admin/api/notice", body: notice.Notice{}},
	{method: "DELETE", path: "/admin/api/notice"},
	{method: "GET", path: "/admin/api/no-such-route"},
	{method: "POST", path: "/admin/api/no/such/route"},
}

func TestEveryRouteButTheSignInOnesNeedsASession(t *testing.T) {
	f := newAuthFixture(t)
	// A session that was valid once and one never issued.
	_, stale, _ := f.member(RoleAdmin, "")
	f.must(f.c, http.StatusNoContent, nil, request{method: "POST", path: "/admin/api/signout", cookie: stale})
	for _, cookie := range []string{"", stale, newToken(randomBytes(keyBytes)), "not a token"} {
		for _, rq := range append(append([]request(nil), memberRoutes...), adminRoutes...) {
			rq.cookie = cookie
			w := f.send(f.c, rq)
			if w.Code != http.StatusUnauthorized || errorOf(t, w) != "sign in" {
				t.Errorf("%s %s with cookie %q: %d %s, want 401 sign in", rq.method, rq.path, cookie, w.Code, w.Body)
			}
		}
	}
	if n := len(f.docs(collInvitations)); n != 0 {
		t.Errorf("%d invitations made without a session", n)
	}
}

func TestEditorIsRefusedOnEveryAdminRoute(t *testing.T) {
	f := newAuthFixture(t)
	_, editor, _ := f.member(RoleEditor, "")
	_, admin, _ := f.member(RoleAdmin, "")
	for _, rq := range adminRoutes {
		rq.cookie = editor
		if w := f.send(f.c, rq); w.Code != http.StatusForbidden {
			t.Errorf("editor %s %s: %d %s, want 403", rq.method, rq.path, w.Code, w.Body)
		}
		rq.cookie = admin
		if w := f.send(f.c, rq); w.Code == http.StatusForbidden || w.Code == http.StatusUnauthorized {
			t.Errorf("admin %s %s: %d %s", rq.method, rq.path, w.Code, w.Body)
		}
	}
	if n := len(f.docs(collInvitations)); n != 1 {
		t.Errorf("%d invitations, want only the admin's", n)
	}
	// An editor reaches the content routes.
	f.must(f.c, http.StatusOK, nil, request{method: "GET", path: "/admin/api/posts", cookie: editor})
}

func TestCrossOriginStateChangesAreRefused(t *testing.T) {
	f := newAuthFixture(t)
	_, admin, _ := f.member(RoleAdmin, "")
	tests := []struct {
		name   string
		header http.Header
		status int
	}{
		{"cross-site fetch", http.Header{"Sec-Fetch-Site": {"cross-site"}}, http.StatusForbidden},
		{"same-site fetch of another origin", http.Header{"Sec-Fetch-Site": {"same-site"}}, http.StatusForbidden},
		{"other Origin, no Sec-Fetch-Site", http.Header{"Origin": {"https://evil.example"}}, http.StatusForbidden},
		{"same origin", http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {devOrigin}}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, rq := range []request{
				{method: "POST", path: "/admin/api/invitations", body: invitationRequest{Role: RoleAdmin}, cookie: admin},
				{method: "POST", path: "/admin/api/signin/begin"},
			} {
				rq.header = tt.header
				w := f.send(f.c, rq)
				if w.Code != tt.status {
					t.Errorf("%s: %d %s, want %d", rq.path, w.Code, w.Body, tt.status)
				}
				if tt.status == http.StatusForbidden && !strings.Contains(errorOf(t, w), "cross-origin") {
					t.Errorf("%s: %q, want the cross-origin refusal", rq.path, errorOf(t, w))
				}
			}
		})
	}
	// Reads stay allowed (they change nothing).
	f.must(f.c, http.StatusOK, nil, request{method: "GET", path: "/admin/api/me", cookie: admin, header: http.Header{"Sec-Fetch-Site": {"cross-site"}}})
	if n := len(f.docs(collInvitations)); n != 1 {
		t.Errorf("%d invitations, want only the same-origin one", n)
	}
}

func TestNewChecksItsOptions(t *testing.T) {
	f := newAuthFixture(t)
	ns := f.c.opts.News
	for _, opts := range []Options{
		{News: ns},
		{DB: f.db},
		{DB: f.db, News: ns, SiteURL: "robohornets.org"},
		{DB: f.db, News: ns, SiteURL: "ftp://robohornets.org"},
	} {
		if _, err := New(opts); err == nil {
			t.Errorf("New(%+v) succeeded", opts)
		}
	}
}
