// Package console is the team console at /admin: members who sign in with
// passkeys only (WebAuthn), invitations, sessions, the audit log, and the
// posts they write (drafts, revisions, conflicts, publish and schedule),
// photos and the pit notice. Its documents live in a docstore.DB beside the
// news, so every serve instance shares them; publishing writes the article
// to the news store, whose hub pushes it to every open screen.
package console

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/netaddr"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/photo"
)

// The collections of the console in the docstore (Firestore collection names).
const (
	collMembers     = "Members"
	collPasskeys    = "Passkeys"
	collInvitations = "Invitations"
	collSessions    = "Sessions"
	// collCeremonies records the ceremonies answered (not those begun,
	// which live sealed in the browser until their finish), until they
	// expire: a ceremony is answered once.
	collCeremonies = "Ceremonies"
	collPosts      = "Posts"
	collRevisions  = "Revisions"
	collNotices    = notice.Collection
	collAudit      = "Audit"
	// collAuditHead holds the one document auditHeadID: the number and
	// hash of the audit log's last entry.
	collAuditHead = "AuditHead"
	// collKeys holds the console's secret keys, each made once for the
	// whole store (keys.go).
	collKeys = "Keys"
)

// Collections lists every docstore collection the console writes, for
// what must know them all (the test of the Firestore security rules).
// Every coll constant above is in it; a test holds it to that.
var Collections = []string{
	collMembers,
	collPasskeys,
	collInvitations,
	collSessions,
	collCeremonies,
	collPosts,
	collRevisions,
	collNotices,
	collAudit,
	collAuditHead,
	collKeys,
}

// Options configures a Console.
type Options struct {
	// DB keeps the console's documents; required.
	DB docstore.DB
	// News is the store publishing writes to; required.
	News news.Store
	// SiteURL is the site's public origin, like "https://robohornets.org":
	// the WebAuthn relying party (its host is the RP ID) and the base of
	// invitation links. "" allows only http://localhost (development), with
	// the origin taken from the request; any other plain-HTTP host is
	// refused sign-in with a clear message.
	SiteURL string
	// Proxies say which reverse proxies' X-Forwarded-For names the client,
	// for the rate limit and the audit log; the zero value means the
	// connection's peer is the client.
	Proxies netaddr.Proxies
	// Clock tells the time; nil means clock.Real.
	Clock clock.Clock
	// Logger receives errors; nil means slog.Default().
	Logger *slog.Logger
}

// Console is the team console. Its zero value is not usable: call New.
type Console struct {
	opts    Options
	handler http.Handler
	// site is Options.SiteURL parsed; nil when it is "".
	site *url.URL
	// limiter counts the sign-in and enrolment requests of each client.
	limiter *rateLimiter
	// keys caches the store's keys (keys.go).
	keys keyring
	// refusals bounds the refusals written to the audit log.
	refusals refusalLimit
	// photos bounds the memory of the photos processed at once.
	photos *photo.Limiter
}

// route is one pattern of the console's API and its handler.
type route struct {
	pattern string
	handler http.HandlerFunc
}

// Session and ceremony lifetimes, invitation validity and request limits.
const (
	// InvitationTTL is how long an invitation link may be used (once).
	InvitationTTL = time.Hour
	// SessionIdle ends a session not used for this long.
	SessionIdle = 12 * time.Hour
	// SessionMax ends every session this long after sign-in, used or not.
	SessionMax = 7 * 24 * time.Hour
	// CeremonyTTL is how long a WebAuthn challenge may be answered.
	CeremonyTTL = 5 * time.Minute
	// FreshVerification is how recent a session's last passkey verification
	// (its sign-in, or POST /admin/api/verify/...) must be for what could
	// keep a thief in or let one in: adding a passkey, inviting, changing a
	// role, revoking, clearing a suspended passkey. A stolen cookie or a
	// phone left signed in does not pass it without the passkey.
	FreshVerification = 5 * time.Minute
	// SessionCookie is the session cookie's name; the __Host- prefix makes
	// browsers keep it only when Secure, without Domain and with Path=/.
	SessionCookie = "__Host-rh-session"
	// PhotoUploadTimeout bounds reading a photo's upload and answering it,
	// far beyond the server's usual read timeout: 20 MB over venue Wi-Fi.
	PhotoUploadTimeout = 5 * time.Minute
	// MaxBodyBytes bounds every other request body of the API.
	MaxBodyBytes = 1 << 20
	// MaxNoticeDuration is the longest a pit notice may stay up.
	MaxNoticeDuration = 24 * time.Hour
	// MaxNoticeRunes bounds a pit notice's text: one line on a pit display.
	MaxNoticeRunes = 120
)

// readDoc decodes the document id of coll into v; what names it in the
// error, which wraps docstore.ErrNotFound when there is none.
func readDoc(ctx context.Context, db docstore.DB, coll, id, what string, v any) error {
	data, err := db.Get(ctx, coll, id)
	if err != nil {
		return fmt.Errorf("console: read %s: %w", what, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("console: %s: %w", what, err)
	}
	return nil
}

// writeDoc stores v's JSON as the document id of coll with write, a
// store's Create or Put. The error is write's as it is (or the encoder's),
// so that callers may test it for docstore.ErrExists and say what they
// were storing.
func writeDoc(ctx context.Context, write func(ctx context.Context, coll, id string, doc []byte) error, coll, id string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return write(ctx, coll, id, data)
}

// stage stages v's JSON as the document id of coll with write, a Txn's
// Create or Put (writeDoc's counterpart in a transaction).
func stage(write func(coll, id string, doc []byte) error, coll, id string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return write(coll, id, data)
}

// stageDeletes stages, in tx, deleting the documents ids of coll.
func stageDeletes(tx docstore.Txn, coll string, ids []string) error {
	for _, id := range ids {
		if err := tx.Delete(coll, id); err != nil {
			return err
		}
	}
	return nil
}

// getFunc reads a document: a transaction's Get, or a store's (storeGet),
// so that one check serves a request's read and its transaction's.
type getFunc func(coll, id string) ([]byte, error)

// storeGet is db's Get as a getFunc.
func storeGet(ctx context.Context, db docstore.DB) getFunc {
	return func(coll, id string) ([]byte, error) { return db.Get(ctx, coll, id) }
}
