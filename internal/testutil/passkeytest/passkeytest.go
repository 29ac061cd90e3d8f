// Package passkeytest is a virtual WebAuthn authenticator for tests: it
// answers the options of a registration or a sign-in (the publicKey member
// of navigator.credentials.create or get, as WebAuthn's JSON) with the
// PublicKeyCredential JSON a browser would send, made with ECDSA P-256 keys
// it keeps as discoverable credentials. Attestation is "none".
package passkeytest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/fxamacker/cbor/v2"
)

// The flags of authenticator data (WebAuthn §6.1).
const (
	flagUP = 0x01 // user present
	flagUV = 0x04 // user verified
	flagBE = 0x08 // backup eligible
	flagBS = 0x10 // backed up
	flagAT = 0x40 // attested credential data included
)

// ErrNoCredential means the authenticator has no credential to answer with.
var ErrNoCredential = errors.New("passkeytest: no credential for this relying party")

// ErrExcluded means a registration listed a credential of the authenticator
// in excludeCredentials (a browser's InvalidStateError).
var ErrExcluded = errors.New("passkeytest: the authenticator already holds an excluded credential")

// Credential is one discoverable credential of an Authenticator.
type Credential struct {
	ID         []byte
	RPID       string
	UserHandle []byte
	Key        *ecdsa.PrivateKey
	// SignCount is the counter of the last signature; the next assertion
	// sends SignCount+1. A test may set it to play a cloned authenticator.
	SignCount uint32
}

// Authenticator is a platform authenticator with user verification. Its
// zero value is not usable: call New.
type Authenticator struct {
	// Origin is what clientDataJSON says the page's origin is.
	Origin string
	// NoUserVerification leaves the UV flag unset, as an authenticator that
	// only tested presence would.
	NoUserVerification bool
	// BackupEligible sets the BE and BS flags (a synced passkey).
	BackupEligible bool

	mu    sync.Mutex
	creds []*Credential
}

// New returns an authenticator whose pages are at origin, like
// "http://localhost:8080".
func New(origin string) *Authenticator {
	return &Authenticator{Origin: origin}
}

// Credentials returns the authenticator's credentials, oldest first.
func (a *Authenticator) Credentials() []*Credential {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*Credential(nil), a.creds...)
}

// b64 is WebAuthn's base64url without padding.
var b64 = base64.RawURLEncoding

// creationOptions are the fields of PublicKeyCredentialCreationOptions the
// authenticator reads.
type creationOptions struct {
	Challenge string `json:"challenge"`
	RP        struct {
		ID string `json:"id"`
	} `json:"rp"`
	User struct {
		ID string `json:"id"`
	} `json:"user"`
	ExcludeCredentials []struct {
		ID string `json:"id"`
	} `json:"excludeCredentials"`
}

// requestOptions are the fields of PublicKeyCredentialRequestOptions the
// authenticator reads.
type requestOptions struct {
	Challenge        string `json:"challenge"`
	RPID             string `json:"rpId"`
	AllowCredentials []struct {
		ID string `json:"id"`
	} `json:"allowCredentials"`
}

// Create answers creation options with a new discoverable credential: the
// JSON of a PublicKeyCredential with an AuthenticatorAttestationResponse.
func (a *Authenticator) Create(options []byte) ([]byte, error) {
	var o creationOptions
	if err := json.Unmarshal(options, &o); err != nil {
		return nil, fmt.Errorf("passkeytest: creation options: %w", err)
	}
	user, err := b64.DecodeString(o.User.ID)
	if err != nil {
		return nil, fmt.Errorf("passkeytest: user.id: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, ex := range o.ExcludeCredentials {
		for _, c := range a.creds {
			if b64.EncodeToString(c.ID) == ex.ID {
				return nil, ErrExcluded
			}
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	cred := &Credential{ID: randomBytes(16), RPID: o.RP.ID, UserHandle: user, Key: key}
	// A discoverable credential replaces the one of the same user and RP.
	for i, c := range a.creds {
		if c.RPID == cred.RPID && bytes.Equal(c.UserHandle, user) {
			a.creds = append(a.creds[:i], a.creds[i+1:]...)
			break
		}
	}
	a.creds = append(a.creds, cred)

	cose, err := coseKey(&key.PublicKey)
	if err != nil {
		return nil, err
	}
	authData := a.authData(cred.RPID, flagAT, 0)
	authData = append(authData, make([]byte, 16)...) // AAGUID: none
	authData = binary.BigEndian.AppendUint16(authData, uint16(len(cred.ID)))
	authData = append(authData, cred.ID...)
	authData = append(authData, cose...)
	attestation, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": authData})
	if err != nil {
		return nil, err
	}
	clientData, err := a.clientData("webauthn.create", o.Challenge)
	if err != nil {
		return nil, err
	}
	return credentialJSON(cred, map[string]any{
		"clientDataJSON":    b64.EncodeToString(clientData),
		"attestationObject": b64.EncodeToString(attestation),
		"transports":        []string{"internal"},
	})
}

// Get answers request options with an assertion: the JSON of a
// PublicKeyCredential with an AuthenticatorAssertionResponse, signed by the
// newest credential of the RP (among allowCredentials when it lists any).
func (a *Authenticator) Get(options []byte) ([]byte, error) {
	var o requestOptions
	if err := json.Unmarshal(options, &o); err != nil {
		return nil, fmt.Errorf("passkeytest: request options: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var cred *Credential
	for _, c := range a.creds {
		if c.RPID != o.RPID {
			continue
		}
		allowed := len(o.AllowCredentials) == 0
		for _, al := range o.AllowCredentials {
			allowed = allowed || al.ID == b64.EncodeToString(c.ID)
		}
		if allowed {
			cred = c
		}
	}
	if cred == nil {
		return nil, ErrNoCredential
	}
	return a.assert(cred, o.Challenge)
}

// assert signs an assertion with cred.
func (a *Authenticator) assert(cred *Credential, challenge string) ([]byte, error) {
	cred.SignCount++
	authData := a.authData(cred.RPID, 0, cred.SignCount)
	clientData, err := a.clientData("webauthn.get", challenge)
	if err != nil {
		return nil, err
	}
	clientHash := sha256.Sum256(clientData)
	digest := sha256.Sum256(append(append([]byte(nil), authData...), clientHash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, cred.Key, digest[:])
	if err != nil {
		return nil, err
	}
	return credentialJSON(cred, map[string]any{
		"clientDataJSON":    b64.EncodeToString(clientData),
		"authenticatorData": b64.EncodeToString(authData),
		"signature":         b64.EncodeToString(sig),
		"userHandle":        b64.EncodeToString(cred.UserHandle),
	})
}

// credentialJSON is the JSON of a PublicKeyCredential of cred, a platform
// authenticator's, with response: an attestation or an assertion.
func credentialJSON(cred *Credential, response map[string]any) ([]byte, error) {
	id := b64.EncodeToString(cred.ID)
	return json.Marshal(map[string]any{
		"id":                      id,
		"rawId":                   id,
		"type":                    "public-key",
		"response":                response,
		"authenticatorAttachment": "platform",
		"clientExtensionResults":  map[string]any{},
	})
}

// authData is the start of authenticator data: the RP ID's hash, the
// flags (UP, UV unless disabled, BE/BS when set, and extra) and the counter.
func (a *Authenticator) authData(rpID string, extra byte, count uint32) []byte {
	flags := flagUP | extra
	if !a.NoUserVerification {
		flags |= flagUV
	}
	if a.BackupEligible {
		flags |= flagBE | flagBS
	}
	rpHash := sha256.Sum256([]byte(rpID))
	out := append(rpHash[:], flags)
	return binary.BigEndian.AppendUint32(out, count)
}

// clientData is the clientDataJSON of a ceremony.
func (a *Authenticator) clientData(typ, challenge string) ([]byte, error) {
	return json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": a.Origin, "crossOrigin": false})
}

// coseKey encodes an ES256 public key as a COSE_Key (RFC 9053): kty EC2,
// alg ES256, crv P-256, x, y.
func coseKey(pub *ecdsa.PublicKey) ([]byte, error) {
	point, err := pub.Bytes() // 0x04 || x || y
	if err != nil {
		return nil, err
	}
	enc, err := cbor.CTAP2EncOptions().EncMode()
	if err != nil {
		return nil, err
	}
	return enc.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: point[1:33], -3: point[33:65]})
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never returns an error
	return b
}
