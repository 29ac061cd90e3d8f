package docstore

import (
	"cmp"
	"context"
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
// Writes of documents (Create, Put, Delete, Update) hold a lock on the
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
	for _, e := range entries {
		if e.IsDir() {
			// File times are wall time, so they are compared with time.Now.
			_, _ = atomicfile.RemoveStale(filepath.Join(abs, e.Name()), time.Now())
		}
	}
	mu, _ := dirMutexes.LoadOrStore(abs, new(sync.Mutex))
	return &Local{dir: abs, mu: mu.(*sync.Mutex)}, nil
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
func (l *Local) lock() (unlock func(), err error) {
	l.mu.Lock()
	release, err := lockFile(filepath.Join(l.dir, lockName))
	if err != nil {
		l.mu.Unlock()
		return nil, fmt.Errorf("docstore: lock %s: %w", l.dir, err)
	}
	return func() {
		release()
		l.mu.Unlock()
	}, nil
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

// List returns the documents of coll by id. Files that are not documents
// (temporary files, other names) are left out; a collection never written
// is empty.
func (l *Local) List(_ context.Context, coll string) ([]Doc, error) {
	dir, err := l.collDir(coll)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []Doc{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("docstore: list %s: %w", coll, err)
	}
	docs := make([]Doc, 0, len(entries))
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() || validateLocal(id) != nil {
			continue
		}
		data, err := read(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("docstore: list %s: %w", coll, err)
		}
		if data == nil {
			continue // deleted since ReadDir
		}
		docs = append(docs, Doc{ID: id, JSON: data})
	}
	// File names sort "a-b.json" before "a.json"; ids sort "a" first.
	slices.SortFunc(docs, func(a, b Doc) int { return cmp.Compare(a.ID, b.ID) })
	return docs, nil
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
