package docstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// callTimeout bounds every single Firestore read or write.
const callTimeout = 15 * time.Second

// updateTimeout bounds an Update with all its attempts, which the library
// spaces out more and more under contention.
const updateTimeout = time.Minute

// updateAttempts is how many times Update tries a transaction that
// contention aborts: the library's default of 5 is too few for a burst of
// writers on one document (every sign-in of a team at an event updates the
// same few).
const updateAttempts = 30

// Field names of the Firestore documents.
const (
	// jsonField holds a document's JSON text.
	jsonField = "json"
	// dataField holds a blob's bytes.
	dataField = "data"
)

// Firestore keeps each document as a Firestore document of the collection
// of the same name, with one string field, json, that holds the JSON text,
// and each blob as a document of the collection Blobs (BlobCollection)
// with one bytes field, data.
//
// The JSON is kept as text, not as Firestore fields, on purpose: every
// store then holds the same bytes, the console's types decide alone what a
// document contains (no second mapping of field names and types to keep
// in step, no float64 for every number), and nothing reads the documents
// field by field: the console lists, gets and rewrites them whole. The
// cost is that the Firebase console shows one string per document.
type Firestore struct {
	client *firestore.Client
	// firstSnapshot bounds Watch's wait for its first snapshot: callTimeout,
	// shorter in tests.
	firstSnapshot time.Duration
}

// NewFirestoreClient connects to the Firestore project projectID with
// Application Default Credentials, or to the emulator named by
// FIRESTORE_EMULATOR_HOST (the client library reads that variable itself).
// Its errors carry no package prefix: each caller adds its own.
func NewFirestoreClient(ctx context.Context, projectID string) (*firestore.Client, error) {
	if projectID == "" {
		return nil, errors.New("firestore needs a project id: pass --project or set GOOGLE_CLOUD_PROJECT")
	}
	client, err := firestore.NewClient(ctx, projectID)
	if err != nil {
		return nil, fmt.Errorf("connect to firestore project %q: %w", projectID, err)
	}
	return client, nil
}

// OpenFirestore opens the store on the client NewFirestoreClient returns.
func OpenFirestore(ctx context.Context, projectID string) (*Firestore, error) {
	client, err := NewFirestoreClient(ctx, projectID)
	if err != nil {
		return nil, fmt.Errorf("docstore: %w", err)
	}
	return &Firestore{client: client, firstSnapshot: callTimeout}, nil
}

// doc returns the reference of coll/id, once both are valid.
func (s *Firestore) doc(coll, id string) (*firestore.DocumentRef, error) {
	if err := validateColl(coll); err != nil {
		return nil, err
	}
	if err := ValidateID(id); err != nil {
		return nil, err
	}
	return s.client.Collection(coll).Doc(id), nil
}

// jsonOf returns the JSON of a document snapshot.
func jsonOf(snap *firestore.DocumentSnapshot) ([]byte, error) {
	v, err := snap.DataAt(jsonField)
	if err != nil {
		return nil, fmt.Errorf("docstore: %s: %w", snap.Ref.Path, err)
	}
	text, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("docstore: %s: field %s is %T, want a string", snap.Ref.Path, jsonField, v)
	}
	return []byte(text), nil
}

// fields returns the Firestore fields that hold doc.
func fields(doc []byte) map[string]any { return map[string]any{jsonField: string(doc)} }

// Get returns the document coll/id.
func (s *Firestore) Get(ctx context.Context, coll, id string) ([]byte, error) {
	ref, err := s.doc(coll, id)
	if err != nil {
		return nil, err
	}
	snap, err := get(ctx, ref, coll+"/"+id)
	if err != nil {
		return nil, err
	}
	return jsonOf(snap)
}

// get reads the document ref within callTimeout; name names it in errors.
func get(ctx context.Context, ref *firestore.DocumentRef, name string) (*firestore.DocumentSnapshot, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	snap, err := ref.Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, fmt.Errorf("docstore: %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("docstore: get %s: %w", name, err)
	}
	return snap, nil
}

// Create stores a new document coll/id; Firestore itself refuses an id
// that is taken.
func (s *Firestore) Create(ctx context.Context, coll, id string, doc []byte) error {
	return s.write(ctx, coll, id, doc, func(ctx context.Context, ref *firestore.DocumentRef) error {
		_, err := ref.Create(ctx, fields(doc))
		if status.Code(err) == codes.AlreadyExists {
			return fmt.Errorf("docstore: create %s/%s: %w", coll, id, ErrExists)
		}
		if err != nil {
			return fmt.Errorf("docstore: create %s/%s: %w", coll, id, err)
		}
		return nil
	})
}

// Put creates or replaces the document coll/id.
func (s *Firestore) Put(ctx context.Context, coll, id string, doc []byte) error {
	return s.write(ctx, coll, id, doc, func(ctx context.Context, ref *firestore.DocumentRef) error {
		if _, err := ref.Set(ctx, fields(doc)); err != nil {
			return fmt.Errorf("docstore: put %s/%s: %w", coll, id, err)
		}
		return nil
	})
}

// write checks coll, id and doc, then runs call on the document's
// reference within callTimeout.
func (s *Firestore) write(ctx context.Context, coll, id string, doc []byte, call func(context.Context, *firestore.DocumentRef) error) error {
	ref, err := s.doc(coll, id)
	if err != nil {
		return err
	}
	if err := checkDoc(coll, id, doc); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	return call(ctx, ref)
}

// Delete removes the document coll/id.
func (s *Firestore) Delete(ctx context.Context, coll, id string) error {
	ref, err := s.doc(coll, id)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if _, err := ref.Delete(ctx); err != nil {
		return fmt.Errorf("docstore: delete %s/%s: %w", coll, id, err)
	}
	return nil
}

// Update changes the document coll/id in a Firestore transaction, which
// Firestore retries (calling fn again) when another writer got there
// first.
func (s *Firestore) Update(ctx context.Context, coll, id string, fn func(cur []byte) ([]byte, error)) error {
	ref, err := s.doc(coll, id)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, updateTimeout)
	defer cancel()
	// fnErr tells fn's own error from the transaction's, which is wrapped.
	var fnErr error
	err = s.client.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		fnErr = nil
		var cur []byte
		snap, err := tx.Get(ref)
		switch {
		case status.Code(err) == codes.NotFound:
		case err != nil:
			return err
		default:
			if cur, err = jsonOf(snap); err != nil {
				return err
			}
		}
		next, err := fn(cur)
		if err != nil {
			fnErr = err
			return err
		}
		if next == nil {
			if cur == nil {
				return nil
			}
			return tx.Delete(ref)
		}
		if err := checkDoc(coll, id, next); err != nil {
			fnErr = err
			return err
		}
		return tx.Set(ref, fields(next))
	}, firestore.MaxAttempts(updateAttempts))
	if err != nil && fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("docstore: update %s/%s: %w", coll, id, err)
	}
	return nil
}

// docs returns the documents of snaps, which Firestore orders by id. One
// without its JSON field was not written by this package: it is left out.
func docs(snaps []*firestore.DocumentSnapshot) []Doc {
	list := make([]Doc, 0, len(snaps))
	for _, snap := range snaps {
		data, err := jsonOf(snap)
		if err != nil {
			continue
		}
		list = append(list, Doc{ID: snap.Ref.ID, JSON: data})
	}
	return list
}

// List returns the documents of coll by id.
func (s *Firestore) List(ctx context.Context, coll string) ([]Doc, error) {
	if err := validateColl(coll); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	snaps, err := s.client.Collection(coll).OrderBy(firestore.DocumentID, firestore.Asc).Documents(ctx).GetAll()
	if err != nil {
		return nil, fmt.Errorf("docstore: list %s: %w", coll, err)
	}
	return docs(snaps), nil
}

// Page returns at most limit documents of coll after the id after, by a
// query ordered by document id. Documents this package did not write (no
// JSON field) are skipped, and the query goes on past them, so that fewer
// than limit still means the end.
func (s *Firestore) Page(ctx context.Context, coll, after string, limit int) ([]Doc, error) {
	if err := validateColl(coll); err != nil {
		return nil, err
	}
	if err := checkLimit(limit); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	list := make([]Doc, 0, limit)
	for {
		want := limit - len(list)
		q := s.client.Collection(coll).OrderBy(firestore.DocumentID, firestore.Asc).Limit(want)
		if after != "" {
			q = q.StartAfter(after)
		}
		snaps, err := q.Documents(ctx).GetAll()
		if err != nil {
			return nil, fmt.Errorf("docstore: list %s: %w", coll, err)
		}
		list = append(list, docs(snaps)...)
		if len(snaps) < want || len(list) == limit {
			return list, nil
		}
		after = snaps[len(snaps)-1].Ref.ID
	}
}

// firestoreTxn is a transaction of Firestore: reads go to the transaction,
// writes are staged and given to it when fn has returned, since Firestore
// refuses a read after a write.
type firestoreTxn struct {
	txStage
	s  *Firestore
	tx *firestore.Transaction
}

func (t *firestoreTxn) Get(coll, id string) ([]byte, error) {
	ref, err := t.s.doc(coll, id)
	if err != nil {
		return nil, err
	}
	snap, err := t.tx.Get(ref)
	if status.Code(err) == codes.NotFound {
		return nil, fmt.Errorf("docstore: %s/%s: %w", coll, id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("docstore: get %s/%s: %w", coll, id, err)
	}
	return jsonOf(snap)
}

// docCheck reports whether coll/id names a document Firestore takes.
func docCheck(coll, id string) error {
	if err := validateColl(coll); err != nil {
		return err
	}
	return ValidateID(id)
}

// Tx runs fn in a Firestore transaction, which Firestore retries (calling
// fn again) when another writer got there first.
func (s *Firestore) Tx(ctx context.Context, fn func(Txn) error) error {
	ctx, cancel := context.WithTimeout(ctx, updateTimeout)
	defer cancel()
	// fnErr tells fn's own error (or a refused write's) from the
	// transaction's, which is wrapped.
	var fnErr error
	var creates []txWrite
	err := s.client.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		t := &firestoreTxn{txStage: txStage{check: docCheck}, s: s, tx: tx}
		fnErr = fn(t)
		if fnErr == nil {
			fnErr = t.err
		}
		if fnErr != nil {
			return fnErr
		}
		creates = creates[:0]
		for _, w := range t.writes {
			ref := s.client.Collection(w.Coll).Doc(w.ID)
			var err error
			switch {
			case w.Delete:
				err = tx.Delete(ref)
			case w.Create:
				creates = append(creates, w)
				err = tx.Create(ref, fields(w.Doc))
			default:
				err = tx.Set(ref, fields(w.Doc))
			}
			if err != nil {
				return err
			}
		}
		return nil
	}, firestore.MaxAttempts(updateAttempts))
	switch {
	case err == nil:
		return nil
	case fnErr != nil:
		return fnErr
	case status.Code(err) == codes.AlreadyExists:
		// Firestore does not say which: name the creates.
		names := make([]string, len(creates))
		for i, w := range creates {
			names[i] = w.Coll + "/" + w.ID
		}
		return fmt.Errorf("docstore: transaction: create one of %s: %w", strings.Join(names, ", "), ErrExists)
	}
	return fmt.Errorf("docstore: transaction: %w", err)
}

// errNoFirstSnapshot ends a Watch whose first snapshot does not come. It
// says no more than that: a hub's status is shown to people.
var errNoFirstSnapshot = fmt.Errorf("docstore: firestore is %w", ErrUnreachable)

// Watch follows coll with a snapshot listener: Firestore sends the whole
// collection first, then again after every change.
//
// The client library retries a broken listener itself, behind backoffs of
// up to minutes, and never reports an outage to it. So Watch returns an
// error wrapping ErrUnreachable when the first snapshot does not come
// within callTimeout (Firestore unreachable when Watch starts); an outage
// after that only delays the next call of fn until the library has
// reconnected. (news.FirestoreStore follows Firestore's reachability on a
// gRPC link of its own to see such outages at once; that link is unexported
// in package news, and should move to a package of its own for Watch to
// use it too.)
func (s *Firestore) Watch(ctx context.Context, coll string, fn func([]Doc)) error {
	if err := validateColl(coll); err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	first := time.AfterFunc(s.firstSnapshot, func() { cancel(errNoFirstSnapshot) })
	defer first.Stop()
	return ListenFirestore(ctx, s.client.Collection(coll).Query, "docstore: watch "+coll, func(_ *firestore.QuerySnapshot, snaps []*firestore.DocumentSnapshot) error {
		if !first.Stop() && ctx.Err() != nil {
			return context.Cause(ctx) // the first snapshot came too late
		}
		fn(docs(snaps))
		return nil
	})
}

// ListenFirestore runs a snapshot listener on q and calls fn with each
// snapshot and its documents. It returns context.Cause(ctx) once ctx ends,
// fn's error when fn fails, and the listener's error, after what and a
// colon, when the listener fails.
func ListenFirestore(ctx context.Context, q firestore.Query, what string, fn func(*firestore.QuerySnapshot, []*firestore.DocumentSnapshot) error) error {
	it := q.Snapshots(ctx)
	defer it.Stop()
	for {
		snap, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return fmt.Errorf("%s: %w", what, err)
		}
		snaps, err := snap.Documents.GetAll()
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if err := fn(snap, snaps); err != nil {
			return err
		}
	}
}

// blob returns the reference of blob id, once it is valid.
func (s *Firestore) blob(id string) (*firestore.DocumentRef, error) {
	if err := ValidateID(id); err != nil {
		return nil, err
	}
	return s.client.Collection(BlobCollection).Doc(id), nil
}

// PutBlob stores data as the document Blobs/<id>.
func (s *Firestore) PutBlob(ctx context.Context, id string, data []byte) error {
	ref, err := s.blob(id)
	if err != nil {
		return err
	}
	if err := checkBlob(id, data); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if _, err := ref.Set(ctx, map[string]any{dataField: data}); err != nil {
		return fmt.Errorf("docstore: put blob %s: %w", id, err)
	}
	return nil
}

// GetBlob returns the blob id.
func (s *Firestore) GetBlob(ctx context.Context, id string) ([]byte, error) {
	ref, err := s.blob(id)
	if err != nil {
		return nil, err
	}
	snap, err := get(ctx, ref, "blob "+id)
	if err != nil {
		return nil, err
	}
	v, err := snap.DataAt(dataField)
	if err != nil {
		return nil, fmt.Errorf("docstore: blob %s: %w", id, err)
	}
	data, ok := v.([]byte)
	if !ok {
		return nil, fmt.Errorf("docstore: blob %s: field %s is %T, want bytes", id, dataField, v)
	}
	return data, nil
}

// Close closes the Firestore client.
func (s *Firestore) Close() error { return s.client.Close() }

var _ DB = (*Firestore)(nil)
