package console

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
)

// invitationDoc is an invitation in collInvitations. Its id is the SHA-256
// (hex) of the link's token; the token itself is never stored.
type invitationDoc struct {
	Role    string    `json:"role"`
	Name    string    `json:"name"`
	Expires time.Time `json:"expires"`
	Created time.Time `json:"created"`
	// By names who invited: a member's id, or cliActor. A member's
	// invitation enrols no one once they are revoked or no longer an admin.
	By string `json:"by"`
	// ID is the invitation's public id (OpenInvitation.ID), to list and
	// cancel it by: random, unrelated to the token. The store's id, the
	// token's hash, is not shown, so that nothing shown ever depends on
	// how tokens are made.
	ID string `json:"id"`
}

// invitationIDBytes is the size of an invitation's public id: short enough
// to type after admin uninvite, and there are only ever a few open.
const invitationIDBytes = 6

// The actor of the admin command in the audit log.
const (
	cliActor = "admin command"
	cliAddr  = "command line"
)

// maxNameRunes bounds a member's or a passkey's name.
const maxNameRunes = 60

// ErrBadInvitation means an invitation's role or name is not acceptable.
var ErrBadInvitation = errors.New("bad invitation")

// ErrNoInvitation means no open invitation has the id given.
var ErrNoInvitation = errors.New("no open invitation")

// errInviterGone refuses an enrolment whose inviter may no longer invite.
var errInviterGone = &apiError{http.StatusGone, "The admin who made this invitation can no longer invite (revoked, or no longer an admin); ask an admin for a new link"}

// invitationRequest is the body of POST /admin/api/invitations.
type invitationRequest struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// cleanName trims a name and checks it is one short line of plain text
// (possibly empty); the error says what is wrong with what, like "the
// passkey's name".
func cleanName(name, what string) (string, error) {
	name = strings.TrimSpace(name)
	return name, lineError(name, maxNameRunes, what, "a name")
}

// Invite creates a one-time invitation for a member of role ("editor" or
// "admin") named name (may be empty), valid for InvitationTTL from now, and
// writes it to the audit log as done by the admin command. The link is
// siteURL + "/admin/enrol#" + token: the token travels in the fragment,
// which browsers never send to a server, and the store keeps only its hash.
// The error wraps ErrBadInvitation for a bad role or name.
func Invite(ctx context.Context, db docstore.DB, now time.Time, siteURL, role, name string) (Invitation, error) {
	key, err := storeKey(ctx, db, keyTokens)
	if err != nil {
		return Invitation{}, err
	}
	return invite(ctx, db, key, now, siteURL, role, name, cliActor, cliAudit(now))
}

// inviteTarget is the audit log's target of an invitation.
func inviteTarget(inv Invitation) string {
	if inv.Name == "" {
		return inv.Role
	}
	return inv.Role + " " + inv.Name
}

// invite stores an invitation made by by, whose token key signs, with
// audit's entry in one transaction.
func invite(ctx context.Context, db docstore.DB, key []byte, now time.Time, siteURL, role, name, by string, audit auditor) (Invitation, error) {
	if err := checkRole(role); err != nil {
		return Invitation{}, fmt.Errorf("%w: %w", ErrBadInvitation, err)
	}
	name, err := cleanName(name, "the name")
	if err != nil {
		return Invitation{}, fmt.Errorf("%w: %w", ErrBadInvitation, err)
	}
	doc := invitationDoc{Role: role, Name: name, Created: now, Expires: now.Add(InvitationTTL), By: by, ID: randomHex(invitationIDBytes)}
	token, id := newTokenID(key)
	inv := Invitation{
		ID:      doc.ID,
		Link:    strings.TrimRight(siteURL, "/") + "/admin/enrol#" + token,
		Role:    role,
		Name:    name,
		Expires: doc.Expires,
	}
	err = db.Tx(ctx, func(tx docstore.Txn) error {
		if err := stage(tx.Create, collInvitations, id, doc); err != nil {
			return err
		}
		return audit(tx, "invite", inviteTarget(inv))
	})
	if err != nil {
		return Invitation{}, fmt.Errorf("console: store invitation: %w", err)
	}
	return inv, nil
}

// readInvitation returns the store id of the invitation of token and the
// invitation, if it may still be used.
func (c *Console) readInvitation(ctx context.Context, token string) (string, invitationDoc, error) {
	id, ok, err := c.tokenID(ctx, token)
	if err != nil {
		return "", invitationDoc{}, err
	}
	if !ok {
		return "", invitationDoc{}, errInvitationGone
	}
	inv, err := openInvitation(storeGet(ctx, c.opts.DB), id, c.opts.Clock.Now())
	return id, inv, err
}

// openInvitation reads with get the invitation of store id id, and
// returns it if it may still be used at now; else errInvitationGone.
func openInvitation(get getFunc, id string, now time.Time) (invitationDoc, error) {
	data, err := get(collInvitations, id)
	if errors.Is(err, docstore.ErrNotFound) {
		return invitationDoc{}, errInvitationGone
	}
	if err != nil {
		return invitationDoc{}, fmt.Errorf("console: read invitation: %w", err)
	}
	var inv invitationDoc
	if err := json.Unmarshal(data, &inv); err != nil {
		return invitationDoc{}, fmt.Errorf("console: invitation: %w", err)
	}
	if !now.Before(inv.Expires) {
		return invitationDoc{}, errInvitationGone
	}
	return inv, nil
}

// checkInviter refuses (errInviterGone) an invitation whose inviter may no
// longer invite: a member revoked, demoted or gone, read with get. The
// admin command's invitations stand: whoever runs it holds the store.
func checkInviter(get getFunc, inv invitationDoc) error {
	if inv.By == cliActor {
		return nil
	}
	m, err := readMember(get, inv.By)
	switch {
	case errors.Is(err, docstore.ErrNotFound):
		return errInviterGone
	case err != nil:
		return err
	case !m.Revoked.IsZero() || m.Role != RoleAdmin:
		return errInviterGone
	}
	return nil
}

// refuseInvitation returns err, checkInviter's error for the invitation id;
// when it is errInviterGone, the invitation, useless now, is deleted.
func (c *Console) refuseInvitation(ctx context.Context, id string, err error) error {
	if errors.Is(err, errInviterGone) {
		if derr := c.opts.DB.Delete(ctx, collInvitations, id); derr != nil {
			c.opts.Logger.Warn("console: delete the invitation of an inviter who may no longer invite", "err", derr)
		}
	}
	return err
}

// siteBase is the origin invitation links of the console start with: the
// SiteURL, else the request's own origin.
func (c *Console) siteBase(r *http.Request) string {
	if c.site != nil {
		return c.site.Scheme + "://" + c.site.Host
	}
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

func (c *Console) serveInvite(w http.ResponseWriter, r *http.Request, admin Member, req invitationRequest) error {
	key, err := c.key(r.Context(), keyTokens)
	if err != nil {
		return err
	}
	inv, err := invite(r.Context(), c.opts.DB, key, c.opts.Clock.Now(), c.siteBase(r), req.Role, req.Name, admin.ID, c.auditAs(r, admin))
	if errors.Is(err, ErrBadInvitation) {
		return &apiError{http.StatusBadRequest, brokenRule(err, ErrBadInvitation)}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, inv)
	return nil
}

// openInvitations returns the invitations of db not expired at now, with
// their store ids, oldest first.
func openInvitations(ctx context.Context, db docstore.DB, now time.Time) ([]string, []invitationDoc, error) {
	docs, err := db.List(ctx, collInvitations)
	if err != nil {
		return nil, nil, fmt.Errorf("console: list invitations: %w", err)
	}
	var ids []string
	var invs []invitationDoc
	for _, d := range docs {
		var inv invitationDoc
		if err := json.Unmarshal(d.JSON, &inv); err != nil {
			return nil, nil, fmt.Errorf("console: invitation: %w", err)
		}
		if !now.Before(inv.Expires) {
			continue
		}
		if inv.ID == "" {
			// Made before invitations had a public id; it expires within
			// the hour. Its store id is the token's hash, which enrols no one.
			inv.ID = d.ID
		}
		ids, invs = append(ids, d.ID), append(invs, inv)
	}
	return ids, invs, nil
}

// Invitations returns the invitations of db that may still be used at
// now, oldest first.
func Invitations(ctx context.Context, db docstore.DB, now time.Time) ([]OpenInvitation, error) {
	_, invs, err := openInvitations(ctx, db, now)
	if err != nil {
		return nil, err
	}
	out := make([]OpenInvitation, len(invs))
	for i, inv := range invs {
		out[i] = inv.open()
	}
	slices.SortFunc(out, func(a, b OpenInvitation) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Uninvite cancels the open invitation id (OpenInvitation.ID) of db at
// now, written to the audit log as done by the admin command: its link no
// longer enrols anyone. The error wraps ErrNoInvitation when no open
// invitation has that id.
func Uninvite(ctx context.Context, db docstore.DB, now time.Time, id string) (OpenInvitation, error) {
	return uninvite(ctx, db, now, id, cliAudit(now))
}

// uninvite deletes the open invitation id, with audit's entry, in one
// transaction.
func uninvite(ctx context.Context, db docstore.DB, now time.Time, id string, audit auditor) (OpenInvitation, error) {
	ids, invs, err := openInvitations(ctx, db, now)
	if err != nil {
		return OpenInvitation{}, err
	}
	i := slices.IndexFunc(invs, func(inv invitationDoc) bool { return inv.ID == id })
	if i < 0 {
		return OpenInvitation{}, fmt.Errorf("console: invitation %q: %w", id, ErrNoInvitation)
	}
	// Deleted only if still there: an enrolment may have used it meanwhile.
	err = db.Tx(ctx, func(tx docstore.Txn) error {
		_, err := tx.Get(collInvitations, ids[i])
		if errors.Is(err, docstore.ErrNotFound) {
			return fmt.Errorf("console: invitation %q: %w", id, ErrNoInvitation)
		}
		if err != nil {
			return err
		}
		if err := tx.Delete(collInvitations, ids[i]); err != nil {
			return err
		}
		return audit(tx, "uninvite", inviteTarget(Invitation{Role: invs[i].Role, Name: invs[i].Name}))
	})
	if err != nil {
		return OpenInvitation{}, err
	}
	return invs[i].open(), nil
}

// open is the invitation as listed.
func (inv invitationDoc) open() OpenInvitation {
	return OpenInvitation{ID: inv.ID, Role: inv.Role, Name: inv.Name, By: inv.By, Created: inv.Created, Expires: inv.Expires}
}

// deleteInvitationsBy deletes the invitations made by the member id, who
// may no longer invite (revoked or demoted). It runs after the transaction
// that revoked or demoted them, not in it: an admin may have made more
// invitations than one transaction writes (docstore.MaxTxWrites), and they
// enrol no one already, as every enrolment reads its inviter again in its
// own transaction (checkInviter). Deleting them keeps the list of open
// invitations true.
func deleteInvitationsBy(ctx context.Context, db docstore.DB, id string) error {
	ids, invs, err := openInvitations(ctx, db, time.Time{}) // expired ones too
	if err != nil {
		return err
	}
	for i, inv := range invs {
		if inv.By != id {
			continue
		}
		if err := db.Delete(ctx, collInvitations, ids[i]); err != nil {
			return fmt.Errorf("console: delete invitation: %w", err)
		}
	}
	return nil
}

func (c *Console) serveInvitations(w http.ResponseWriter, r *http.Request, _ Member) error {
	invs, err := Invitations(r.Context(), c.opts.DB, c.opts.Clock.Now())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, invs)
	return nil
}

// serveUninvite answers DELETE /admin/api/invitations/{id}: the link no
// longer works.
func (c *Console) serveUninvite(w http.ResponseWriter, r *http.Request, admin Member) error {
	id := r.PathValue("id")
	_, err := uninvite(r.Context(), c.opts.DB, c.opts.Clock.Now(), id, c.auditAs(r, admin))
	if errors.Is(err, ErrNoInvitation) {
		return &apiError{http.StatusNotFound, "There is no open invitation " + strconv.Quote(id) + ": it was used, cancelled, or has expired"}
	}
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}
