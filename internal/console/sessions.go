package console

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
)

// sessionDoc is a session in collSessions. Its id is the SHA-256 (hex) of
// the cookie's token: the store never holds a token that would sign in.
type sessionDoc struct {
	MemberID string    `json:"memberId"`
	Created  time.Time `json:"created"`
	LastSeen time.Time `json:"lastSeen"`
	// Expires is the absolute end: Created + SessionMax.
	Expires time.Time `json:"expires"`
	// PasskeyID is the passkey that opened the session (by sign-in or
	// enrolment): removing or suspending it ends the session.
	PasskeyID string `json:"passkeyId"`
	// Verified is when the member last proved with a passkey, user
	// verified, to be at this session: its sign-in, or a later verify
	// ceremony. What matters needs it within FreshVerification.
	Verified time.Time `json:"verified"`
}

// fresh reports whether the session's last verification is recent enough
// at now for what needs one (fresh verification).
func (s sessionDoc) fresh(now time.Time) bool {
	return !s.Verified.IsZero() && now.Sub(s.Verified) < FreshVerification
}

// sessionRef is a session as its member's document lists it: a session
// the member's document does not list signs no one in, so one write of
// that document ends any of them at once, on every instance.
type sessionRef struct {
	ID        string    `json:"id"`
	PasskeyID string    `json:"passkeyId"`
	Expires   time.Time `json:"expires"`
}

// valid reports whether the session may still be used at now: before its
// absolute end and used within SessionIdle.
func (s sessionDoc) valid(now time.Time) bool {
	return now.Before(s.Expires) && now.Before(s.LastSeen.Add(SessionIdle))
}

// lastSeenEvery is how stale a session's LastSeen may get: at most one
// write a minute per session, not one per request.
const lastSeenEvery = time.Minute

// A session or invitation token is tokenBytes random bytes and the first
// tokenMACBytes of their HMAC-SHA256 under the store's key keyTokens, in
// base64url: a token no console made is refused without a store read.
const (
	tokenBytes    = 32
	tokenMACBytes = 16
)

// tokenMACLabel keeps the MAC of a token apart from any other use of the key.
const tokenMACLabel = "robohornets token v1\x00"

// tokenMAC is the MAC of a token's random bytes under key.
func tokenMAC(key, random []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(tokenMACLabel))
	m.Write(random)
	return m.Sum(nil)[:tokenMACBytes]
}

// newToken returns a fresh token signed with key.
func newToken(key []byte) string {
	b := randomBytes(tokenBytes)
	return base64.RawURLEncoding.EncodeToString(append(b, tokenMAC(key, b)...))
}

// verifyToken returns the store id of a token signed with key: the hex
// SHA-256 of its bytes; false when key did not sign it.
func verifyToken(key []byte, token string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != tokenBytes+tokenMACBytes || !hmac.Equal(b[tokenBytes:], tokenMAC(key, b[:tokenBytes])) {
		return "", false
	}
	return hashHex(b), true
}

// tokenID returns the store id of a token (verifyToken), false when no
// console of this store made it. Only the instance's first call reads the
// store (its key).
func (c *Console) tokenID(ctx context.Context, token string) (string, bool, error) {
	key, err := c.key(ctx, keyTokens)
	if err != nil {
		return "", false, err
	}
	id, ok := verifyToken(key, token)
	return id, ok, nil
}

// createWithToken stores v as a new document of coll whose id is that of a
// new token (verifyToken), and returns the token and that id: the store
// never holds the token.
func createWithToken(ctx context.Context, db docstore.DB, coll string, v any) (token, id string, err error) {
	key, err := storeKey(ctx, db, keyTokens)
	if err != nil {
		return "", "", err
	}
	token = newToken(key)
	id, _ = verifyToken(key, token)
	return token, id, writeDoc(ctx, db.Create, coll, id, v)
}

// session is a signed-in request: its member, re-read from the store, and
// its session.
type session struct {
	id     string
	doc    sessionDoc
	member memberDoc
}

// errNoSession means a request has no valid session.
var errNoSession = errors.New("no valid session")

// authenticate returns r's session, or an error wrapping errNoSession when
// its cookie is missing, unknown, expired, or its member is revoked.
// The member is read again on every request, so a revocation on any
// instance locks its member out of the next request.
func (c *Console) authenticate(r *http.Request) (session, error) {
	cookie, err := r.Cookie(SessionCookie)
	if err != nil {
		return session{}, errNoSession
	}
	ctx := r.Context()
	id, ok, err := c.tokenID(ctx, cookie.Value)
	if err != nil {
		return session{}, err
	}
	if !ok {
		return session{}, errNoSession // forged: refused without a store read
	}
	s := session{id: id}
	err = readDoc(ctx, c.opts.DB, collSessions, id, "session", &s.doc)
	if errors.Is(err, docstore.ErrNotFound) {
		return session{}, errNoSession
	}
	if err != nil {
		return session{}, err
	}
	now := c.opts.Clock.Now()
	if !s.doc.valid(now) {
		c.deleteSession(ctx, id)
		return session{}, errNoSession
	}
	s.member, err = getMember(ctx, c.opts.DB, s.doc.MemberID)
	if errors.Is(err, docstore.ErrNotFound) {
		return session{}, errNoSession
	}
	if err != nil {
		return session{}, err
	}
	if !s.member.Revoked.IsZero() || !s.member.listsSession(id) {
		c.deleteSession(ctx, id)
		return session{}, errNoSession
	}
	if now.Sub(s.doc.LastSeen) >= lastSeenEvery {
		if err := c.touchSession(ctx, &s, now); err != nil {
			return session{}, err
		}
	}
	return s, nil
}

// touchSession moves the session's LastSeen to now, unless it was deleted
// (signed out or revoked) meanwhile.
func (c *Console) touchSession(ctx context.Context, s *session, now time.Time) error {
	err := c.opts.DB.Update(ctx, collSessions, s.id, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, errNoSession
		}
		var doc sessionDoc
		if err := json.Unmarshal(cur, &doc); err != nil {
			return nil, err
		}
		doc.LastSeen = now
		s.doc = doc
		return json.Marshal(doc)
	})
	if err != nil && !errors.Is(err, errNoSession) {
		return fmt.Errorf("console: session last seen: %w", err)
	}
	return err
}

// startSession signs memberID in with passkeyID, verified now: it
// deletes the session of any cookie r carries (a session id is never
// reused across a sign-in, so one planted before it is worthless), lists
// a new session in the member's document and sets its cookie. The member
// must not be revoked, and must still hold the passkey, unsuspended, when
// the session is listed: a passkey removed or suspended meanwhile opens
// nothing.
func (c *Console) startSession(w http.ResponseWriter, r *http.Request, memberID, passkeyID string) (sessionDoc, error) {
	ctx := r.Context()
	if cookie, err := r.Cookie(SessionCookie); err == nil {
		if old, ok, _ := c.tokenID(ctx, cookie.Value); ok {
			c.deleteSession(ctx, old)
		}
	}
	now := c.opts.Clock.Now()
	doc := sessionDoc{MemberID: memberID, Created: now, LastSeen: now, Expires: now.Add(SessionMax), PasskeyID: passkeyID, Verified: now}
	token, id, err := createWithToken(ctx, c.opts.DB, collSessions, doc)
	if err != nil {
		return sessionDoc{}, fmt.Errorf("console: store session: %w", err)
	}
	var dropped []string
	_, err = updateMember(ctx, c.opts.DB, memberID, func(m *memberDoc) error {
		switch {
		case !m.Revoked.IsZero():
			return errMemberGone
		case !slices.Contains(m.PasskeyIDs, passkeyID) || m.suspended(passkeyID):
			return errSignInRefused
		}
		dropped = m.dropSessions(func(ref sessionRef) bool { return !now.Before(ref.Expires) })
		if over := len(m.Sessions) + 1 - maxSessions; over > 0 {
			// The oldest sessions make room: a member's document stays small.
			for _, ref := range m.Sessions[:over] {
				dropped = append(dropped, ref.ID)
			}
			m.Sessions = slices.Delete(m.Sessions, 0, over)
		}
		m.Sessions = append(m.Sessions, sessionRef{ID: id, PasskeyID: passkeyID, Expires: doc.Expires})
		return nil
	})
	if err != nil {
		c.deleteSession(ctx, id)
		return sessionDoc{}, err
	}
	c.deleteSessions(ctx, dropped)
	setSessionCookie(w, token, int(SessionMax/time.Second))
	return doc, nil
}

// markVerified records that the member proved with a passkey, at now, to be
// at session s.
func (c *Console) markVerified(ctx context.Context, s *session, now time.Time) error {
	err := c.opts.DB.Update(ctx, collSessions, s.id, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, errSignIn // signed out meanwhile
		}
		var doc sessionDoc
		if err := json.Unmarshal(cur, &doc); err != nil {
			return nil, fmt.Errorf("console: session: %w", err)
		}
		doc.Verified, doc.LastSeen = now, now
		s.doc = doc
		return json.Marshal(doc)
	})
	if err != nil && !errors.Is(err, errSignIn) {
		return fmt.Errorf("console: record verification: %w", err)
	}
	return err
}

// setSessionCookie sets the session cookie: __Host- (Secure, Path=/, no
// Domain), HttpOnly so no script reads it, SameSite=Strict so no other
// site's page sends it. maxAge < 0 deletes it.
func setSessionCookie(w http.ResponseWriter, token string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name:     SessionCookie,
		Value:    token,
		Path:     "/",
		MaxAge:   maxAge,
		Secure:   true,
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
	})
}

// deleteSession removes a session; a failure is logged, and the session
// still ends at its expiry.
func (c *Console) deleteSession(ctx context.Context, id string) {
	if err := c.opts.DB.Delete(ctx, collSessions, id); err != nil {
		c.opts.Logger.Error("console: delete session", "err", err)
	}
}

// deleteSessions deletes the sessions ids from db: their member's
// document no longer lists them, so they sign no one in already, and this
// only keeps the store small. It tries every one and returns the first
// failure.
func deleteSessions(ctx context.Context, db docstore.DB, ids []string) error {
	var first error
	for _, id := range ids {
		if err := db.Delete(ctx, collSessions, id); err != nil && first == nil {
			first = fmt.Errorf("console: end session: %w", err)
		}
	}
	return first
}

// deleteSessions is deleteSessions on the console's store, a failure logged.
func (c *Console) deleteSessions(ctx context.Context, ids []string) {
	if err := deleteSessions(ctx, c.opts.DB, ids); err != nil {
		c.opts.Logger.Warn("console: delete ended sessions", "err", err)
	}
}
