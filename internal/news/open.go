package news

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/robohornets/robohornets/internal/datadir"
)

// ErrUnknownStore means Config.Kind names no store.
var ErrUnknownStore = errors.New("unknown news store")

// The kinds of news store (Config.Kind, --store).
const (
	// StoreLocal keeps one markdown file per article in the data directory.
	StoreLocal = "local"
	// StoreFirestore is the News collection of a Firestore project.
	StoreFirestore = "firestore"
)

// CheckKind returns an error wrapping ErrUnknownStore unless kind names a
// store ("" is StoreLocal).
func CheckKind(kind string) error {
	switch kind {
	case "", StoreLocal, StoreFirestore:
		return nil
	}
	return fmt.Errorf("%w %q: want %s or %s", ErrUnknownStore, kind, StoreLocal, StoreFirestore)
}

// Config says which store holds the news and where the app keeps its files.
type Config struct {
	// Kind is StoreLocal (one markdown file per article in Dir's News
	// directory) or StoreFirestore (the News collection of Project); ""
	// means StoreLocal.
	Kind string
	// Dir is the app's data directory: the local store's files and the
	// cache of the last good list live below it.
	Dir string
	// Project is the Firestore project id; required for firestore.
	Project string
	// Logger receives store errors; nil means slog.Default().
	Logger *slog.Logger
}

// Open opens the store that cfg names.
func Open(ctx context.Context, cfg Config) (Store, error) {
	if err := CheckKind(cfg.Kind); err != nil {
		return nil, err
	}
	if cfg.Kind == StoreFirestore {
		return OpenFirestore(ctx, cfg.Project)
	}
	return OpenLocal(datadir.Dir(cfg.Dir).News(), cfg.Logger)
}

// Store returns the store the hub watches, for a writer in the same process
// (the console publishes through it).
func (h *Hub) Store() Store { return h.opts.Store }

// Start opens the store and runs a Hub over it, with its cache in Dir's
// NewsCache, until stop is called; stop waits for the hub to end
// and closes the store.
func Start(cfg Config) (hub *Hub, stop func(), err error) {
	store, err := Open(context.Background(), cfg)
	if err != nil {
		return nil, nil, err
	}
	// The cache directory also holds the pit display's cache.
	dir := datadir.Dir(cfg.Dir)
	removeStale(dir.Cache(), cmp.Or(cfg.Logger, slog.Default()))
	hub = NewHub(HubOptions{
		Store:     store,
		CacheFile: dir.NewsCache(),
		Logger:    cfg.Logger,
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hub.Run(ctx)
	}()
	return hub, func() {
		cancel()
		<-done
		_ = store.Close() // shutting down: nothing is left to report to
	}, nil
}
