package console

import (
	"encoding/json"
	"time"
)

// The JSON of the console's API (/admin/api/...). cmd/gen writes these
// types into frontend/src/gen/wire.gen.ts, so the console page and the
// server cannot drift.

// The roles of a member ([Member.Role]).
const (
	// RoleEditor writes news and pit notices.
	RoleEditor = "editor"
	// RoleAdmin also invites, lists and revokes members and reads the audit log.
	RoleAdmin = "admin"
)

// The states of a post ([Post.Status]).
const (
	// StatusDraft is a post the site does not show.
	StatusDraft = "draft"
	// StatusScheduled is a published post whose date is still to come: the
	// site shows it from that moment.
	StatusScheduled = "scheduled"
	// StatusPublished is a post the site shows.
	StatusPublished = "published"
)

// Member is a person who may sign in to the console.
type Member struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Role    string    `json:"role"`
	Created time.Time `json:"created"`
	// Revoked is when an admin revoked the member; zero while they may sign in.
	Revoked time.Time `json:"revoked"`
	// Passkeys counts the member's passkeys.
	Passkeys int `json:"passkeys"`
	// SuspendedPasskeys are the member's passkeys whose sign counter went
	// backwards, as a copied passkey's would: they sign in and verify no
	// one until an admin clears them (or the member removes them).
	SuspendedPasskeys []Passkey `json:"suspendedPasskeys"`
}

// Passkey is one of a member's passkeys, as the member sees it.
type Passkey struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed"`
	// Suspended is when a clone warning suspended the passkey; zero while
	// it may sign in.
	Suspended time.Time `json:"suspended"`
}

// Me is GET /admin/api/me: who is signed in, with which passkeys.
type Me struct {
	Member   Member    `json:"member"`
	Passkeys []Passkey `json:"passkeys"`
	// Expires is when the session ends at the latest.
	Expires time.Time `json:"expires"`
	// SessionPasskey is the id of the passkey that opened this session:
	// removing it ends the session.
	SessionPasskey string `json:"sessionPasskey"`
}

// Ceremony is the answer to a .../begin call of a WebAuthn ceremony: the
// options for navigator.credentials (create or get), as WebAuthn's JSON
// (base64url byte strings), and the id the .../finish call sends back.
type Ceremony struct {
	ID string `json:"id"`
	// Options is the value of the publicKey member of the call's options.
	Options json.RawMessage `json:"options"`
}

// Invitation is the answer to POST /admin/api/invitations (and what the
// admin command prints): a one-time link, whose token is in the fragment.
type Invitation struct {
	// ID is the invitation's OpenInvitation.ID.
	ID      string    `json:"id"`
	Link    string    `json:"link"`
	Role    string    `json:"role"`
	Name    string    `json:"name"`
	Expires time.Time `json:"expires"`
}

// OpenInvitation is one invitation not used yet, in GET
// /admin/api/invitations and the admin command's list. It has no link: the
// store keeps only the hash of the link's token.
type OpenInvitation struct {
	// ID names the invitation to cancel it (DELETE
	// /admin/api/invitations/{id}, admin uninvite ID); it enrols no one.
	ID   string `json:"id"`
	Role string `json:"role"`
	Name string `json:"name"`
	// By is the id of the admin who invited, or "admin command".
	By      string    `json:"by"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

// RoleChange is the body of PATCH /admin/api/members/{id}: the member's new role.
type RoleChange struct {
	Role string `json:"role"`
}

// Refusal is the answer to every request the console refuses: a sentence
// for the person, and for the refusals the page acts on, a code.
type Refusal struct {
	Error string `json:"error"`
	// Code is CodeVerify, or absent.
	Code string `json:"code,omitempty"`
}

// CodeVerify is the Refusal.code of an action that needs a fresh passkey
// verification (POST /admin/api/verify/begin and finish), after which the
// same request may be sent again.
const CodeVerify = "verify"

// PostFields are the fields of a post that an editor writes.
type PostFields struct {
	Title   string    `json:"title"`
	Date    time.Time `json:"date"`
	Content string    `json:"content"`
}

// Post is one post of the console, with its latest revision's fields.
type Post struct {
	ID string `json:"id"`
	PostFields
	// Version is the number of the latest revision; a save names the
	// version it was based on and is refused when it is not the latest.
	Version int    `json:"version"`
	Status  string `json:"status"`
	// Changed is true when the latest revision differs from what the site shows.
	Changed   bool      `json:"changed"`
	UpdatedAt time.Time `json:"updatedAt"`
	UpdatedBy string    `json:"updatedBy"`
}

// Save is the body of PUT /admin/api/posts/{id} and of a restore or publish:
// the fields (not for a restore) and the version the editor started from.
type Save struct {
	PostFields
	BaseVersion int `json:"baseVersion"`
	// At is when to publish (publish only); zero means now.
	At time.Time `json:"at"`
}

// Conflict is the 409 answer to a save based on an old version: both
// versions, so the editor can merge by hand.
type Conflict struct {
	Error  string     `json:"error"`
	Theirs Post       `json:"theirs"`
	Yours  PostFields `json:"yours"`
}

// Revision is one saved state of a post; every save makes one, none is ever
// destroyed.
type Revision struct {
	N int `json:"n"`
	PostFields
	By string    `json:"by"`
	At time.Time `json:"at"`
	// Note says what made the revision: "saved", "published", "scheduled",
	// "unpublished", "restored from 3".
	Note string `json:"note"`
}

// Preview is the answer to POST /admin/api/preview: the content rendered as
// the site renders it.
type Preview struct {
	HTML string `json:"html"`
}

// Photo is the answer to POST /admin/api/photos.
type Photo struct {
	URL      string `json:"url"`
	Markdown string `json:"markdown"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Bytes    int    `json:"bytes"`
}

// AuditEntry is one line of the audit log: who did what, when, from where.
type AuditEntry struct {
	At       time.Time `json:"at"`
	MemberID string    `json:"memberId"`
	Name     string    `json:"name"`
	Action   string    `json:"action"`
	Target   string    `json:"target"`
	Addr     string    `json:"addr"`
}
