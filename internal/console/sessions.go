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

// newTokenID returns a new token signed with key and its store id
// (verifyToken): a document stored under that id is found by the token,
// which the store never holds.
func newTokenID(key []byte) (token, id string) {
	token = newToken(key)
	id, _ = verifyToken(key, token)
	return token, id
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

// newSession is a session about to start, made by prepareSession, stored
// by its sign-in's transaction (addTo) and then given to the browser
// (giveSession).
type newSession struct {
	id, token string
	doc       sessionDoc
}

// prepareSession makes a session of memberID opened by passkeyID,
// verified now, for a sign-in's transaction to store.
func (c *Console) prepareSession(r *http.Request, memberID, passkeyID string) (newSession, error) {
	key, err := c.key(r.Context(), keyTokens)
	if err != nil {
		return newSession{}, err
	}
	now := c.opts.Clock.Now()
	s := newSession{doc: sessionDoc{MemberID: memberID, Created: now, LastSeen: now, Expires: now.Add(SessionMax), PasskeyID: passkeyID, Verified: now}}
	s.token, s.id = newTokenID(key)
	return s, nil
}

// addTo lists s in m, the member it signs in as its transaction tx read
// it (or makes it), and stages the session's document; the caller stages
// m. Expired sessions leave m's list, and the oldest make room beyond
// maxSessions; their documents are deleted in tx too (a few at most).
func (s newSession) addTo(tx docstore.Txn, m *memberDoc) error {
	now := s.doc.Created
	dropped := m.dropSessions(func(ref sessionRef) bool { return !now.Before(ref.Expires) })
	if over := len(m.Sessions) + 1 - maxSessions; over > 0 {
		// The oldest sessions make room: a member's document stays small.
		for _, ref := range m.Sessions[:over] {
			dropped = append(dropped, ref.ID)
		}
		m.Sessions = slices.Delete(m.Sessions, 0, over)
	}
	m.Sessions = append(m.Sessions, sessionRef{ID: s.id, PasskeyID: s.doc.PasskeyID, Expires: s.doc.Expires})
	if err := stage(tx.Create, collSessions, s.id, s.doc); err != nil {
		return err
	}
	return stageDeletes(tx, collSessions, dropped)
}

// giveSession gives the browser the session s, once its sign-in's
// transaction stored it, and deletes the session of any cookie r carries:
// a session id is never reused across a sign-in, so one planted before it
// is worthless. (That deletion is not the sign-in's change, and the
// cookie set now replaces the old one anyway: it is made after the
// transaction, and a failure only logged.)
func (c *Console) giveSession(w http.ResponseWriter, r *http.Request, s newSession) {
	if cookie, err := r.Cookie(SessionCookie); err == nil {
		if old, ok, _ := c.tokenID(r.Context(), cookie.Value); ok {
			c.deleteSession(r.Context(), old)
		}
	}
	setSessionCookie(w, s.token, int(SessionMax/time.Second))
}

// verifiedIn stages, in tx, that member m proved with a passkey, at now,
// to be at their session id, and returns the session so changed. A
// session signed out or ended meanwhile (gone, or no longer listed in m)
// is refused with errSignIn.
func verifiedIn(tx docstore.Txn, m memberDoc, id string, now time.Time) (sessionDoc, error) {
	if !m.listsSession(id) {
		return sessionDoc{}, errSignIn
	}
	data, err := tx.Get(collSessions, id)
	if errors.Is(err, docstore.ErrNotFound) {
		return sessionDoc{}, errSignIn
	}
	if err != nil {
		return sessionDoc{}, fmt.Errorf("console: read session: %w", err)
	}
	var doc sessionDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return sessionDoc{}, fmt.Errorf("console: session: %w", err)
	}
	doc.Verified, doc.LastSeen = now, now
	return doc, stage(tx.Put, collSessions, id, doc)
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
