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
// new token (verifyToken), and returns the token: the store never holds it.
func createWithToken(ctx context.Context, db docstore.DB, coll string, v any) (string, error) {
	key, err := storeKey(ctx, db, keyTokens)
	if err != nil {
		return "", err
	}
	token := newToken(key)
	id, _ := verifyToken(key, token)
	return token, writeDoc(ctx, db.Create, coll, id, v)
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
	if !s.member.Revoked.IsZero() {
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

// startSession signs memberID in: it deletes the session of any cookie r
// carries (a session id is never reused across a sign-in, so one planted
// before it is worthless) and sets the cookie of a new one.
func (c *Console) startSession(w http.ResponseWriter, r *http.Request, memberID string) (sessionDoc, error) {
	ctx := r.Context()
	if cookie, err := r.Cookie(SessionCookie); err == nil {
		if old, ok, _ := c.tokenID(ctx, cookie.Value); ok {
			c.deleteSession(ctx, old)
		}
	}
	now := c.opts.Clock.Now()
	doc := sessionDoc{MemberID: memberID, Created: now, LastSeen: now, Expires: now.Add(SessionMax)}
	token, err := createWithToken(ctx, c.opts.DB, collSessions, doc)
	if err != nil {
		return sessionDoc{}, fmt.Errorf("console: store session: %w", err)
	}
	setSessionCookie(w, token, int(SessionMax/time.Second))
	return doc, nil
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

// endSessions deletes every session of memberID in db.
func endSessions(ctx context.Context, db docstore.DB, memberID string) error {
	docs, err := db.List(ctx, collSessions)
	if err != nil {
		return fmt.Errorf("console: list sessions: %w", err)
	}
	for _, d := range docs {
		var s sessionDoc
		if json.Unmarshal(d.JSON, &s) != nil || s.MemberID != memberID {
			continue
		}
		if err := db.Delete(ctx, collSessions, d.ID); err != nil {
			return fmt.Errorf("console: end session: %w", err)
		}
	}
	return nil
}
