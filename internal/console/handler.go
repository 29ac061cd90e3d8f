package console

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/photo"
)

// New returns the console of opts, or an error when a required option is
// missing or SiteURL is not an absolute http(s) URL.
func New(opts Options) (*Console, error) {
	if opts.DB == nil {
		return nil, errors.New("console: Options.DB is required")
	}
	if opts.News == nil {
		return nil, errors.New("console: Options.News is required")
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	c := &Console{opts: opts, limiter: newRateLimiter(), photos: photo.NewLimiter()}
	if opts.SiteURL != "" {
		u, err := url.Parse(opts.SiteURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("console: SiteURL %q: want an absolute http or https URL", opts.SiteURL)
		}
		c.site = u
	}
	mux := http.NewServeMux()
	for _, rt := range append(c.authRoutes(), c.contentRoutes()...) {
		mux.HandleFunc(rt.pattern, rt.handler)
	}
	// Anything else under the API is 404, and only for a member: without a
	// session every path answers 401, so none is revealed.
	mux.HandleFunc("/admin/api/", c.requireRole(RoleEditor, func(http.ResponseWriter, *http.Request, Member) error {
		return &apiError{http.StatusNotFound, "no such API"}
	}))
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Before any session is read: the refusal names no member.
		c.auditRefusal(r, Member{}, "cross-origin refused", r.Method+" "+r.URL.Path)
		writeError(w, http.StatusForbidden, "cross-origin request refused")
	}))
	c.handler = cop.Handler(mux)
	return c, nil
}

// authRoutes are the routes of accounts and sessions: enrolment and
// sign-in (public, rate-limited per client), the member's own session and
// passkeys, and the admin's members, invitations and audit log.
func (c *Console) authRoutes() []route {
	return []route{
		{"POST /admin/api/enrol/begin", c.limited(c.serveEnrolBegin)},
		{"POST /admin/api/enrol/finish", c.limited(c.serveEnrolFinish)},
		{"POST /admin/api/signin/begin", c.limited(c.serveSignInBegin)},
		{"POST /admin/api/signin/finish", c.limited(c.serveSignInFinish)},
		{"GET /admin/api/me", c.withSession(RoleEditor, c.serveMe)},
		{"POST /admin/api/signout", c.withSession(RoleEditor, c.serveSignOut)},
		{"POST /admin/api/signout/everywhere", c.withSession(RoleEditor, c.serveSignOutEverywhere)},
		{"POST /admin/api/verify/begin", c.withSession(RoleEditor, c.serveVerifyBegin)},
		{"POST /admin/api/verify/finish", c.withSession(RoleEditor, c.serveVerifyFinish)},
		// What could let a thief in or keep one in needs a fresh verification.
		{"POST /admin/api/passkeys/begin", c.withVerified(RoleEditor, c.servePasskeyBegin)},
		{"POST /admin/api/passkeys/finish", c.withVerified(RoleEditor, c.servePasskeyFinish)},
		{"DELETE /admin/api/passkeys/{id}", c.withSession(RoleEditor, c.serveRemovePasskey)},
		{"GET /admin/api/members", c.requireRole(RoleAdmin, c.serveMembers)},
		{"PATCH /admin/api/members/{id}", c.requireVerified(RoleAdmin, withBody(c.serveChangeRole))},
		{"DELETE /admin/api/members/{id}", c.requireVerified(RoleAdmin, c.serveRevoke)},
		{"DELETE /admin/api/members/{id}/suspended/{passkey}", c.requireVerified(RoleAdmin, c.serveClearSuspension)},
		{"GET /admin/api/invitations", c.requireRole(RoleAdmin, c.serveInvitations)},
		{"POST /admin/api/invitations", c.requireVerified(RoleAdmin, withBody(c.serveInvite))},
		{"DELETE /admin/api/invitations/{id}", c.requireRole(RoleAdmin, c.serveUninvite)},
		{"GET /admin/api/audit", c.requireRole(RoleAdmin, c.serveAudit)},
	}
}

// ServeHTTP answers the console's API under /admin/api/. Every request of
// an unsafe method from another origin is refused (403) before any route.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.handler.ServeHTTP(w, r)
}

// SignedIn reports whether r carries a valid session: known, unexpired,
// and of a member who is not revoked. The server gates the console's pages
// and files with it.
func (c *Console) SignedIn(r *http.Request) bool {
	_, err := c.authenticate(r)
	if err != nil && !errors.Is(err, errNoSession) {
		c.opts.Logger.Error("console: check session", "err", err)
	}
	return err == nil
}
