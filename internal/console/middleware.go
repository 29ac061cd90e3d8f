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

// errVerify refuses what needs a fresh verification (FreshVerification);
// its answer carries CodeVerify, on which the console page asks for the
// passkey and sends the request again.
var errVerify = &apiError{http.StatusForbidden, "Confirm it is you: this needs your passkey again"}

// A handler of the API returns its failure rather than answering it: the
// route around it answers every failure in one place (fail, or failPost
// for the content routes), so each failure is one return.
type (
	memberHandler  func(w http.ResponseWriter, r *http.Request, m Member) error
	sessionHandler func(w http.ResponseWriter, r *http.Request, s session) error
)

// requireRole answers 401 without a valid session, 403 when the member's
// role is below role, and else calls h with the signed-in member; fail
// answers h's failure.
func (c *Console) requireRole(role string, h memberHandler) http.HandlerFunc {
	return c.withSession(role, func(w http.ResponseWriter, r *http.Request, s session) error {
		return h(w, r, s.member.Member)
	})
}

// requireVerified is requireRole for what also needs a fresh
// verification (errVerify without one).
func (c *Console) requireVerified(role string, h memberHandler) http.HandlerFunc {
	return c.withVerified(role, func(w http.ResponseWriter, r *http.Request, s session) error {
		return h(w, r, s.member.Member)
	})
}

// withVerified is withSession for what also needs a fresh verification.
func (c *Console) withVerified(role string, h sessionHandler) http.HandlerFunc {
	return c.withSession(role, func(w http.ResponseWriter, r *http.Request, s session) error {
		if !s.doc.fresh(c.opts.Clock.Now()) {
			return errVerify
		}
		return h(w, r, s)
	})
}

// withSession is requireRole for the handlers that need the session too.
func (c *Console) withSession(role string, h sessionHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, err := c.authorize(w, r, role)
		if err == nil {
			err = h(w, r, s)
		}
		if err != nil {
			c.fail(w, err)
		}
	}
}

// authorize returns r's session if its member's role is role or above, and
// else the refusal: errSignIn without a valid session, 403 below role.
func (c *Console) authorize(w http.ResponseWriter, r *http.Request, role string) (session, error) {
	s, err := c.authenticate(r)
	if errors.Is(err, errNoSession) {
		if _, cerr := r.Cookie(SessionCookie); cerr == nil {
			setSessionCookie(w, "", -1) // a dead cookie: let the browser forget it
		}
		return session{}, errSignIn
	}
	if err != nil {
		return session{}, err
	}
	if roleRank(s.member.Role) < roleRank(role) {
		c.auditRefusal(r, s.member.Member, "refused", r.Method+" "+r.URL.Path)
		return session{}, &apiError{http.StatusForbidden, "This needs the " + role + " role"}
	}
	return s, nil
}

// fail answers err: a refusal with its status and sentence, a missing
// document 404, anything else 500 (logged; the answer says no more).
func (c *Console) fail(w http.ResponseWriter, err error) {
	if errors.Is(err, errVerify) {
		writeJSON(w, errVerify.status, Refusal{Error: errVerify.msg, Code: CodeVerify})
		return
	}
	if ae, ok := refusal(err); ok {
		writeError(w, ae.status, ae.msg)
		return
	}
	if errors.Is(err, docstore.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	c.opts.Logger.Error("console", "err", err)
	writeError(w, http.StatusInternalServerError, "The console's store failed; try again in a moment")
}

// unavailable logs msg with args and returns the refusal (503) that tells
// the person answer: a store failed, and trying again later may do.
func (c *Console) unavailable(answer, msg string, args ...any) error {
	c.opts.Logger.Error(msg, args...)
	return &apiError{http.StatusServiceUnavailable, answer}
}
