// Package docstore keeps the team console's documents (members, passkeys,
// invitations, sessions, posts and their revisions, photos, pit notices, the
// audit log) in the same place as the news: JSON files in the data directory
// by default, or collections of the Firestore project in production, so any
// number of serve instances share them.
package docstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

var (
	// ErrNotFound means no document has the requested id.
	ErrNotFound = errors.New("no such document")
	// ErrExists means Create found a document with the id already there.
	ErrExists = errors.New("document already exists")
	// ErrInvalidID means an id or collection name breaks the rules of ValidateID.
	ErrInvalidID = errors.New("invalid document id")
	// ErrTooLarge means a document or blob exceeds what the store keeps.
	ErrTooLarge = errors.New("document too large")
	// ErrUnreachable means the store cannot be reached: Watch returns it.
	ErrUnreachable = errors.New("unreachable")
	// ErrNotJSON means a document given to Create, Put or Update is not JSON.
	ErrNotJSON = errors.New("document is not JSON")
)

// Doc is one document: its id and its JSON.
type Doc struct {
	ID   string
	JSON []byte
}

// DB keeps JSON documents by collection and id, and blobs by id.
// Implementations are safe for concurrent use, also across processes that
// share the store (two serve instances, or serve and the admin command).
type DB interface {
	// Every method that takes a collection name or an id returns an error
	// wrapping ErrInvalidID when ValidateID (or the store's own, stricter
	// rule, see Local) refuses it, and every write of a document an error
	// wrapping ErrNotJSON or ErrTooLarge when it is not JSON or exceeds
	// MaxDocBytes.

	// Get returns the document's JSON, or an error wrapping ErrNotFound.
	Get(ctx context.Context, coll, id string) ([]byte, error)
	// Create stores a new document, or returns an error wrapping ErrExists.
	Create(ctx context.Context, coll, id string, doc []byte) error
	// Put creates or replaces a document.
	Put(ctx context.Context, coll, id string, doc []byte) error
	// Delete removes a document; deleting one that does not exist is not an error.
	Delete(ctx context.Context, coll, id string) error
	// List returns every document of a collection, ordered by id.
	List(ctx context.Context, coll string) ([]Doc, error)
	// Update reads a document (nil when absent) and stores what fn returns,
	// atomically: no other writer (in this process or another) changes it in
	// between; under contention fn may be called again. fn returning nil
	// deletes the document; fn returning an error aborts with that error and
	// changes nothing. fn must be quick and must not use the store: Local
	// holds its lock while fn runs, Firestore refuses nested transactions.
	Update(ctx context.Context, coll, id string, fn func(cur []byte) ([]byte, error)) error
	// Page returns at most limit documents of coll whose ids sort after
	// after ("" starts at the first), ordered by id: a collection is read
	// in pages, each starting after the last id of the one before. Fewer
	// than limit documents means there are no more. limit must be
	// positive, and at most MaxPage. (Only ascending: the Firestore
	// emulator refuses a descending scan of document ids.)
	Page(ctx context.Context, coll, after string, limit int) ([]Doc, error)
	// Tx runs fn in a transaction over any documents of any collections:
	// its writes (Txn's Create, Put and Delete) are staged and made
	// together when fn returns nil, or not at all: fn returning an error
	// aborts with that error, and so does a write that fn staged and the
	// store refused (an invalid id or document). A staged Create whose
	// document exists at commit aborts with an error wrapping ErrExists.
	// No other writer changes what fn read before the commit: under
	// contention fn may be called again, so fn must not have effects
	// outside the transaction. Like Update's, fn must be quick and must
	// not use the store except through its Txn. A transaction makes at
	// most MaxTxWrites writes, at most one of each document (ErrBadTx).
	Tx(ctx context.Context, fn func(Txn) error) error
	// Watch calls fn with the whole collection now and after every change,
	// until ctx ends or the store fails; it returns the reason (ctx.Err(), or
	// an error wrapping ErrUnreachable when the store cannot be reached).
	Watch(ctx context.Context, coll string, fn func([]Doc)) error
	// PutBlob stores bytes under id (photos); MaxBlobBytes is the limit.
	PutBlob(ctx context.Context, id string, data []byte) error
	// GetBlob returns the bytes stored under id, or an error wrapping ErrNotFound.
	GetBlob(ctx context.Context, id string) ([]byte, error)
	// Close releases the store's resources.
	Close() error
}

// Txn is the view of the store a transaction's function has (DB.Tx).
// Reads may come before or after writes: every Get sees the store as it
// was before the transaction's writes, which are made only at its commit.
// Each write returns the error that will abort the transaction when it is
// refused (an invalid id, a document that is not JSON or too large).
type Txn interface {
	// Get returns the document's JSON, or an error wrapping ErrNotFound.
	Get(coll, id string) ([]byte, error)
	// Create stages a new document (see DB.Tx for one that exists).
	Create(coll, id string, doc []byte) error
	// Put stages creating or replacing a document.
	Put(coll, id string, doc []byte) error
	// Delete stages removing a document; one that does not exist is no error.
	Delete(coll, id string) error
}

// MaxTxWrites is the most writes one transaction makes: Firestore's limit.
const MaxTxWrites = 500

// MaxPage is the most documents one Page returns.
const MaxPage = 1000

// ErrBadTx means a transaction breaks a rule that Firestore sets and
// every store keeps: at most MaxTxWrites writes, at most one of each
// document.
var ErrBadTx = errors.New("transaction refused")

// txWrite is one staged write of a transaction; Local's journal keeps them
// as JSON.
type txWrite struct {
	Coll   string          `json:"coll"`
	ID     string          `json:"id"`
	Doc    json.RawMessage `json:"doc,omitempty"`
	Delete bool            `json:"delete,omitempty"`
	Create bool            `json:"create,omitempty"`
}

// txStage collects a transaction's writes and the first refusal among
// them, which aborts it even when fn ignored it.
type txStage struct {
	// check reports whether a store takes coll/id (its own id rules).
	check  func(coll, id string) error
	writes []txWrite
	err    error
}

// add stages w once check and checkDoc take it, and returns the refusal
// otherwise.
func (s *txStage) add(w txWrite) error {
	err := s.check(w.Coll, w.ID)
	if err == nil && !w.Delete {
		err = checkDoc(w.Coll, w.ID, w.Doc)
	}
	if err == nil && len(s.writes) >= MaxTxWrites {
		err = fmt.Errorf("docstore: %w: more than %d writes", ErrBadTx, MaxTxWrites)
	}
	if err == nil && slices.ContainsFunc(s.writes, func(o txWrite) bool { return o.Coll == w.Coll && o.ID == w.ID }) {
		err = fmt.Errorf("docstore: %w: %s/%s written twice", ErrBadTx, w.Coll, w.ID)
	}
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return err
	}
	s.writes = append(s.writes, w)
	return nil
}

func (s *txStage) Create(coll, id string, doc []byte) error {
	return s.add(txWrite{Coll: coll, ID: id, Doc: doc, Create: true})
}

func (s *txStage) Put(coll, id string, doc []byte) error {
	return s.add(txWrite{Coll: coll, ID: id, Doc: doc})
}

func (s *txStage) Delete(coll, id string) error {
	return s.add(txWrite{Coll: coll, ID: id, Delete: true})
}

// checkLimit reports whether limit is one Page takes.
func checkLimit(limit int) error {
	if limit < 1 || limit > MaxPage {
		return fmt.Errorf("docstore: a page of %d documents: want 1 to %d", limit, MaxPage)
	}
	return nil
}

// MaxBlobBytes is the largest blob every store keeps: a Firestore document
// holds at most 1 MiB, less its name and field names.
const MaxBlobBytes = 1_000_000

// MaxDocBytes is the largest document every store keeps, for the same reason.
const MaxDocBytes = 1_000_000

// MaxIDBytes is Firestore's limit on the size of a document id.
const MaxIDBytes = 1500

// BlobCollection is where blobs live in Firestore; no collection of
// documents may take its name, in any case (Local keeps blobs in a "blobs"
// directory beside the collections' directories, and some file systems
// ignore case).
const BlobCollection = "Blobs"

// reservedID is Firestore's reserved form of ids.
var reservedID = regexp.MustCompile(`^__.*__$`)

// ValidateFirestoreID reports whether Firestore takes id as a document id:
// not empty, at most MaxIDBytes, not "." or "..", not of the reserved form
// __.*__ and no slash. Its errors wrap invalid, the caller's sentinel.
func ValidateFirestoreID(id string, invalid error) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", invalid)
	case len(id) > MaxIDBytes:
		return fmt.Errorf("%w: %d bytes, more than %d", invalid, len(id), MaxIDBytes)
	case id == "." || id == "..":
		return fmt.Errorf("%w: %q", invalid, id)
	case reservedID.MatchString(id):
		return fmt.Errorf("%w: %q matches the reserved form __.*__", invalid, id)
	case strings.Contains(id, "/"):
		return fmt.Errorf("%w: %q contains a slash", invalid, id)
	}
	return nil
}

// ValidateFileID reports whether id can name a Firestore document and a
// file of a local store: ValidateFirestoreID's rules, at most maxBytes, not
// hidden (a leading dot also marks temporary files) and free of NUL and
// backslash, which Windows and some tools read as path syntax. Its errors
// wrap invalid, the caller's sentinel.
func ValidateFileID(id string, maxBytes int, invalid error) error {
	if err := ValidateFirestoreID(id, invalid); err != nil {
		return err
	}
	switch {
	case len(id) > maxBytes:
		return fmt.Errorf("%w: %d bytes, more than %d for a file name", invalid, len(id), maxBytes)
	case strings.HasPrefix(id, "."):
		return fmt.Errorf("%w: %q starts with a dot", invalid, id)
	case strings.ContainsAny(id, "\x00\\"):
		return fmt.Errorf("%w: %q contains a NUL or backslash", invalid, id)
	}
	return nil
}

// ValidateID reports whether id can name a document, a blob or a
// collection in every store: ValidateFileID's rules, with Firestore's limit
// on length (Local has its own, shorter one). Errors wrap ErrInvalidID.
func ValidateID(id string) error { return validateUpTo(id, MaxIDBytes) }

// validateUpTo is ValidateFileID with this package's sentinel and prefix.
func validateUpTo(id string, maxBytes int) error {
	if err := ValidateFileID(id, maxBytes, ErrInvalidID); err != nil {
		return fmt.Errorf("docstore: %w", err)
	}
	return nil
}

// validateColl is ValidateID for a collection of documents, which also may
// not be BlobCollection.
func validateColl(coll string) error {
	if err := ValidateID(coll); err != nil {
		return err
	}
	if strings.EqualFold(coll, BlobCollection) {
		return fmt.Errorf("docstore: %w: collection %q is where blobs are kept", ErrInvalidID, coll)
	}
	return nil
}

// checkDoc reports whether doc can be stored: JSON of at most MaxDocBytes.
func checkDoc(coll, id string, doc []byte) error {
	if len(doc) > MaxDocBytes {
		return fmt.Errorf("docstore: %s/%s: %w: %d bytes, more than %d", coll, id, ErrTooLarge, len(doc), MaxDocBytes)
	}
	if !json.Valid(doc) {
		return fmt.Errorf("docstore: %s/%s: %w", coll, id, ErrNotJSON)
	}
	return nil
}

// checkBlob reports whether data can be stored as a blob.
func checkBlob(id string, data []byte) error {
	if len(data) > MaxBlobBytes {
		return fmt.Errorf("docstore: blob %s: %w: %d bytes, more than %d", id, ErrTooLarge, len(data), MaxBlobBytes)
	}
	return nil
}
