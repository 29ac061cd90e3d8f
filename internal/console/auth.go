package console

import (
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

// enrolBegin is the body of POST /admin/api/enrol/begin.
type enrolBegin struct {
	Token string `json:"token"`
}

// ceremonyFinish is the body of the .../finish calls: the ceremony's id,
// the PublicKeyCredential as WebAuthn's JSON, and a name for a new passkey.
type ceremonyFinish struct {
	Ceremony   string          `json:"ceremony"`
	Credential json.RawMessage `json:"credential"`
	Name       string          `json:"name,omitempty"`
}

var (
	errPasskeyRefused = &apiError{http.StatusBadRequest, "The passkey's answer was not accepted; try again"}
	errSignInRefused  = &apiError{http.StatusUnauthorized, "This passkey was not accepted: it may have been removed, or belong to another site"}
	errCloned         = &apiError{http.StatusUnauthorized, "This passkey's counter went backwards, as a copied passkey's would: it is suspended until an admin clears it. Use another passkey, and tell an admin"}
)

// defaultPasskeyName names a passkey its owner did not name.
const defaultPasskeyName = "Passkey"

// finishCeremony reads the body of a finish call and opens its sealed
// ceremony of kind, without a store read. The handler verifies the answer,
// then spends the ceremony (spendCeremony) before acting on it.
func (c *Console) finishCeremony(w http.ResponseWriter, r *http.Request, kind string) (ceremonyFinish, ceremonyDoc, error) {
	var body ceremonyFinish
	if err := readJSON(w, r, &body); err != nil {
		return body, ceremonyDoc{}, err
	}
	name, err := cleanName(body.Name, "the passkey's name")
	if err != nil {
		return body, ceremonyDoc{}, &apiError{http.StatusBadRequest, sentence(err.Error())}
	}
	if name == "" {
		name = defaultPasskeyName
	}
	body.Name = name
	cer, err := c.openCeremony(r.Context(), body.Ceremony, kind)
	return body, cer, err
}

// webauthnFailed logs why go-webauthn refused a credential and returns
// refusal: the details help a developer, not the person signing in.
func (c *Console) webauthnFailed(refusal *apiError, err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		c.opts.Logger.Info("console: passkey refused", "type", pe.Type, "details", pe.Details, "info", pe.DevInfo)
	} else {
		c.opts.Logger.Info("console: passkey refused", "err", err)
	}
	return refusal
}

// beginCeremony answers a .../begin call: begin starts the ceremony with
// the WebAuthn of doc's relying party, and doc, with the session begin
// returns, goes sealed in the answer for the finish (nothing is stored).
func (c *Console) beginCeremony(w http.ResponseWriter, r *http.Request, doc ceremonyDoc, begin func(*webauthn.WebAuthn) (options any, sess *webauthn.SessionData, err error)) error {
	wa, err := doc.RP.webauthn()
	if err != nil {
		return err
	}
	options, sess, err := begin(wa)
	if err != nil {
		return fmt.Errorf("console: begin %s: %w", doc.Kind, err)
	}
	doc.Session = *sess
	cer, err := c.startCeremony(r.Context(), doc, options)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, cer)
	return nil
}

// register is the begin of a ceremony that registers a new passkey of user.
func register(user waUser, opts ...webauthn.RegistrationOption) func(*webauthn.WebAuthn) (any, *webauthn.SessionData, error) {
	return func(wa *webauthn.WebAuthn) (any, *webauthn.SessionData, error) {
		creation, sess, err := wa.BeginRegistration(user, opts...)
		if err != nil {
			return nil, nil, err
		}
		return creation.Response, sess, nil
	}
}

func (c *Console) serveEnrolBegin(w http.ResponseWriter, r *http.Request) error {
	var body enrolBegin
	if err := readJSON(w, r, &body); err != nil {
		return err
	}
	rp, err := c.relyingParty(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	invID, inv, err := c.readInvitation(ctx, body.Token)
	if err != nil {
		return err
	}
	if err := checkInviter(storeGet(ctx, c.opts.DB), inv); err != nil {
		return c.refuseInvitation(ctx, invID, err)
	}
	user := waUser{m: memberDoc{Member: Member{ID: randomHex(memberIDBytes), Name: inv.Name, Role: inv.Role}}}
	return c.beginCeremony(w, r, ceremonyDoc{Kind: kindEnrol, RP: rp, MemberID: user.m.ID, Invitation: invID}, register(user))
}

// serveEnrolFinish registers the passkey of an enrolment, consumes its
// invitation, creates the member and signs them in: all in one
// transaction with its audit entry, so a link works once, and only for an
// enrolment that is stored whole. The inviter is checked again there: they
// may have been revoked or demoted since the begin.
func (c *Console) serveEnrolFinish(w http.ResponseWriter, r *http.Request) error {
	body, cer, err := c.finishCeremony(w, r, kindEnrol)
	if err != nil {
		return err
	}
	user := waUser{m: memberDoc{Member: Member{ID: cer.MemberID}}}
	cred, err := c.createCredential(cer, user, body.Credential)
	if err != nil {
		return c.webauthnFailed(errPasskeyRefused, err)
	}
	ctx := r.Context()
	if err := c.spendCeremony(ctx, cer); err != nil {
		return err
	}
	key := c.newPasskey(cer.MemberID, body.Name, cred)
	ns, err := c.prepareSession(r, cer.MemberID, key.ID)
	if err != nil {
		return err
	}
	now := c.opts.Clock.Now()
	var m memberDoc
	err = c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		inv, err := openInvitation(tx.Get, cer.Invitation, now)
		if err != nil {
			return err
		}
		if err := checkInviter(tx.Get, inv); err != nil {
			return err
		}
		if err := tx.Delete(collInvitations, cer.Invitation); err != nil {
			return err
		}
		if err := stagePasskey(tx, key); err != nil {
			return err
		}
		m = memberDoc{
			Member:     Member{ID: cer.MemberID, Name: inv.Name, Role: inv.Role, Created: now, Passkeys: 1},
			PasskeyIDs: []string{key.ID},
		}
		if err := ns.addTo(tx, &m); err != nil {
			return err
		}
		if err := stage(tx.Create, collMembers, m.ID, m); err != nil {
			return err
		}
		return c.auditIn(tx, r, m.Member, "enrol", inviteTarget(Invitation{Role: inv.Role, Name: inv.Name}))
	})
	if err != nil {
		return c.refuseInvitation(ctx, cer.Invitation, err)
	}
	c.giveSession(w, r, ns)
	return c.answerMe(w, r, m, ns.doc)
}

// createCredential verifies a registration's answer against its ceremony.
func (c *Console) createCredential(cer ceremonyDoc, user waUser, credential json.RawMessage) (*webauthn.Credential, error) {
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return nil, err
	}
	wa, err := cer.RP.webauthn()
	if err != nil {
		return nil, err
	}
	return wa.CreateCredential(user, cer.Session, parsed)
}

// newPasskey is a new passkey of memberID named name, of the credential
// cred a registration made; stagePasskey stores it.
func (c *Console) newPasskey(memberID, name string, cred *webauthn.Credential) passkeyDoc {
	return passkeyDoc{
		Passkey:    Passkey{ID: passkeyID(cred.ID), Name: name, Created: c.opts.Clock.Now()},
		MemberID:   memberID,
		Credential: *cred,
	}
}

// stagePasskey stages, in tx, storing the new passkey key; one stored
// already is refused (errPasskeyTaken).
func stagePasskey(tx docstore.Txn, key passkeyDoc) error {
	_, err := tx.Get(collPasskeys, key.ID)
	switch {
	case err == nil:
		return errPasskeyTaken
	case !errors.Is(err, docstore.ErrNotFound):
		return fmt.Errorf("console: read passkey: %w", err)
	}
	return stage(tx.Create, collPasskeys, key.ID, key)
}

func (c *Console) serveSignInBegin(w http.ResponseWriter, r *http.Request) error {
	rp, err := c.relyingParty(r)
	if err != nil {
		return err
	}
	return c.beginCeremony(w, r, ceremonyDoc{Kind: kindSignIn, RP: rp}, func(wa *webauthn.WebAuthn) (any, *webauthn.SessionData, error) {
		assertion, sess, err := wa.BeginDiscoverableLogin()
		if err != nil {
			return nil, nil, err
		}
		return assertion.Response, sess, nil
	})
}

// serveSignInFinish verifies a passkey's assertion, records its sign
// counter and flags, and signs its member in with a new session.
func (c *Console) serveSignInFinish(w http.ResponseWriter, r *http.Request) (err error) {
	defer func() { c.auditSignInRefusal(r, err) }()
	body, cer, err := c.finishCeremony(w, r, kindSignIn)
	if err != nil {
		return err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(body.Credential)
	if err != nil {
		return c.webauthnFailed(errSignInRefused, err)
	}
	wa, err := cer.RP.webauthn()
	if err != nil {
		return err
	}
	// The lookup's own refusals and failures are kept apart from
	// go-webauthn's: a store failure is not a refused passkey.
	ctx := r.Context()
	var member memberDoc
	var lookupErr error
	lookup := func(rawID, userHandle []byte) (webauthn.User, error) {
		m, err := getMember(ctx, c.opts.DB, string(userHandle))
		switch {
		case err != nil:
		case !m.Revoked.IsZero():
			err = errMemberGone
		case !slices.Contains(m.PasskeyIDs, passkeyID(rawID)):
			err = errSignInRefused
		}
		if err != nil {
			lookupErr = err
			return nil, err
		}
		member = m
		user, err := c.webauthnUser(ctx, m)
		lookupErr = err
		return user, err
	}
	_, cred, err := wa.ValidatePasskeyLogin(lookup, cer.Session, parsed)
	switch {
	case errors.Is(lookupErr, docstore.ErrNotFound):
		return c.webauthnFailed(errSignInRefused, lookupErr)
	case lookupErr != nil:
		return lookupErr
	case err != nil:
		return c.webauthnFailed(errSignInRefused, err)
	}
	if err := c.spendCeremony(ctx, cer); err != nil {
		return err
	}
	id := passkeyID(cred.ID)
	ns, err := c.prepareSession(r, member.ID, id)
	if err != nil {
		return err
	}
	// The passkey's use, the new session and the entry are stored
	// together; the member is read again there, so a passkey removed or
	// suspended, or a member revoked, since the lookup opens nothing.
	var used Passkey
	err = c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		m, err := changeMember(tx, member.ID, func(m *memberDoc) error {
			err := usable(*m, id)
			if err == nil {
				used, err = useIn(tx, *m, cred, ns.doc.Created)
			}
			if err != nil {
				return err
			}
			return ns.addTo(tx, m)
		})
		if err != nil {
			return err
		}
		member = m
		return c.auditIn(tx, r, m.Member, "sign-in", id)
	})
	if err != nil {
		return c.refuseClone(r, member, used, err)
	}
	c.giveSession(w, r, ns)
	return c.answerMe(w, r, member, ns.doc)
}

// usable refuses a sign-in or verification of member m with the passkey
// id: one suspended (errSuspended), a member revoked (errMemberGone), a
// passkey m does not hold (errSignInRefused).
func usable(m memberDoc, id string) error {
	switch {
	case m.suspended(id):
		return errSuspended
	case !m.Revoked.IsZero():
		return errMemberGone
	case !slices.Contains(m.PasskeyIDs, id):
		return errSignInRefused
	}
	return nil
}

// useIn stages, in tx, the sign counter, flags and time (now) of an
// assertion (a sign-in or a verification) on its passkey, one of member
// m's, and returns the passkey as stored. The counter must move forward
// in the store: of two assertions that race with the same counter, one is
// refused; a counter behind the stored one (go-webauthn's CloneWarning)
// is refused with errCloned, which suspends the passkey (refuseClone).
func useIn(tx docstore.Txn, m memberDoc, cred *webauthn.Credential, now time.Time) (Passkey, error) {
	id := passkeyID(cred.ID)
	data, err := tx.Get(collPasskeys, id)
	if errors.Is(err, docstore.ErrNotFound) {
		return Passkey{}, errSignInRefused
	}
	if err != nil {
		return Passkey{}, fmt.Errorf("console: read passkey %s: %w", id, err)
	}
	var key passkeyDoc
	if err := json.Unmarshal(data, &key); err != nil {
		return Passkey{}, fmt.Errorf("console: passkey %s: %w", id, err)
	}
	if key.MemberID != m.ID {
		return Passkey{}, errSignInRefused
	}
	stored, got := key.Credential.Authenticator.SignCount, cred.Authenticator.SignCount
	if (stored != 0 || got != 0) && got <= stored {
		return key.Passkey, errCloned
	}
	key.Credential.Authenticator.SignCount = got
	key.Credential.Flags = cred.Flags
	key.LastUsed = now
	return key.Passkey, stage(tx.Put, collPasskeys, id, key)
}

// refuseClone returns err, the failure of an assertion's transaction by
// member m with the passkey used; when it is errCloned, it first suspends
// the passkey (in a transaction of its own: the assertion's stored
// nothing), and returns the suspension's failure if it fails.
func (c *Console) refuseClone(r *http.Request, m memberDoc, used Passkey, err error) error {
	if errors.Is(err, errCloned) {
		if serr := c.suspend(r, m, used); serr != nil {
			return serr
		}
	}
	return err
}

func (c *Console) servePasskeyBegin(w http.ResponseWriter, r *http.Request, s session) error {
	rp, err := c.relyingParty(r)
	if err != nil {
		return err
	}
	if len(s.member.PasskeyIDs) >= maxPasskeys {
		return errTooMany
	}
	user, err := c.webauthnUser(r.Context(), s.member)
	if err != nil {
		return err
	}
	doc := ceremonyDoc{Kind: kindPasskey, RP: rp, MemberID: s.member.ID}
	return c.beginCeremony(w, r, doc, register(user, webauthn.WithExclusions(user.descriptors())))
}

// serveVerifyBegin begins a verification of the signed-in member: an
// assertion, user verified, by one of their own passkeys that is not
// suspended (allowCredentials lists them).
func (c *Console) serveVerifyBegin(w http.ResponseWriter, r *http.Request, s session) error {
	rp, err := c.relyingParty(r)
	if err != nil {
		return err
	}
	user, err := c.webauthnUser(r.Context(), s.member)
	if err != nil {
		return err
	}
	user.creds = slices.DeleteFunc(user.creds, func(cred webauthn.Credential) bool {
		return s.member.suspended(passkeyID(cred.ID))
	})
	if len(user.creds) == 0 {
		return errAllSuspended
	}
	doc := ceremonyDoc{Kind: kindVerify, RP: rp, MemberID: s.member.ID}
	return c.beginCeremony(w, r, doc, func(wa *webauthn.WebAuthn) (any, *webauthn.SessionData, error) {
		assertion, sess, err := wa.BeginLogin(user)
		if err != nil {
			return nil, nil, err
		}
		return assertion.Response, sess, nil
	})
}

// serveVerifyFinish checks the member's assertion, records its counter
// as a sign-in does, and marks the session verified now: for
// FreshVerification, it may do what matters.
func (c *Console) serveVerifyFinish(w http.ResponseWriter, r *http.Request, s session) error {
	body, cer, err := c.finishCeremony(w, r, kindVerify)
	if err == nil && cer.MemberID != s.member.ID {
		err = errCeremonyGone // another member's ceremony
	}
	if err != nil {
		return err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(body.Credential)
	if err != nil {
		return c.webauthnFailed(errPasskeyRefused, err)
	}
	if s.member.suspended(passkeyID(parsed.RawID)) {
		return errSuspended
	}
	ctx := r.Context()
	// Every passkey of the member, so that go-webauthn finds the one that
	// answered and refuses it unless the ceremony allowed it.
	user, err := c.webauthnUser(ctx, s.member)
	if err != nil {
		return err
	}
	wa, err := cer.RP.webauthn()
	if err != nil {
		return err
	}
	cred, err := wa.ValidateLogin(user, cer.Session, parsed)
	if err != nil {
		return c.webauthnFailed(errPasskeyRefused, err)
	}
	if err := c.spendCeremony(ctx, cer); err != nil {
		return err
	}
	// The passkey's use, the session's verification and the entry are
	// stored together, the member and the session read again there.
	now := c.opts.Clock.Now()
	var used Passkey
	m := s.member
	err = c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		var err error
		if m, err = readMember(tx.Get, s.member.ID); err != nil {
			return err
		}
		if err := usable(m, passkeyID(cred.ID)); err != nil {
			return err
		}
		if used, err = useIn(tx, m, cred, now); err != nil {
			return err
		}
		if s.doc, err = verifiedIn(tx, m, s.id, now); err != nil {
			return err
		}
		return c.auditIn(tx, r, m.Member, "verify", passkeyID(cred.ID))
	})
	if err != nil {
		return c.refuseClone(r, m, used, err)
	}
	return c.answerMe(w, r, m, s.doc)
}

// servePasskeyFinish adds a passkey to the signed-in member.
func (c *Console) servePasskeyFinish(w http.ResponseWriter, r *http.Request, s session) error {
	body, cer, err := c.finishCeremony(w, r, kindPasskey)
	if err == nil && cer.MemberID != s.member.ID {
		err = errCeremonyGone // another member's ceremony
	}
	if err != nil {
		return err
	}
	ctx := r.Context()
	user, err := c.webauthnUser(ctx, s.member)
	if err != nil {
		return err
	}
	cred, err := c.createCredential(cer, user, body.Credential)
	if err != nil {
		return c.webauthnFailed(errPasskeyRefused, err)
	}
	if err := c.spendCeremony(ctx, cer); err != nil {
		return err
	}
	key := c.newPasskey(s.member.ID, body.Name, cred)
	var m memberDoc
	err = c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		var err error
		m, err = changeMember(tx, s.member.ID, func(m *memberDoc) error {
			switch {
			case !m.Revoked.IsZero():
				return errMemberGone
			case len(m.PasskeyIDs) >= maxPasskeys:
				return errTooMany
			}
			m.PasskeyIDs = append(m.PasskeyIDs, key.ID)
			return nil
		})
		if err != nil {
			return err
		}
		if err := stagePasskey(tx, key); err != nil {
			return err
		}
		return c.auditIn(tx, r, m.Member, "passkey-add", key.ID)
	})
	if err != nil {
		return err
	}
	return c.answerMe(w, r, m, s.doc)
}
