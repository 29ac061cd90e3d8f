package console

import (
	"context"
	"errors"
	"sync"

	"github.com/robohornets/robohornets/internal/docstore"
)

// countingDB is a real store that counts, by collection, the documents and
// blobs read from it and the writes made to it, and fails every write to
// the collection failWrites (when not ""): what the attacker tests measure
// an anonymous request's cost with, and how they make the audit log fail.
type countingDB struct {
	docstore.DB
	failWrites string

	mu     sync.Mutex
	reads  map[string]int
	writes map[string]int
}

// errInjected is the failure countingDB injects.
var errInjected = errors.New("injected store failure")

func newCountingDB(db docstore.DB) *countingDB {
	return &countingDB{DB: db, reads: map[string]int{}, writes: map[string]int{}}
}

// read counts n documents read from coll.
func (c *countingDB) read(coll string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads[coll] += n
}

// write counts a write to coll, and returns the injected failure when coll
// is failWrites.
func (c *countingDB) write(coll string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes[coll]++
	if coll == c.failWrites {
		return errInjected
	}
	return nil
}

// counts returns the reads and writes of every collection since the last
// reset.
func (c *countingDB) counts() (reads, writes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.reads {
		reads += n
	}
	for _, n := range c.writes {
		writes += n
	}
	return reads, writes
}

// readsOf returns the documents read from coll since the last reset.
func (c *countingDB) readsOf(coll string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[coll]
}

// reset starts the counts again.
func (c *countingDB) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads, c.writes = map[string]int{}, map[string]int{}
}

func (c *countingDB) Get(ctx context.Context, coll, id string) ([]byte, error) {
	c.read(coll, 1)
	return c.DB.Get(ctx, coll, id)
}

func (c *countingDB) List(ctx context.Context, coll string) ([]docstore.Doc, error) {
	docs, err := c.DB.List(ctx, coll)
	c.read(coll, max(1, len(docs)))
	return docs, err
}

func (c *countingDB) Create(ctx context.Context, coll, id string, doc []byte) error {
	if err := c.write(coll); err != nil {
		return err
	}
	return c.DB.Create(ctx, coll, id, doc)
}

func (c *countingDB) Put(ctx context.Context, coll, id string, doc []byte) error {
	if err := c.write(coll); err != nil {
		return err
	}
	return c.DB.Put(ctx, coll, id, doc)
}

func (c *countingDB) Delete(ctx context.Context, coll, id string) error {
	if err := c.write(coll); err != nil {
		return err
	}
	return c.DB.Delete(ctx, coll, id)
}

func (c *countingDB) Update(ctx context.Context, coll, id string, fn func([]byte) ([]byte, error)) error {
	c.read(coll, 1)
	if err := c.write(coll); err != nil {
		return err
	}
	return c.DB.Update(ctx, coll, id, fn)
}

func (c *countingDB) GetBlob(ctx context.Context, id string) ([]byte, error) {
	c.read(docstore.BlobCollection, 1)
	return c.DB.GetBlob(ctx, id)
}

func (c *countingDB) PutBlob(ctx context.Context, id string, data []byte) error {
	if err := c.write(docstore.BlobCollection); err != nil {
		return err
	}
	return c.DB.PutBlob(ctx, id, data)
}

func (c *countingDB) Page(ctx context.Context, coll, after string, limit int) ([]docstore.Doc, error) {
	docs, err := c.DB.Page(ctx, coll, after, limit)
	c.read(coll, max(1, len(docs)))
	return docs, err
}

func (c *countingDB) Tx(ctx context.Context, fn func(docstore.Txn) error) error {
	return c.DB.Tx(ctx, func(tx docstore.Txn) error { return fn(countingTxn{tx, c}) })
}

// countingTxn counts the reads and writes of a transaction of a countingDB.
type countingTxn struct {
	docstore.Txn
	c *countingDB
}

func (t countingTxn) Get(coll, id string) ([]byte, error) {
	t.c.read(coll, 1)
	return t.Txn.Get(coll, id)
}

func (t countingTxn) Create(coll, id string, doc []byte) error {
	if err := t.c.write(coll); err != nil {
		return err
	}
	return t.Txn.Create(coll, id, doc)
}

func (t countingTxn) Put(coll, id string, doc []byte) error {
	if err := t.c.write(coll); err != nil {
		return err
	}
	return t.Txn.Put(coll, id, doc)
}

func (t countingTxn) Delete(coll, id string) error {
	if err := t.c.write(coll); err != nil {
		return err
	}
	return t.Txn.Delete(coll, id)
}
