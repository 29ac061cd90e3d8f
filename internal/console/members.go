package console

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/robohornets/robohornets/internal/docstore"
)

// memberDoc is a member in collMembers, by Member.ID. PasskeyIDs lists the
// member's passkeys: adding and removing one updates this document, so
// "never remove the last passkey" holds under concurrent requests.
type memberDoc struct {
	Member
	PasskeyIDs []string `json:"passkeyIds"`
}

// passkeyDoc is a passkey in collPasskeys, by Passkey.ID (passkeyID of its
// credential id), with the WebAuthn credential: public key, sign counter
// and flags.
type passkeyDoc struct {
	Passkey
	MemberID   string              `json:"memberId"`
	Credential webauthn.Credential `json:"credential"`
}

// Member ids are memberIDBytes random bytes in hex; the id is also the
// WebAuthn user handle.
const memberIDBytes = 16

// maxPasskeys bounds the passkeys of one member.
const maxPasskeys = 10

// passkeyID is the store id of a credential: the first 16 bytes of the
// SHA-256 of its id, in hex (credential ids may be long and binary).
func passkeyID(credentialID []byte) string {
	return hashHex(credentialID)[:32]
}

var (
	errLastPasskey  = &apiError{http.StatusConflict, "This is your only passkey: add another before removing it"}
	errTooMany      = &apiError{http.StatusConflict, fmt.Sprintf("You already have %d passkeys: remove one first", maxPasskeys)}
	errNoPasskey    = &apiError{http.StatusNotFound, "You have no such passkey"}
	errRevokeSelf   = &apiError{http.StatusConflict, "You cannot revoke yourself; ask another admin"}
	errMemberGone   = &apiError{http.StatusForbidden, "This member was revoked; ask an admin for a new invitation"}
	errPasskeyTaken = &apiError{http.StatusConflict, "This passkey is already registered"}
)

// getMember reads a member; the error wraps docstore.ErrNotFound when
// there is none.
func getMember(ctx context.Context, db docstore.DB, id string) (memberDoc, error) {
	if !isHexID(id, memberIDBytes) {
		return memberDoc{}, fmt.Errorf("console: member %q: %w", id, docstore.ErrNotFound)
	}
	var m memberDoc
	if err := readDoc(ctx, db, collMembers, id, fmt.Sprintf("member %q", id), &m); err != nil {
		return memberDoc{}, err
	}
	m.Passkeys = len(m.PasskeyIDs)
	return m, nil
}

// updateMember changes a member atomically with fn; fn sees the member as
// stored and its error aborts the change.
func updateMember(ctx context.Context, db docstore.DB, id string, fn func(m *memberDoc) error) (memberDoc, error) {
	if !isHexID(id, memberIDBytes) {
		return memberDoc{}, fmt.Errorf("console: no member %q: %w", id, docstore.ErrNotFound)
	}
	var m memberDoc
	err := db.Update(ctx, collMembers, id, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, fmt.Errorf("console: no member %q: %w", id, docstore.ErrNotFound)
		}
		m = memberDoc{}
		if err := json.Unmarshal(cur, &m); err != nil {
			return nil, fmt.Errorf("console: member %q: %w", id, err)
		}
		if err := fn(&m); err != nil {
			return nil, err
		}
		m.Passkeys = len(m.PasskeyIDs)
		return json.Marshal(m)
	})
	return m, err
}

// passkeys reads a member's passkeys, in the order they were added.
func (c *Console) passkeys(ctx context.Context, m memberDoc) ([]passkeyDoc, error) {
	out := make([]passkeyDoc, 0, len(m.PasskeyIDs))
	for _, id := range m.PasskeyIDs {
		var p passkeyDoc
		err := readDoc(ctx, c.opts.DB, collPasskeys, id, "passkey "+id, &p)
		if errors.Is(err, docstore.ErrNotFound) {
			continue // being removed
		}
		if err != nil {
			return nil, err
		}
		if p.MemberID == m.ID {
			out = append(out, p)
		}
	}
	return out, nil
}

// waUser is a member as go-webauthn sees it.
type waUser struct {
	m     memberDoc
	creds []webauthn.Credential
}

func (u waUser) WebAuthnID() []byte { return []byte(u.m.ID) }

func (u waUser) WebAuthnName() string {
	if u.m.Name != "" {
		return u.m.Name
	}
	return rpName + " " + u.m.Role
}

func (u waUser) WebAuthnDisplayName() string                { return u.WebAuthnName() }
func (u waUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// webauthnUser returns m with its credentials.
func (c *Console) webauthnUser(ctx context.Context, m memberDoc) (waUser, error) {
	keys, err := c.passkeys(ctx, m)
	if err != nil {
		return waUser{}, err
	}
	u := waUser{m: m}
	for _, k := range keys {
		u.creds = append(u.creds, k.Credential)
	}
	return u, nil
}

// descriptors are the credentials of u, for excludeCredentials.
func (u waUser) descriptors() []protocol.CredentialDescriptor {
	out := make([]protocol.CredentialDescriptor, len(u.creds))
	for i := range u.creds {
		out[i] = u.creds[i].Descriptor()
	}
	return out
}

// me is the answer of GET /admin/api/me for a session.
func (c *Console) me(ctx context.Context, m memberDoc, s sessionDoc) (Me, error) {
	keys, err := c.passkeys(ctx, m)
	if err != nil {
		return Me{}, err
	}
	me := Me{Member: m.Member, Passkeys: make([]Passkey, len(keys)), Expires: s.Expires}
	for i, k := range keys {
		me.Passkeys[i] = k.Passkey
	}
	return me, nil
}

// answerMe answers Me of m in the session s.
func (c *Console) answerMe(w http.ResponseWriter, r *http.Request, m memberDoc, s sessionDoc) error {
	me, err := c.me(r.Context(), m, s)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, me)
	return nil
}

func (c *Console) serveMe(w http.ResponseWriter, r *http.Request, s session) error {
	return c.answerMe(w, r, s.member, s.doc)
}

func (c *Console) serveSignOut(w http.ResponseWriter, r *http.Request, s session) error {
	if err := c.opts.DB.Delete(r.Context(), collSessions, s.id); err != nil {
		return fmt.Errorf("console: sign out: %w", err)
	}
	setSessionCookie(w, "", -1)
	c.audit(r.Context(), r, s.member.Member, "sign-out", "")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// serveRemovePasskey removes one of the member's own passkeys, never the last.
func (c *Console) serveRemovePasskey(w http.ResponseWriter, r *http.Request, s session) error {
	ctx := r.Context()
	id := r.PathValue("id")
	m, err := updateMember(ctx, c.opts.DB, s.member.ID, func(m *memberDoc) error {
		i := slices.Index(m.PasskeyIDs, id)
		switch {
		case i < 0:
			return errNoPasskey
		case len(m.PasskeyIDs) == 1:
			return errLastPasskey
		}
		m.PasskeyIDs = slices.Delete(m.PasskeyIDs, i, i+1)
		return nil
	})
	if err != nil {
		return err
	}
	if err := c.opts.DB.Delete(ctx, collPasskeys, id); err != nil {
		// The member no longer lists it, so it signs no one in.
		c.opts.Logger.Error("console: delete passkey", "id", id, "err", err)
	}
	c.audit(ctx, r, m.Member, "passkey-remove", id)
	return c.answerMe(w, r, m, s.doc)
}

// Members returns every member of the console in db, oldest first.
func Members(ctx context.Context, db docstore.DB) ([]Member, error) {
	docs, err := db.List(ctx, collMembers)
	if err != nil {
		return nil, fmt.Errorf("console: list members: %w", err)
	}
	out := make([]Member, 0, len(docs))
	for _, d := range docs {
		var m memberDoc
		if err := json.Unmarshal(d.JSON, &m); err != nil {
			return nil, fmt.Errorf("console: member %s: %w", d.ID, err)
		}
		m.Passkeys = len(m.PasskeyIDs)
		out = append(out, m.Member)
	}
	slices.SortFunc(out, func(a, b Member) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Revoke revokes the member id in db at now, written to the audit log as
// done by the admin command: the member can no longer sign in, and every
// session of theirs ends at once. Revoking a revoked member changes nothing.
// The error wraps docstore.ErrNotFound when there is no such member.
func Revoke(ctx context.Context, db docstore.DB, now time.Time, id string) (Member, error) {
	m, err := revoke(ctx, db, now, id)
	if err != nil {
		return Member{}, err
	}
	err = writeAudit(ctx, db, AuditEntry{At: now, Name: cliActor, Action: "revoke", Target: id, Addr: cliAddr})
	return m.Member, err
}

func revoke(ctx context.Context, db docstore.DB, now time.Time, id string) (memberDoc, error) {
	m, err := updateMember(ctx, db, id, func(m *memberDoc) error {
		if m.Revoked.IsZero() {
			m.Revoked = now
		}
		return nil
	})
	if err != nil {
		return memberDoc{}, err
	}
	// Every request reads the member again, so the sessions are refused
	// already; deleting them keeps the store clean.
	return m, endSessions(ctx, db, id)
}

func (c *Console) serveMembers(w http.ResponseWriter, r *http.Request, _ Member) error {
	members, err := Members(r.Context(), c.opts.DB)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, members)
	return nil
}

func (c *Console) serveRevoke(w http.ResponseWriter, r *http.Request, admin Member) error {
	id := r.PathValue("id")
	if id == admin.ID {
		return errRevokeSelf
	}
	m, err := revoke(r.Context(), c.opts.DB, c.opts.Clock.Now(), id)
	if err != nil {
		return err
	}
	c.audit(r.Context(), r, admin, "revoke", id)
	writeJSON(w, http.StatusOK, m.Member)
	return nil
}
