package console

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/robohornets/robohornets/internal/docstore"
)

// The console's secret keys, documents of collKeys. Each is made once for
// the whole store, by whichever instance (or admin command) needs it
// first, so every instance, now and after a restart, shares it.
const (
	// keyCeremonies seals the WebAuthn ceremonies between their begin and
	// their finish (AES-256-GCM).
	keyCeremonies = "ceremonies"
	// keyTokens signs the session and invitation tokens (HMAC-SHA256).
	keyTokens = "tokens"
)

// keyBytes is the size of every key: AES-256's, and HMAC-SHA256's block
// of output.
const keyBytes = 32

// keyDoc is a key as collKeys keeps it.
type keyDoc struct {
	Key []byte `json:"key"`
}

// storeKey returns the key name of db, making it when there is none yet.
// Of two processes making it at once, one creates it and the other reads
// the winner's.
func storeKey(ctx context.Context, db docstore.DB, name string) ([]byte, error) {
	var doc keyDoc
	err := readDoc(ctx, db, collKeys, name, "key "+name, &doc)
	if errors.Is(err, docstore.ErrNotFound) {
		doc.Key = randomBytes(keyBytes)
		err = writeDoc(ctx, db.Create, collKeys, name, doc)
		if errors.Is(err, docstore.ErrExists) {
			err = readDoc(ctx, db, collKeys, name, "key "+name, &doc)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("console: key %s: %w", name, err)
	}
	if len(doc.Key) != keyBytes {
		return nil, fmt.Errorf("console: key %s is %d bytes, want %d", name, len(doc.Key), keyBytes)
	}
	return doc.Key, nil
}

// keyring keeps the keys an instance has read, so that only its first
// use of each costs a store read: a key never changes.
type keyring struct {
	mu   sync.Mutex
	keys map[string][]byte
}

// key returns the key name, read from the store on first use.
func (c *Console) key(ctx context.Context, name string) ([]byte, error) {
	c.keys.mu.Lock()
	defer c.keys.mu.Unlock()
	if k, ok := c.keys.keys[name]; ok {
		return k, nil
	}
	k, err := storeKey(ctx, c.opts.DB, name)
	if err != nil {
		return nil, err
	}
	if c.keys.keys == nil {
		c.keys.keys = map[string][]byte{}
	}
	c.keys.keys[name] = k
	return k, nil
}
