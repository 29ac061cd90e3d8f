package console

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/robohornets/robohornets/internal/docstore"
)

// rpName is the name browsers show beside a passkey of the console.
const rpName = "RoboHornets"

// relyingParty is the WebAuthn relying party a ceremony runs for: the RP ID
// (a host name) and the one origin whose pages may answer.
type relyingParty struct {
	ID     string `json:"id"`
	Origin string `json:"origin"`
}

// The ceremonies of the console (ceremonyDoc.Kind).
const (
	kindEnrol   = "enrol"
	kindSignIn  = "signin"
	kindPasskey = "passkey"
	kindVerify  = "verify"
)

// ceremonyDoc is a WebAuthn ceremony between its begin and its finish. It
// is not stored: the begin's answer carries it sealed (sealCeremony), and
// the finish sends it back, to whichever instance, so a begin costs the
// store nothing. Only a finish whose answer was verified writes to the
// store (spendCeremony), so that the ceremony is answered once.
type ceremonyDoc struct {
	// ID names the ceremony in collCeremonies once it is answered.
	ID      string               `json:"id"`
	Kind    string               `json:"kind"`
	RP      relyingParty         `json:"rp"`
	Session webauthn.SessionData `json:"session"`
	Expires time.Time            `json:"expires"`
	// MemberID is the member being enrolled (kindEnrol), adding a passkey
	// (kindPasskey) or verifying (kindVerify).
	MemberID string `json:"memberId,omitempty"`
	// Invitation is the id of the invitation an enrolment uses.
	Invitation string `json:"invitation,omitempty"`
}

// apiError is a refusal with its status and the sentence the person reads.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

var (
	errInvitationGone = &apiError{http.StatusGone, "This invitation link has expired or was already used; ask an admin for a new one"}
	errCeremonyGone   = &apiError{http.StatusBadRequest, "This passkey request took too long or was already answered; try again"}
	errIPHost         = &apiError{http.StatusForbidden, "Passkeys need a host name, not an address: open the console at http://localhost for development"}
)

// errNeedsHTTPS is the refusal of a ceremony on a plain-HTTP host that is
// not localhost: browsers allow passkeys only on secure origins, and a
// session cookie must never cross the network in the clear.
func errNeedsHTTPS(host string) *apiError {
	return &apiError{http.StatusForbidden, fmt.Sprintf("Sign-in needs HTTPS: open the console at https://%s/admin (or http://localhost for development)", host)}
}

// relyingParty returns the relying party for a ceremony begun by r: the
// SiteURL's when set, else http(s)://localhost[:port] of the request, and
// else a refusal.
func (c *Console) relyingParty(r *http.Request) (relyingParty, error) {
	if c.site != nil {
		host := c.site.Hostname()
		if c.site.Scheme != "https" && host != "localhost" {
			return relyingParty{}, errNeedsHTTPS(host)
		}
		return relyingParty{ID: host, Origin: c.site.Scheme + "://" + c.site.Host}, nil
	}
	host := r.Host
	name, _, err := net.SplitHostPort(host)
	if err != nil {
		name = host
	}
	switch name {
	case "localhost":
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		return relyingParty{ID: name, Origin: scheme + "://" + host}, nil
	case "127.0.0.1", "::1", "[::1]":
		// Browsers refuse an IP address as an RP ID.
		return relyingParty{}, errIPHost
	}
	return relyingParty{}, errNeedsHTTPS(name)
}

// webauthn returns the WebAuthn relying party: discoverable credentials
// and user verification required, no attestation.
func (rp relyingParty) webauthn() (*webauthn.WebAuthn, error) {
	timeout := webauthn.TimeoutConfig{Timeout: CeremonyTTL, TimeoutUVD: CeremonyTTL}
	wa, err := webauthn.New(&webauthn.Config{
		RPID:                  rp.ID,
		RPDisplayName:         rpName,
		RPOrigins:             []string{rp.Origin},
		AttestationPreference: protocol.PreferNoAttestation,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:        protocol.ResidentKeyRequirementRequired,
			RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification:   protocol.VerificationRequired,
		},
		Timeouts: webauthn.TimeoutsConfig{Login: timeout, Registration: timeout},
	})
	if err != nil {
		return nil, fmt.Errorf("console: webauthn for %q: %w", rp.Origin, err)
	}
	return wa, nil
}

// ceremonySealLabel is the additional data of every sealed ceremony: it
// keeps them apart from anything else the key might seal.
const ceremonySealLabel = "robohornets ceremony v1"

// maxSealedCeremony bounds the sealed ceremony a finish may send back:
// far more than any begin makes (a few hundred bytes).
const maxSealedCeremony = 8 << 10

// startCeremony seals a ceremony and returns what its begin call answers:
// its options and, as its id, the sealed ceremony. The store is not
// written (and, but for the instance's first ceremony, not read).
func (c *Console) startCeremony(ctx context.Context, doc ceremonyDoc, options any) (Ceremony, error) {
	opts, err := json.Marshal(options)
	if err != nil {
		return Ceremony{}, fmt.Errorf("console: ceremony options: %w", err)
	}
	doc.ID = randomHex(16)
	doc.Expires = c.opts.Clock.Now().Add(CeremonyTTL)
	plain, err := json.Marshal(doc)
	if err != nil {
		return Ceremony{}, fmt.Errorf("console: ceremony: %w", err)
	}
	aead, err := c.ceremonyAEAD(ctx)
	if err != nil {
		return Ceremony{}, err
	}
	nonce := randomBytes(aead.NonceSize())
	sealed := aead.Seal(nonce, nonce, plain, []byte(ceremonySealLabel))
	return Ceremony{ID: base64.RawURLEncoding.EncodeToString(sealed), Options: opts}, nil
}

// ceremonyAEAD is AES-256-GCM under the store's key keyCeremonies.
func (c *Console) ceremonyAEAD(ctx context.Context) (cipher.AEAD, error) {
	key, err := c.key(ctx, keyCeremonies)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("console: ceremony key: %w", err)
	}
	return cipher.NewGCM(block)
}

// openCeremony returns the ceremony of kind that sealed holds, without
// reading the store; errCeremonyGone when sealed is not one this store's
// consoles sealed, was changed, has expired or is of another kind.
func (c *Console) openCeremony(ctx context.Context, sealed, kind string) (ceremonyDoc, error) {
	aead, err := c.ceremonyAEAD(ctx)
	if err != nil {
		return ceremonyDoc{}, err
	}
	if len(sealed) > maxSealedCeremony {
		return ceremonyDoc{}, errCeremonyGone
	}
	data, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(data) < aead.NonceSize() {
		return ceremonyDoc{}, errCeremonyGone
	}
	plain, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], []byte(ceremonySealLabel))
	if err != nil {
		return ceremonyDoc{}, errCeremonyGone
	}
	var doc ceremonyDoc
	if err := json.Unmarshal(plain, &doc); err != nil {
		return ceremonyDoc{}, fmt.Errorf("console: sealed ceremony: %w", err)
	}
	if doc.Kind != kind || !isHexID(doc.ID, 16) || !c.opts.Clock.Now().Before(doc.Expires) {
		return ceremonyDoc{}, errCeremonyGone
	}
	return doc, nil
}

// answeredCeremony is the record of an answered ceremony in
// collCeremonies, kept until the ceremony expires (Run then removes it).
type answeredCeremony struct {
	Expires time.Time `json:"expires"`
}

// spendCeremony records that cer was answered, or returns errCeremonyGone
// when it already was: a finish calls it once the answer is verified
// (a write after proof), before it acts on the answer.
func (c *Console) spendCeremony(ctx context.Context, cer ceremonyDoc) error {
	err := writeDoc(ctx, c.opts.DB.Create, collCeremonies, cer.ID, answeredCeremony{Expires: cer.Expires})
	if errors.Is(err, docstore.ErrExists) {
		return errCeremonyGone
	}
	if err != nil {
		return fmt.Errorf("console: record an answered ceremony: %w", err)
	}
	return nil
}

// sweepEvery is how often Run removes what has expired.
const sweepEvery = CeremonyTTL

// sweepPage is how many documents a sweep reads at a time.
const sweepPage = 100

// Run removes the expired records of answered ceremonies, sessions and
// invitations now and every sweepEvery, until ctx ends; it returns
// ctx.Err(). Expired documents are already refused where they are read:
// this only keeps the store small, in the background, a page at a time,
// so no request pays for it. Every instance runs it; two removing the
// same document do no harm.
func (c *Console) Run(ctx context.Context) error {
	for {
		c.sweep(ctx)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.opts.Clock.After(sweepEvery):
		}
	}
}

// sweep removes the documents that have expired at the clock's now.
func (c *Console) sweep(ctx context.Context) {
	now := c.opts.Clock.Now()
	c.sweepCollection(ctx, collCeremonies, func(data []byte) bool {
		var d answeredCeremony
		return json.Unmarshal(data, &d) == nil && !now.Before(d.Expires)
	})
	c.sweepCollection(ctx, collSessions, func(data []byte) bool {
		var d sessionDoc
		return json.Unmarshal(data, &d) == nil && !d.valid(now)
	})
	c.sweepCollection(ctx, collInvitations, func(data []byte) bool {
		var d invitationDoc
		return json.Unmarshal(data, &d) == nil && !now.Before(d.Expires)
	})
}

// sweepCollection removes the documents of coll that expired says have,
// reading coll sweepPage documents at a time. Each is removed in a
// transaction that reads it again, so one renewed meanwhile stays.
// Failures are logged; the next sweep tries again.
func (c *Console) sweepCollection(ctx context.Context, coll string, expired func([]byte) bool) {
	after := ""
	for {
		docs, err := c.opts.DB.Page(ctx, coll, after, sweepPage)
		if err != nil {
			c.opts.Logger.Warn("console: sweep", "collection", coll, "err", err)
			return
		}
		for _, d := range docs {
			if !expired(d.JSON) {
				continue
			}
			err := c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
				cur, err := tx.Get(coll, d.ID)
				if errors.Is(err, docstore.ErrNotFound) {
					return nil
				}
				if err != nil || !expired(cur) {
					return err
				}
				return tx.Delete(coll, d.ID)
			})
			if err != nil {
				c.opts.Logger.Warn("console: sweep", "collection", coll, "id", d.ID, "err", err)
			}
		}
		if len(docs) < sweepPage {
			return
		}
		after = docs[len(docs)-1].ID
	}
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	return hex.EncodeToString(randomBytes(n))
}

// randomBytes returns n bytes from crypto/rand, which never fails.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never returns an error
	return b
}

// hashHex is the SHA-256 of b in hex: how tokens are kept in the store.
func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// isHexID reports whether id is n bytes in lowercase hex, as randomHex
// makes them.
func isHexID(id string, n int) bool {
	if len(id) != 2*n {
		return false
	}
	for _, ch := range id {
		if !('0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'f') {
			return false
		}
	}
	return true
}
