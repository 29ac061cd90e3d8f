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
//
// Sessions lists the member's sessions: a session signs in only while it
// is listed, so one atomic write of this document ends sessions on every
// instance (sign out everywhere, a removed or suspended passkey, a
// revocation) without a look through every session of the team. The list
// is bounded by maxSessions. Member.SuspendedPasskeys is here too, read on
// every sign-in and in the members list of the admins.
type memberDoc struct {
	Member
	PasskeyIDs []string     `json:"passkeyIds"`
	Sessions   []sessionRef `json:"sessions,omitempty"`
}

// listsSession reports whether the session id is one of the member's.
func (m memberDoc) listsSession(id string) bool {
	return slices.ContainsFunc(m.Sessions, func(ref sessionRef) bool { return ref.ID == id })
}

// dropSessions takes the sessions that match out of m's list and returns
// their ids, to delete once m is stored.
func (m *memberDoc) dropSessions(match func(sessionRef) bool) []string {
	var ids []string
	m.Sessions = slices.DeleteFunc(m.Sessions, func(ref sessionRef) bool {
		if match(ref) {
			ids = append(ids, ref.ID)
			return true
		}
		return false
	})
	return ids
}

// suspended reports whether the passkey id of m is suspended.
func (m memberDoc) suspended(id string) bool {
	return slices.ContainsFunc(m.SuspendedPasskeys, func(p Passkey) bool { return p.ID == id })
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

// maxSessions bounds the sessions of one member (phones, tablets,
// computers): a new sign-in beyond it ends the oldest.
const maxSessions = 20

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
	errRoleSelf     = &apiError{http.StatusConflict, "You cannot change your own role; ask another admin (so the team always keeps an admin)"}
	errRoleRevoked  = &apiError{http.StatusConflict, "This member was revoked; invite them again instead"}
	errNoSuspension = &apiError{http.StatusNotFound, "This member has no such suspended passkey"}
	errSuspended    = &apiError{http.StatusForbidden, "This passkey is suspended: its counter went backwards, as a copied passkey's would. Use another passkey, and ask an admin to check it and clear it"}
	errAllSuspended = &apiError{http.StatusForbidden, "Every passkey of yours is suspended; ask an admin to check one and clear it"}
)

// checkRole returns an error unless role is one a member may have.
func checkRole(role string) error {
	if role != RoleEditor && role != RoleAdmin {
		return fmt.Errorf("role %q: want %s or %s", role, RoleEditor, RoleAdmin)
	}
	return nil
}

// getMember reads a member from db; the error wraps docstore.ErrNotFound
// when there is none.
func getMember(ctx context.Context, db docstore.DB, id string) (memberDoc, error) {
	return readMember(storeGet(ctx, db), id)
}

// readMember reads a member with get; the error wraps
// docstore.ErrNotFound when there is none.
func readMember(get getFunc, id string) (memberDoc, error) {
	if !isHexID(id, memberIDBytes) {
		return memberDoc{}, fmt.Errorf("console: member %q: %w", id, docstore.ErrNotFound)
	}
	data, err := get(collMembers, id)
	if err != nil {
		return memberDoc{}, fmt.Errorf("console: read member %q: %w", id, err)
	}
	var m memberDoc
	if err := json.Unmarshal(data, &m); err != nil {
		return memberDoc{}, fmt.Errorf("console: member %q: %w", id, err)
	}
	m.Passkeys = len(m.PasskeyIDs)
	return m, nil
}

// changeMember reads the member id in tx, changes it with fn and stages
// it: fn sees the member as stored, and its error aborts the transaction.
// The transaction may run fn again: it sets what it tells its caller.
func changeMember(tx docstore.Txn, id string, fn func(m *memberDoc) error) (memberDoc, error) {
	m, err := readMember(tx.Get, id)
	if err != nil {
		return memberDoc{}, err
	}
	if err := fn(&m); err != nil {
		return memberDoc{}, err
	}
	m.Passkeys = len(m.PasskeyIDs)
	return m, stage(tx.Put, collMembers, id, m)
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
	me := Me{Member: m.Member, Passkeys: make([]Passkey, len(keys)), Expires: s.Expires, SessionPasskey: s.PasskeyID}
	for i, k := range keys {
		me.Passkeys[i] = k.Passkey
		if j := slices.IndexFunc(m.SuspendedPasskeys, func(p Passkey) bool { return p.ID == k.ID }); j >= 0 {
			me.Passkeys[i].Suspended = m.SuspendedPasskeys[j].Suspended
		}
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
	err := c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error {
		if _, err := changeMember(tx, s.member.ID, func(m *memberDoc) error {
			m.dropSessions(func(ref sessionRef) bool { return ref.ID == s.id })
			return nil
		}); err != nil {
			return err
		}
		if err := tx.Delete(collSessions, s.id); err != nil {
			return err
		}
		return c.auditIn(tx, r, s.member.Member, "sign-out", "")
	})
	if err != nil {
		return fmt.Errorf("console: sign out: %w", err)
	}
	signedOut(w)
	return nil
}

// signedOut answers a request that ended its own session: the cookie is
// deleted, and nothing else is said.
func signedOut(w http.ResponseWriter) {
	setSessionCookie(w, "", -1)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// serveSignOutEverywhere ends every session of the member, this one too:
// the remedy for a phone left signed in somewhere.
func (c *Console) serveSignOutEverywhere(w http.ResponseWriter, r *http.Request, s session) error {
	err := c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error {
		var ended []string
		if _, err := changeMember(tx, s.member.ID, func(m *memberDoc) error {
			ended = m.dropSessions(func(sessionRef) bool { return true })
			return nil
		}); err != nil {
			return err
		}
		if !slices.Contains(ended, s.id) {
			ended = append(ended, s.id)
		}
		// At most maxSessions and this one: a small transaction.
		if err := stageDeletes(tx, collSessions, ended); err != nil {
			return err
		}
		return c.auditIn(tx, r, s.member.Member, "sign-out-everywhere", fmt.Sprintf("%d sessions", len(ended)))
	})
	if err != nil {
		return fmt.Errorf("console: sign out everywhere: %w", err)
	}
	signedOut(w)
	return nil
}

// serveRemovePasskey removes one of the member's own passkeys, never the
// last, suspended or not, and ends the sessions it opened (this one too, if
// it did: the answer then also deletes the cookie).
func (c *Console) serveRemovePasskey(w http.ResponseWriter, r *http.Request, s session) error {
	id := r.PathValue("id")
	var m memberDoc
	var ended []string
	err := c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error {
		var err error
		m, err = changeMember(tx, s.member.ID, func(m *memberDoc) error {
			i := slices.Index(m.PasskeyIDs, id)
			switch {
			case i < 0:
				return errNoPasskey
			case len(m.PasskeyIDs) == 1:
				return errLastPasskey
			}
			m.PasskeyIDs = slices.Delete(m.PasskeyIDs, i, i+1)
			m.SuspendedPasskeys = slices.DeleteFunc(m.SuspendedPasskeys, func(p Passkey) bool { return p.ID == id })
			ended = m.dropSessions(func(ref sessionRef) bool { return ref.PasskeyID == id })
			return nil
		})
		if err != nil {
			return err
		}
		if err := tx.Delete(collPasskeys, id); err != nil {
			return err
		}
		if err := stageDeletes(tx, collSessions, ended); err != nil {
			return err
		}
		return c.auditIn(tx, r, m.Member, "passkey-remove", id)
	})
	if err != nil {
		return err
	}
	if slices.Contains(ended, s.id) {
		setSessionCookie(w, "", -1)
	}
	return c.answerMe(w, r, m, s.doc)
}

// suspend suspends the passkey key of member m after a clone warning, and
// ends the sessions it opened: one of its two copies is not the member's,
// and nothing tells which. It is logged, and written to the audit log with
// the suspension (a passkey suspended meanwhile, or removed, is left so,
// with no entry).
func (c *Console) suspend(r *http.Request, m memberDoc, key Passkey) error {
	now := c.opts.Clock.Now()
	err := c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error {
		cur, err := readMember(tx.Get, m.ID)
		if err != nil {
			return err
		}
		if !slices.Contains(cur.PasskeyIDs, key.ID) || cur.suspended(key.ID) {
			return nil
		}
		key.Suspended = now
		cur.SuspendedPasskeys = append(cur.SuspendedPasskeys, key)
		ended := cur.dropSessions(func(ref sessionRef) bool { return ref.PasskeyID == key.ID })
		if err := stage(tx.Put, collMembers, cur.ID, cur); err != nil {
			return err
		}
		if err := stageDeletes(tx, collSessions, ended); err != nil {
			return err
		}
		return c.auditIn(tx, r, m.Member, "passkey-suspend", key.ID)
	})
	if err != nil {
		return fmt.Errorf("console: suspend passkey %s: %w", key.ID, err)
	}
	c.opts.Logger.Warn("console: a passkey's sign counter went backwards (a copied passkey?); suspended it",
		"member", m.ID, "passkey", key.ID, "addr", c.opts.Proxies.Peer(r))
	return nil
}

// serveClearSuspension clears the suspension of a member's passkey: an
// admin who checked with the member that both copies are theirs.
func (c *Console) serveClearSuspension(w http.ResponseWriter, r *http.Request, admin Member) error {
	key := r.PathValue("passkey")
	var m memberDoc
	err := c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error {
		var err error
		m, err = changeMember(tx, r.PathValue("id"), func(m *memberDoc) error {
			if !m.suspended(key) {
				return errNoSuspension
			}
			m.SuspendedPasskeys = slices.DeleteFunc(m.SuspendedPasskeys, func(p Passkey) bool { return p.ID == key })
			return nil
		})
		if err != nil {
			return err
		}
		return c.auditIn(tx, r, admin, "passkey-clear", key)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, m.Member)
	return nil
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
// done by the admin command: the member can no longer sign in, every
// session of theirs ends at once, and the invitations they made no longer
// enrol anyone. Revoking a revoked member changes nothing. The error wraps
// docstore.ErrNotFound when there is no such member.
func Revoke(ctx context.Context, db docstore.DB, now time.Time, id string) (Member, error) {
	m, err := revoke(ctx, db, now, id, cliAudit(now))
	return m.Member, err
}

// revoke revokes the member id and ends their sessions, with audit's
// entry, in one transaction; then deletes their invitations.
func revoke(ctx context.Context, db docstore.DB, now time.Time, id string, audit auditor) (memberDoc, error) {
	var m memberDoc
	err := db.Tx(ctx, func(tx docstore.Txn) error {
		var ended []string
		var err error
		m, err = changeMember(tx, id, func(m *memberDoc) error {
			if m.Revoked.IsZero() {
				m.Revoked = now
			}
			ended = m.dropSessions(func(sessionRef) bool { return true })
			return nil
		})
		if err != nil {
			return err
		}
		// At most maxSessions: a small transaction.
		if err := stageDeletes(tx, collSessions, ended); err != nil {
			return err
		}
		return audit(tx, "revoke", id)
	})
	if err != nil {
		return memberDoc{}, err
	}
	return m, deleteInvitationsBy(ctx, db, id)
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
	m, err := revoke(r.Context(), c.opts.DB, c.opts.Clock.Now(), id, c.auditAs(r, admin))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, m.Member)
	return nil
}

// serveChangeRole answers PATCH /admin/api/members/{id} {"role"}: another
// member's new role. No admin changes their own, so the team always keeps
// one. A demoted admin's open invitations are deleted (and would no longer
// enrol anyone anyway).
func (c *Console) serveChangeRole(w http.ResponseWriter, r *http.Request, admin Member, body RoleChange) error {
	id := r.PathValue("id")
	if err := checkRole(body.Role); err != nil {
		return &apiError{http.StatusBadRequest, sentence(err.Error())}
	}
	if id == admin.ID {
		return errRoleSelf
	}
	ctx := r.Context()
	var was string
	var m memberDoc
	err := c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		var err error
		m, err = changeMember(tx, id, func(m *memberDoc) error {
			if !m.Revoked.IsZero() {
				return errRoleRevoked
			}
			was, m.Role = m.Role, body.Role
			return nil
		})
		if err != nil {
			return err
		}
		return c.auditIn(tx, r, admin, "role", id+" "+body.Role)
	})
	if err != nil {
		return err
	}
	if was == RoleAdmin && body.Role != RoleAdmin {
		if err := deleteInvitationsBy(ctx, c.opts.DB, id); err != nil {
			c.opts.Logger.Warn("console: delete the invitations of a demoted admin", "member", id, "err", err)
		}
	}
	writeJSON(w, http.StatusOK, m.Member)
	return nil
}
