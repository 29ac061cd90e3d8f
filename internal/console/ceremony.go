package console

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
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

// ceremonyDoc is a WebAuthn ceremony between its begin and its finish, kept
// in the store (collCeremonies) so the finish may reach another instance.
type ceremonyDoc struct {
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

// startCeremony stores a ceremony and returns what its begin call answers.
func (c *Console) startCeremony(ctx context.Context, doc ceremonyDoc, options any) (Ceremony, error) {
	opts, err := json.Marshal(options)
	if err != nil {
		return Ceremony{}, fmt.Errorf("console: ceremony options: %w", err)
	}
	doc.Expires = c.opts.Clock.Now().Add(CeremonyTTL)
	id := randomHex(16)
	if err := writeDoc(ctx, c.opts.DB.Create, collCeremonies, id, doc); err != nil {
		return Ceremony{}, fmt.Errorf("console: store ceremony: %w", err)
	}
	return Ceremony{ID: id, Options: opts}, nil
}

// takeCeremony removes the ceremony id of kind from the store and returns
// it: a ceremony is answered once, whether the answer is good or not.
func (c *Console) takeCeremony(ctx context.Context, id, kind string) (ceremonyDoc, error) {
	if !isHexID(id, 16) {
		return ceremonyDoc{}, errCeremonyGone
	}
	var doc ceremonyDoc
	err := c.opts.DB.Update(ctx, collCeremonies, id, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, errCeremonyGone
		}
		doc = ceremonyDoc{}
		if err := json.Unmarshal(cur, &doc); err != nil {
			return nil, fmt.Errorf("console: ceremony %s: %w", id, err)
		}
		return nil, nil
	})
	if err != nil {
		return ceremonyDoc{}, err
	}
	if doc.Kind != kind || !c.opts.Clock.Now().Before(doc.Expires) {
		return ceremonyDoc{}, errCeremonyGone
	}
	return doc, nil
}

// sweepEvery is how often an instance removes what has expired (ceremonies
// never finished, sessions, invitations never used).
const sweepEvery = CeremonyTTL

// sweep removes expired ceremonies, sessions and invitations, at most once
// every sweepEvery per instance. Expired documents are already refused
// where they are read; this only keeps the store small.
func (c *Console) sweep(ctx context.Context) {
	now := c.opts.Clock.Now()
	c.sweepMu.Lock()
	if now.Sub(c.lastSweep) < sweepEvery {
		c.sweepMu.Unlock()
		return
	}
	c.lastSweep = now
	c.sweepMu.Unlock()
	expired := func(coll string, isExpired func(data []byte) bool) {
		docs, err := c.opts.DB.List(ctx, coll)
		if err != nil {
			c.opts.Logger.Warn("console: sweep", "collection", coll, "err", err)
			return
		}
		for _, d := range docs {
			if isExpired(d.JSON) {
				if err := c.opts.DB.Delete(ctx, coll, d.ID); err != nil {
					c.opts.Logger.Warn("console: sweep", "collection", coll, "id", d.ID, "err", err)
				}
			}
		}
	}
	expired(collCeremonies, func(data []byte) bool {
		var d ceremonyDoc
		return json.Unmarshal(data, &d) == nil && !now.Before(d.Expires)
	})
	expired(collSessions, func(data []byte) bool {
		var d sessionDoc
		return json.Unmarshal(data, &d) == nil && !d.valid(now)
	})
	expired(collInvitations, func(data []byte) bool {
		var d invitationDoc
		return json.Unmarshal(data, &d) == nil && !now.Before(d.Expires)
	})
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
