package console

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/netaddr"
)

// The audit log is a chain: each entry holds the hash of the one before
// it, and the head (the document auditHeadID of collAuditHead) the number
// and hash of the last. An entry and the head move in one transaction,
// with the change the entry records where the store allows it (auditIn),
// so a change is never made without its entry. VerifyAudit walks the
// chain: an entry changed, deleted, moved or added afterwards breaks it.
// (Someone who can write the store can also rewrite the whole chain from
// the changed entry on; the head's hash, noted down from time to time,
// shows that too.)

// auditShown is how many entries GET /admin/api/audit answers, newest first.
const auditShown = 500

// auditVerifyPage is how many entries VerifyAudit reads at a time.
const auditVerifyPage = 500

// auditHeadID is the id of the head in collAuditHead.
const auditHeadID = "head"

// auditIDPrefix starts the id of every entry of the chain, followed by its
// number in auditIDDigits digits: the ids sort as the numbers do, and
// after every id of the log before the chain, which started with the
// entry's time ("20260314T090000.000000000Z-…").
const (
	auditIDPrefix = "e"
	auditIDDigits = 12
)

// auditHashLabel starts every entry's hashed text (version of the encoding).
const auditHashLabel = "robohornets audit v1"

// auditDoc is an entry as collAudit keeps it: what it records, its number
// in the chain (from 1), the hash of the entry before ("" for the first)
// and its own hash (auditDoc.hash).
type auditDoc struct {
	AuditEntry
	Seq  int64  `json:"seq"`
	Prev string `json:"prev"`
	Hash string `json:"hash"`
}

// auditHead is the head of the chain: the last entry's number and hash.
type auditHead struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// auditID is the id of entry seq of the chain.
func auditID(seq int64) string {
	return fmt.Sprintf("%s%0*d", auditIDPrefix, auditIDDigits, seq)
}

// auditSeq returns the number of the entry of the chain with id; false
// for an id that is not of the chain.
func auditSeq(id string) (int64, bool) {
	digits, ok := strings.CutPrefix(id, auditIDPrefix)
	if !ok || len(digits) != auditIDDigits || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	seq, err := strconv.ParseInt(digits, 10, 64)
	return seq, err == nil && seq > 0
}

// hash is the SHA-256 (hex) of d's canonical encoding: the label, then
// its number, the hash before it, its time (UTC, RFC 3339 with
// nanoseconds) and its fields, each preceded by its length as a uvarint,
// so no two entries encode alike.
func (d auditDoc) hash() string {
	h := sha256.New()
	for _, f := range []string{
		auditHashLabel,
		strconv.FormatInt(d.Seq, 10),
		d.Prev,
		d.At.UTC().Format(time.RFC3339Nano),
		d.MemberID,
		d.Name,
		d.Action,
		d.Target,
		d.Addr,
	} {
		h.Write(binary.AppendUvarint(nil, uint64(len(f))))
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// appendAudit stages e in tx as the chain's next entry, and the head
// moved to it. It reads the head: Firestore orders the transactions that
// append, and Local runs them one at a time.
func appendAudit(tx docstore.Txn, e AuditEntry) error {
	var head auditHead
	data, err := tx.Get(collAuditHead, auditHeadID)
	switch {
	case errors.Is(err, docstore.ErrNotFound):
	case err != nil:
		return fmt.Errorf("console: read the audit log's head: %w", err)
	default:
		if err := json.Unmarshal(data, &head); err != nil {
			return fmt.Errorf("console: the audit log's head: %w", err)
		}
	}
	d := auditDoc{AuditEntry: e, Seq: head.Seq + 1, Prev: head.Hash}
	d.Hash = d.hash()
	if err := stage(tx.Create, collAudit, auditID(d.Seq), d); err != nil {
		return fmt.Errorf("console: write audit log: %w", err)
	}
	if err := stage(tx.Put, collAuditHead, auditHeadID, auditHead{Seq: d.Seq, Hash: d.Hash}); err != nil {
		return fmt.Errorf("console: write audit log: %w", err)
	}
	return nil
}

// auditEntry is the entry of m doing action on target, now, from r's address.
func (c *Console) auditEntry(r *http.Request, m Member, action, target string) AuditEntry {
	return AuditEntry{At: c.opts.Clock.Now(), MemberID: m.ID, Name: m.Name, Action: action, Target: target, Addr: c.opts.Proxies.Peer(r)}
}

// auditIn stages, in tx, the entry of m doing action on target: the
// change tx makes and its entry are written together, or neither is.
// Every change a handler makes in one transaction records itself so.
func (c *Console) auditIn(tx docstore.Txn, r *http.Request, m Member, action, target string) error {
	return appendAudit(tx, c.auditEntry(r, m, action, target))
}

// auditor stages, in a transaction, the entry of whoever makes the change
// the transaction makes: action on target. A change that both the console
// and the admin command make takes one (auditAs, cliAudit).
type auditor func(tx docstore.Txn, action, target string) error

// auditAs is the auditor of member m, asking with r.
func (c *Console) auditAs(r *http.Request, m Member) auditor {
	return func(tx docstore.Txn, action, target string) error {
		return c.auditIn(tx, r, m, action, target)
	}
}

// cliAudit is the auditor of the admin command, run at now.
func cliAudit(now time.Time) auditor {
	return func(tx docstore.Txn, action, target string) error {
		return appendAudit(tx, AuditEntry{At: now, Name: cliActor, Action: action, Target: target, Addr: cliAddr})
	}
}

// serveAudit answers the last auditShown entries of the chain, newest
// first: the head says which they are, and only they are read (in id
// order: Firestore's emulator refuses to read ids backwards). Entries of
// the log before the chain are not shown; VerifyAudit counts them.
func (c *Console) serveAudit(w http.ResponseWriter, r *http.Request, _ Member) error {
	ctx := r.Context()
	var head auditHead
	err := readDoc(ctx, c.opts.DB, collAuditHead, auditHeadID, "the audit log's head", &head)
	if err != nil && !errors.Is(err, docstore.ErrNotFound) {
		return err
	}
	// auditID(0) sorts after every id before the chain, before entry 1.
	docs, err := c.opts.DB.Page(ctx, collAudit, auditID(max(0, head.Seq-auditShown)), auditShown)
	if err != nil {
		return fmt.Errorf("console: read audit log: %w", err)
	}
	out := make([]AuditEntry, 0, len(docs))
	for _, d := range slices.Backward(docs) {
		var e AuditEntry
		if err := json.Unmarshal(d.JSON, &e); err != nil {
			return fmt.Errorf("console: audit entry %s: %w", d.ID, err)
		}
		out = append(out, e)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// ErrAuditBroken means the audit log's chain does not hold: an entry was
// changed, deleted, moved or added after it was written. Its message
// names the first entry where the chain breaks.
var ErrAuditBroken = errors.New("the audit log's chain is broken")

// AuditCheck is what VerifyAudit found.
type AuditCheck struct {
	// Checked counts the entries of the chain it checked.
	Checked int
	// Unchained counts the entries written before the log was a chain (by
	// an older version), which nothing can check.
	Unchained int
	// Head is the last entry's hash (hex), "" for an empty chain: noted
	// down, it shows a later check that the chain was not rewritten since.
	Head string
}

// VerifyAudit walks the audit log of db in order, auditVerifyPage entries
// at a time, and checks its chain: each entry's hash, its number, the hash
// it holds of the entry before, and the head. It returns what it checked,
// and an error wrapping ErrAuditBroken at the first break (or the store's
// failure).
func VerifyAudit(ctx context.Context, db docstore.DB) (AuditCheck, error) {
	var check AuditCheck
	var last auditDoc
	lastID := "the start of the log"
	broken := func(format string, args ...any) (AuditCheck, error) {
		return check, fmt.Errorf("%w: %s", ErrAuditBroken, fmt.Sprintf(format, args...))
	}
	after := ""
	for {
		docs, err := db.Page(ctx, collAudit, after, auditVerifyPage)
		if err != nil {
			return check, fmt.Errorf("console: read audit log: %w", err)
		}
		for _, doc := range docs {
			seq, chained := auditSeq(doc.ID)
			switch {
			case !chained && last.Seq == 0:
				check.Unchained++
				continue
			case !chained:
				return broken("entry %s, after entry %s, is not an entry of the chain: it was added afterwards", doc.ID, lastID)
			case seq > last.Seq+1 && last.Seq == 0:
				return broken("the chain starts at entry %s, number %d: entries 1 to %d were deleted", doc.ID, seq, seq-1)
			case seq > last.Seq+1:
				return broken("entry %s follows entry %s: entries %d to %d between them were deleted", doc.ID, lastID, last.Seq+1, seq-1)
			}
			var d auditDoc
			if err := json.Unmarshal(doc.JSON, &d); err != nil {
				return broken("entry %s cannot be read (%v): it was changed afterwards", doc.ID, err)
			}
			switch {
			case d.Seq != seq:
				return broken("entry %s holds number %d, not %d: it was moved from another place in the log", doc.ID, d.Seq, seq)
			case d.Hash != d.hash():
				return broken("entry %s (%s %q at %s) does not match its hash: it was changed afterwards", doc.ID, d.Action, d.Target, d.At.UTC().Format(time.RFC3339))
			case d.Prev != last.Hash:
				return broken("entry %s does not hold the hash of entry %s before it: one of them was replaced afterwards", doc.ID, lastID)
			}
			last, lastID = d, doc.ID
			check.Checked++
			check.Head = d.Hash
		}
		if len(docs) < auditVerifyPage {
			break
		}
		after = docs[len(docs)-1].ID
	}
	var head auditHead
	err := readDoc(ctx, db, collAuditHead, auditHeadID, "the audit log's head", &head)
	switch {
	case errors.Is(err, docstore.ErrNotFound) && last.Seq == 0:
		return check, nil
	case errors.Is(err, docstore.ErrNotFound):
		return broken("the head (%s/%s), which names the last entry, is missing: it was deleted", collAuditHead, auditHeadID)
	case err != nil:
		return check, err
	case head.Seq > last.Seq:
		return broken("the log ends at entry %d, but the head names entry %d: the last %d entries were deleted", last.Seq, head.Seq, head.Seq-last.Seq)
	case head.Seq < last.Seq:
		return broken("the head names entry %d, but the log goes on to entry %d: entries were added after the head", head.Seq, last.Seq)
	case head.Hash != last.Hash:
		return broken("the head holds another hash than the last entry, %s: one of them was replaced", lastID)
	}
	return check, nil
}

// The refusals the audit log records (auditRefusal) are limited per
// client and in all per instance and minute, so that a flood of refused
// requests cannot fill the store or push the log's other entries out of
// sight; those left out are counted in the next entry written.
const (
	refusalsPerClient = 3
	refusalsPerMinute = 12
)

// refusalLimit counts, per minute of the clock, the refusals written to
// the audit log. It remembers only the clients it let write, so it holds
// at most refusalsPerMinute of them.
type refusalLimit struct {
	mu      sync.Mutex
	minute  time.Time
	clients map[string]int
	total   int
	// dropped counts the refusals left out since the last one written.
	dropped int
}

// take reports whether a refusal of client at now may be written, and if
// so how many were left out before it.
func (l *refusalLimit) take(client string, now time.Time) (dropped int, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if minute := now.Truncate(time.Minute); !minute.Equal(l.minute) {
		l.minute, l.clients, l.total = minute, map[string]int{}, 0
	}
	if l.total >= refusalsPerMinute || l.clients[client] >= refusalsPerClient {
		l.dropped++
		return 0, false
	}
	l.total++
	l.clients[client]++
	dropped, l.dropped = l.dropped, 0
	return dropped, true
}

// maxRefusalTarget bounds the target of a refusal's entry, in bytes: an
// anonymous request chooses its path, and the audit page shows hundreds
// of entries.
const maxRefusalTarget = 200

// auditRefusal records in the audit log that r was refused: action names
// the refusal, target what was asked (cut to maxRefusalTarget); m is the
// member who asked (the zero Member when no one is signed in). Within
// refusalsPerClient and refusalsPerMinute; the refusals left out are
// counted in the next entry. A refusal changes nothing, so its entry is
// written in a transaction of its own, and a failure only logged.
func (c *Console) auditRefusal(r *http.Request, m Member, action, target string) {
	client, _ := netaddr.Keys(c.opts.Proxies.Peer(r))
	dropped, ok := c.refusals.take(client, c.opts.Clock.Now())
	if !ok {
		return
	}
	if len(target) > maxRefusalTarget {
		target = strings.ToValidUTF8(target[:maxRefusalTarget], "") + "…"
	}
	if dropped > 0 {
		target = strings.TrimSpace(fmt.Sprintf("%s (and %d more refusals not recorded)", target, dropped))
	}
	err := c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error { return c.auditIn(tx, r, m, action, target) })
	if err != nil {
		c.opts.Logger.Error("console: audit a refusal", "action", action, "target", target, "member", m.ID, "err", err)
	}
}

// auditSignInRefusal records a sign-in whose passkey was refused (err,
// the finish's failure): an unknown, removed or revoked member's passkey,
// or an answer that did not verify. Other failures are not refusals of a
// passkey (a clone warning is audited where it is found).
func (c *Console) auditSignInRefusal(r *http.Request, err error) {
	if errors.Is(err, errSignInRefused) || errors.Is(err, errMemberGone) {
		c.auditRefusal(r, Member{}, "sign-in refused", "")
	}
}
