package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
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
	// By names who invited: a member's id, or cliActor.
	By string `json:"by"`
}

// The actor of the admin command in the audit log.
const (
	cliActor = "admin command"
	cliAddr  = "command line"
)

// maxNameRunes bounds a member's or a passkey's name.
const maxNameRunes = 60

// ErrBadInvitation means an invitation's role or name is not acceptable.
var ErrBadInvitation = errors.New("bad invitation")

// invitationRequest is the body of POST /admin/api/invitations.
type invitationRequest struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// cleanName trims a name and checks it is one short line (possibly empty).
func cleanName(name string) (string, bool) {
	name = strings.TrimSpace(name)
	return name, checkLine(name, maxNameRunes) == lineOK
}

// Invite creates a one-time invitation for a member of role ("editor" or
// "admin") named name (may be empty), valid for InvitationTTL from now, and
// writes it to the audit log as done by the admin command. The link is
// siteURL + "/admin/enrol#" + token: the token travels in the fragment,
// which browsers never send to a server, and the store keeps only its hash.
// The error wraps ErrBadInvitation for a bad role or name.
func Invite(ctx context.Context, db docstore.DB, now time.Time, siteURL, role, name string) (Invitation, error) {
	inv, err := invite(ctx, db, now, siteURL, role, name, cliActor)
	if err != nil {
		return Invitation{}, err
	}
	err = writeAudit(ctx, db, AuditEntry{At: now, Name: cliActor, Action: "invite", Target: inviteTarget(inv), Addr: cliAddr})
	return inv, err
}

// inviteTarget is the audit log's target of an invitation.
func inviteTarget(inv Invitation) string {
	if inv.Name == "" {
		return inv.Role
	}
	return inv.Role + " " + inv.Name
}

func invite(ctx context.Context, db docstore.DB, now time.Time, siteURL, role, name, by string) (Invitation, error) {
	if role != RoleEditor && role != RoleAdmin {
		return Invitation{}, fmt.Errorf("%w: role %q: want %s or %s", ErrBadInvitation, role, RoleEditor, RoleAdmin)
	}
	name, ok := cleanName(name)
	if !ok {
		return Invitation{}, fmt.Errorf("%w: a name is one line of at most %d characters", ErrBadInvitation, maxNameRunes)
	}
	doc := invitationDoc{Role: role, Name: name, Created: now, Expires: now.Add(InvitationTTL), By: by}
	token, err := createWithToken(ctx, db, collInvitations, doc)
	if err != nil {
		return Invitation{}, fmt.Errorf("console: store invitation: %w", err)
	}
	return Invitation{
		Link:    strings.TrimRight(siteURL, "/") + "/admin/enrol#" + token,
		Role:    role,
		Name:    name,
		Expires: doc.Expires,
	}, nil
}

// readInvitation returns the invitation of token if it may still be used.
func (c *Console) readInvitation(ctx context.Context, token string) (string, invitationDoc, error) {
	id, ok, err := c.tokenID(ctx, token)
	if err != nil {
		return "", invitationDoc{}, err
	}
	if !ok {
		return "", invitationDoc{}, errInvitationGone
	}
	var inv invitationDoc
	err = readDoc(ctx, c.opts.DB, collInvitations, id, "invitation", &inv)
	if errors.Is(err, docstore.ErrNotFound) {
		return "", invitationDoc{}, errInvitationGone
	}
	if err != nil {
		return "", invitationDoc{}, err
	}
	if !c.opts.Clock.Now().Before(inv.Expires) {
		return "", invitationDoc{}, errInvitationGone
	}
	return id, inv, nil
}

// consumeInvitation deletes the invitation id and returns it, atomically:
// of two enrolments that race with one link, exactly one gets it.
func (c *Console) consumeInvitation(ctx context.Context, id string) (invitationDoc, error) {
	var inv invitationDoc
	err := c.opts.DB.Update(ctx, collInvitations, id, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, errInvitationGone
		}
		inv = invitationDoc{}
		if err := json.Unmarshal(cur, &inv); err != nil {
			return nil, fmt.Errorf("console: invitation: %w", err)
		}
		if !c.opts.Clock.Now().Before(inv.Expires) {
			return nil, errInvitationGone
		}
		return nil, nil
	})
	return inv, err
}

// returnInvitation puts back an invitation consumed by an enrolment that
// then failed to store its member: a link dies on its first successful use,
// not on a failure of the store. It stays valid until its own expiry.
func (c *Console) returnInvitation(ctx context.Context, id string, inv invitationDoc) {
	if err := writeDoc(ctx, c.opts.DB.Create, collInvitations, id, inv); err != nil {
		c.opts.Logger.Warn("console: cannot give back the invitation of a failed enrolment", "err", err)
	}
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
	inv, err := invite(r.Context(), c.opts.DB, c.opts.Clock.Now(), c.siteBase(r), req.Role, req.Name, admin.ID)
	if errors.Is(err, ErrBadInvitation) {
		return &apiError{http.StatusBadRequest, err.Error()}
	}
	if err != nil {
		return err
	}
	c.audit(r.Context(), r, admin, "invite", inviteTarget(inv))
	writeJSON(w, http.StatusOK, inv)
	return nil
}
