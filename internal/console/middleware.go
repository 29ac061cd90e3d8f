package console

import (
	"errors"
	"net/http"

	"github.com/robohornets/robohornets/internal/docstore"
)

// roleRank orders the roles: a member may do what their role's rank or a
// lower one allows. An unknown role may do nothing.
func roleRank(role string) int {
	switch role {
	case RoleEditor:
		return 1
	case RoleAdmin:
		return 2
	}
	return 0
}

// errSignIn is the answer to a request without a valid session.
var errSignIn = &apiError{http.StatusUnauthorized, "sign in"}

// requireRole answers 401 without a valid session, 403 when the member's
// role is below role, and else calls h with the signed-in member.
func (c *Console) requireRole(role string, h func(w http.ResponseWriter, r *http.Request, m Member)) http.HandlerFunc {
	return c.withSession(role, func(w http.ResponseWriter, r *http.Request, s session) {
		h(w, r, s.member.Member)
	})
}

// withSession is requireRole for the handlers that need the session too.
func (c *Console) withSession(role string, h func(w http.ResponseWriter, r *http.Request, s session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, err := c.authenticate(r)
		if errors.Is(err, errNoSession) {
			if _, cerr := r.Cookie(SessionCookie); cerr == nil {
				setSessionCookie(w, "", -1) // a dead cookie: let the browser forget it
			}
			c.fail(w, errSignIn)
			return
		}
		if err != nil {
			c.fail(w, err)
			return
		}
		if roleRank(s.member.Role) < roleRank(role) {
			writeError(w, http.StatusForbidden, "This needs the "+role+" role")
			return
		}
		h(w, r, s)
	}
}

// fail answers err: an *apiError with its status and sentence, a missing
// document 404, anything else 500 (logged; the answer says no more).
func (c *Console) fail(w http.ResponseWriter, err error) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		writeError(w, ae.status, ae.msg)
	case errors.Is(err, docstore.ErrNotFound):
		writeError(w, http.StatusNotFound, "not found")
	default:
		c.opts.Logger.Error("console", "err", err)
		writeError(w, http.StatusInternalServerError, "The console's store failed; try again in a moment")
	}
}
