package news

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
)

// ErrUnknownStore means Config.Kind names no store.
var ErrUnknownStore = errors.New("unknown news store")

// Config says which store holds the news and where the app keeps its files.
type Config struct {
	// Kind is "local" (one markdown file per article in Dir/news) or
	// "firestore" (the News collection of Project); "" means local.
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
	switch cfg.Kind {
	case "", "local":
		return OpenLocal(filepath.Join(cfg.Dir, "news"), cfg.Logger)
	case "firestore":
		return OpenFirestore(ctx, cfg.Project)
	default:
		return nil, fmt.Errorf("%w %q: want local or firestore", ErrUnknownStore, cfg.Kind)
	}
}

// Start opens the store and runs a Hub over it, with its cache in
// Dir/cache/news.json, until stop is called; stop waits for the hub to end
// and closes the store.
func Start(cfg Config) (hub *Hub, stop func(), err error) {
	store, err := Open(context.Background(), cfg)
	if err != nil {
		return nil, nil, err
	}
	// The cache directory also holds the pit display's cache.
	cacheDir := filepath.Join(cfg.Dir, "cache")
	removeStale(cacheDir, cmp.Or(cfg.Logger, slog.Default()))
	hub = NewHub(HubOptions{
		Store:     store,
		CacheFile: filepath.Join(cacheDir, "news.json"),
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
