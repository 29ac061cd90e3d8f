package docstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/atomicfile"
	"github.com/robohornets/robohornets/internal/dirwatch"
)

// MaxLocalIDBytes is the longest id or collection name Local takes: a file
// name "<id>.json" and atomicfile's temporary name beside it,
// ".<id>.json.tmp-" and up to 10 digits, must fit the 255-byte limit of
// common file systems.
const MaxLocalIDBytes = 200

// blobDir is the directory of Local's blobs, beside the collections'.
const blobDir = "blobs"

// lockName is the file Local locks, in its directory, for the writes of
// every process that shares it.
const lockName = ".lock"

// Local keeps documents as files in a directory: DIR/<collection>/<id>.json,
// and blobs as DIR/blobs/<id>. Writes are atomic (atomicfile), so a crash
// never leaves half a document, and files written by hand or by another
// process are read like any other.
//
// Writes of documents (Create, Put, Delete, Update, Tx) hold a lock on the
// whole directory: a mutex shared by every Local of this process on the
// same directory, and on Unix systems an advisory lock (flock) on DIR/.lock,
// which serve and the admin command take alike. On other systems only the
// mutex is taken, so two processes must not write to one directory at once
// there. Reads take no lock: a rename replaces a file whole.
//
// Ids and collection names follow ValidateID and are also at most
// MaxLocalIDBytes long; on a file system that ignores case (macOS, Windows)
// two ids that differ only in case name the same document.
type Local struct {
	dir string
	// mu is the in-process half of the lock, shared with every Local on dir.
	mu *sync.Mutex
}

// dirMutexes holds the in-process lock of each directory a Local has
// opened, by absolute path, so that two Locals on one directory in one
// process exclude each other also where there is no flock.
var dirMutexes sync.Map // string → *sync.Mutex

// OpenLocal opens the store in dir, creating it if needed. The temporary
// files of writes killed long ago are removed from its collections; a
// failure to remove them is no error, as readers skip them anyway.
func OpenLocal(dir string) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("docstore: open %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("docstore: open %s: %w", dir, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("docstore: open %s: %w", dir, err)
	}
	// File times are wall time, so they are compared with time.Now.
	_, _ = atomicfile.RemoveStale(abs, time.Now()) // a journal's
	for _, e := range entries {
		if e.IsDir() {
			_, _ = atomicfile.RemoveStale(filepath.Join(abs, e.Name()), time.Now())
		}
	}
	mu, _ := dirMutexes.LoadOrStore(abs, new(sync.Mutex))
	l := &Local{dir: abs, mu: mu.(*sync.Mutex)}
	// Finish the transaction a killed writer left, before anyone reads.
	unlock, err := l.lock()
	if err != nil {
		return nil, fmt.Errorf("docstore: open %s: %w", dir, err)
	}
	unlock()
	return l, nil
}

// validateLocal is ValidateID with Local's limit on length.
func validateLocal(id string) error { return validateUpTo(id, MaxLocalIDBytes) }

// collDir returns the directory of collection coll.
func (l *Local) collDir(coll string) (string, error) {
	if err := validateColl(coll); err != nil {
		return "", err
	}
	if err := validateLocal(coll); err != nil {
		return "", err
	}
	return filepath.Join(l.dir, coll), nil
}

// docPath returns the file of document coll/id.
func (l *Local) docPath(coll, id string) (string, error) {
	dir, err := l.collDir(coll)
	if err != nil {
		return "", err
	}
	if err := validateLocal(id); err != nil {
		return "", err
	}
	return filepath.Join(dir, id+".json"), nil
}

// lock takes the directory's lock for a write and returns its release.
// It first finishes the transaction of a writer killed mid-commit, if any
// (Tx).
func (l *Local) lock() (unlock func(), err error) {
	l.mu.Lock()
	release, err := lockFile(filepath.Join(l.dir, lockName))
	if err != nil {
		l.mu.Unlock()
		return nil, fmt.Errorf("docstore: lock %s: %w", l.dir, err)
	}
	unlock = func() {
		release()
		l.mu.Unlock()
	}
	if err := l.recoverJournal(); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// read returns the file at p, or nil when there is none.
func read(p string) ([]byte, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// write stores doc at p, creating its collection's directory if needed.
func write(p string, doc []byte) error {
	return atomicfile.WriteAll(p, doc)
}

// remove removes the file at p; one that is not there is no error.
func remove(p string) error {
	err := os.Remove(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return atomicfile.SyncDir(filepath.Dir(p))
}

// Get returns the document coll/id.
func (l *Local) Get(_ context.Context, coll, id string) ([]byte, error) {
	p, err := l.docPath(coll, id)
	if err != nil {
		return nil, err
	}
	data, err := read(p)
	if err != nil {
		return nil, fmt.Errorf("docstore: get %s/%s: %w", coll, id, err)
	}
	if data == nil {
		return nil, fmt.Errorf("docstore: %s/%s: %w", coll, id, ErrNotFound)
	}
	return data, nil
}

// Create stores a new document coll/id.
func (l *Local) Create(ctx context.Context, coll, id string, doc []byte) error {
	return l.Update(ctx, coll, id, func(cur []byte) ([]byte, error) {
		if cur != nil {
			return nil, fmt.Errorf("docstore: create %s/%s: %w", coll, id, ErrExists)
		}
		return doc, nil
	})
}

// Put creates or replaces the document coll/id.
func (l *Local) Put(ctx context.Context, coll, id string, doc []byte) error {
	return l.Update(ctx, coll, id, func([]byte) ([]byte, error) { return doc, nil })
}

// Delete removes the document coll/id.
func (l *Local) Delete(ctx context.Context, coll, id string) error {
	return l.Update(ctx, coll, id, func([]byte) ([]byte, error) { return nil, nil })
}

// Update changes the document coll/id under the directory's lock. The lock
// is held while fn runs, so fn must be quick; ctx is not consulted while
// waiting for the lock, which other writers hold for a write's time only.
func (l *Local) Update(_ context.Context, coll, id string, fn func(cur []byte) ([]byte, error)) error {
	p, err := l.docPath(coll, id)
	if err != nil {
		return err
	}
	unlock, err := l.lock()
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := read(p)
	if err != nil {
		return fmt.Errorf("docstore: update %s/%s: %w", coll, id, err)
	}
	next, err := fn(cur)
	if err != nil {
		return err
	}
	if next == nil {
		if err := remove(p); err != nil {
			return fmt.Errorf("docstore: delete %s/%s: %w", coll, id, err)
		}
		return nil
	}
	if err := checkDoc(coll, id, next); err != nil {
		return err
	}
	if err := write(p, next); err != nil {
		return fmt.Errorf("docstore: write %s/%s: %w", coll, id, err)
	}
	return nil
}

// ids returns the directory of coll and the ids of its documents, in
// order. Files that are not documents (temporary files, other names) are
// left out; a collection never written has none. Only the directory is
// read, not the documents.
func (l *Local) ids(coll string) (string, []string, error) {
	dir, err := l.collDir(coll)
	if err != nil {
		return "", nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return dir, nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("docstore: list %s: %w", coll, err)
	}
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if ok && e.Type().IsRegular() && validateLocal(id) == nil {
			ids = append(ids, id)
		}
	}
	// File names sort "a-b.json" before "a.json"; ids sort "a" first.
	slices.Sort(ids)
	return dir, ids, nil
}

// readIDs returns the documents of coll with ids, in that order, at most
// limit of them (no limit when limit < 0); one deleted since its id was
// listed is left out.
func readIDs(coll, dir string, ids []string, limit int) ([]Doc, error) {
	docs := make([]Doc, 0, min(len(ids), max(limit, 0)))
	for _, id := range ids {
		if len(docs) == limit {
			break
		}
		data, err := read(filepath.Join(dir, id+".json"))
		if err != nil {
			return nil, fmt.Errorf("docstore: list %s: %w", coll, err)
		}
		if data != nil {
			docs = append(docs, Doc{ID: id, JSON: data})
		}
	}
	return docs, nil
}

// List returns the documents of coll by id.
func (l *Local) List(_ context.Context, coll string) ([]Doc, error) {
	dir, ids, err := l.ids(coll)
	if err != nil {
		return nil, err
	}
	return readIDs(coll, dir, ids, -1)
}

// Page returns at most limit documents of coll after the id after. The
// directory is listed whole, but only the page's documents are read.
func (l *Local) Page(_ context.Context, coll, after string, limit int) ([]Doc, error) {
	if err := checkLimit(limit); err != nil {
		return nil, err
	}
	dir, ids, err := l.ids(coll)
	if err != nil {
		return nil, err
	}
	i, found := slices.BinarySearch(ids, after)
	if found {
		i++
	}
	return readIDs(coll, dir, ids[i:], limit)
}

// journalName is the file, in Local's directory, that holds the writes of
// a transaction while they are made (Tx): a process killed among them
// leaves it, and the next writer or OpenLocal makes them all.
const journalName = ".tx-journal.json"

// localTxn is a transaction of Local: reads go to the files, under the
// directory's lock, and writes are staged for the commit.
type localTxn struct {
	txStage
	l *Local
}

func (t *localTxn) Get(coll, id string) ([]byte, error) {
	return t.l.Get(context.Background(), coll, id)
}

// Tx runs fn under the directory's lock, then makes its writes. A
// transaction of more than one write is first written whole to a journal,
// so that a process killed among the writes leaves them to be finished by
// the next writer (every write takes the lock, which finishes it first) or
// the next OpenLocal. Readers, which take no lock, may see part of such a
// transaction until then.
func (l *Local) Tx(_ context.Context, fn func(Txn) error) error {
	unlock, err := l.lock()
	if err != nil {
		return err
	}
	defer unlock()
	tx := &localTxn{txStage: txStage{check: l.docCheck}, l: l}
	if err := fn(tx); err != nil {
		return err
	}
	if tx.err != nil {
		return tx.err
	}
	if err := l.checkCreates(tx.writes); err != nil {
		return err
	}
	switch len(tx.writes) {
	case 0:
		return nil
	case 1:
		return l.apply(tx.writes[0])
	}
	data, err := json.Marshal(tx.writes)
	if err != nil {
		return fmt.Errorf("docstore: journal: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(l.dir, journalName), data); err != nil {
		return fmt.Errorf("docstore: journal: %w", err)
	}
	return l.finishJournal(tx.writes)
}

// docCheck reports whether coll/id names a document Local keeps.
func (l *Local) docCheck(coll, id string) error {
	_, err := l.docPath(coll, id)
	return err
}

// checkCreates returns an error wrapping ErrExists when a Create of writes
// meets a document.
func (l *Local) checkCreates(writes []txWrite) error {
	for _, w := range writes {
		if !w.Create {
			continue
		}
		p, _ := l.docPath(w.Coll, w.ID) // checked when staged
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			if err != nil {
				return fmt.Errorf("docstore: create %s/%s: %w", w.Coll, w.ID, err)
			}
			return fmt.Errorf("docstore: create %s/%s: %w", w.Coll, w.ID, ErrExists)
		}
	}
	return nil
}

// apply makes one write of a transaction.
func (l *Local) apply(w txWrite) error {
	p, err := l.docPath(w.Coll, w.ID)
	if err != nil {
		return err
	}
	if w.Delete {
		err = remove(p)
	} else {
		err = write(p, w.Doc)
	}
	if err != nil {
		return fmt.Errorf("docstore: transaction: write %s/%s: %w", w.Coll, w.ID, err)
	}
	return nil
}

// finishJournal makes the writes of the journal, in order, then removes
// it. Making a write again is harmless: each is a whole document or a
// removal.
func (l *Local) finishJournal(writes []txWrite) error {
	for _, w := range writes {
		if err := l.apply(w); err != nil {
			return err
		}
	}
	if err := remove(filepath.Join(l.dir, journalName)); err != nil {
		return fmt.Errorf("docstore: journal: %w", err)
	}
	return nil
}

// recoverJournal finishes the transaction of a journal that a process
// killed among its writes left; it runs under the lock.
func (l *Local) recoverJournal() error {
	data, err := read(filepath.Join(l.dir, journalName))
	if err != nil || data == nil {
		return err
	}
	var writes []txWrite
	if err := json.Unmarshal(data, &writes); err != nil {
		return fmt.Errorf("docstore: journal %s of an interrupted transaction: %w", filepath.Join(l.dir, journalName), err)
	}
	return l.finishJournal(writes)
}

// Watch calls fn with coll now and again after every change to its
// directory, which it creates if needed.
func (l *Local) Watch(ctx context.Context, coll string, fn func([]Doc)) error {
	dir, err := l.collDir(coll)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("docstore: watch %s: %w", coll, err)
	}
	return dirwatch.Watch(ctx, dir, func() error {
		docs, err := l.List(ctx, coll)
		if err == nil {
			fn(docs)
		}
		return err
	})
}

// blobPath returns the file of blob id.
func (l *Local) blobPath(id string) (string, error) {
	if err := validateLocal(id); err != nil {
		return "", err
	}
	return filepath.Join(l.dir, blobDir, id), nil
}

// PutBlob stores data as DIR/blobs/<id>.
func (l *Local) PutBlob(_ context.Context, id string, data []byte) error {
	p, err := l.blobPath(id)
	if err != nil {
		return err
	}
	if err := checkBlob(id, data); err != nil {
		return err
	}
	if err := atomicfile.WriteAll(p, data); err != nil {
		return fmt.Errorf("docstore: put blob %s: %w", id, err)
	}
	return nil
}

// GetBlob returns the blob id.
func (l *Local) GetBlob(_ context.Context, id string) ([]byte, error) {
	p, err := l.blobPath(id)
	if err != nil {
		return nil, err
	}
	data, err := read(p)
	if err != nil {
		return nil, fmt.Errorf("docstore: get blob %s: %w", id, err)
	}
	if data == nil {
		return nil, fmt.Errorf("docstore: blob %s: %w", id, ErrNotFound)
	}
	return data, nil
}

// Close does nothing: Local holds no open resources between calls.
func (l *Local) Close() error { return nil }

var _ DB = (*Local)(nil)
