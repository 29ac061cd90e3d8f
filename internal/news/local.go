package news

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/atomicfile"
	"github.com/robohornets/robohornets/internal/dirwatch"
)

// LocalStore keeps one markdown file per article, DIR/<id>.md, as written by
// FormatFile. Writes are atomic (temporary file, fsync, rename), so a crash
// never leaves half an article; editing a file by hand updates every viewer.
type LocalStore struct {
	dir    string
	logger *slog.Logger
}

// OpenLocal opens the local store in dir. A directory that does not exist yet
// is created and seeded with SampleArticles, so a new install shows news. In
// one that does, the temporary files of writes that died long ago are
// removed. A nil logger means slog.Default().
func OpenLocal(dir string, logger *slog.Logger) (*LocalStore, error) {
	if logger == nil {
		logger = slog.Default()
	}
	s := &LocalStore{dir: dir, logger: logger}
	_, err := os.Stat(dir)
	if err == nil {
		removeStale(s.dir, s.logger)
		return s, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("news: open local store: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("news: open local store: %w", err)
	}
	samples, err := SampleArticles()
	if err != nil {
		return nil, err
	}
	for _, a := range samples {
		if err := s.Put(context.Background(), a); err != nil {
			return nil, fmt.Errorf("news: seed local store: %w", err)
		}
	}
	return s, nil
}

// removeStale removes from dir the temporary files that writes killed half
// way left behind (news commands in the store, cache writes in the cache
// directory; readers already skip them), so they do not pile up over the
// years. It only logs a failure: a store that can be read is open, even when
// the directory is read-only. File times are wall time, so they are compared
// with time.Now, not with an injected clock.
func removeStale(dir string, logger *slog.Logger) {
	removed, err := atomicfile.RemoveStale(dir, time.Now())
	if len(removed) > 0 {
		logger.Info("news: removed the temporary files of interrupted writes", "dir", dir, "files", removed)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		logger.Warn("news: cannot remove the temporary files of interrupted writes", "dir", dir, "err", err)
	}
}

func (s *LocalStore) path(id string) (string, error) {
	name, err := FileName(id)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.dir, name), nil
}

// List returns every readable article. A file that cannot be
// parsed is logged and left out, so one bad edit never empties the list.
func (s *LocalStore) List(context.Context) ([]Article, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("news: list %s: %w", s.dir, err)
	}
	articles := make([]Article, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") {
			continue
		}
		a, err := s.read(strings.TrimSuffix(name, ".md"))
		if err != nil {
			s.logger.Warn("news: skipping unreadable article", "file", filepath.Join(s.dir, name), "err", err)
			continue
		}
		articles = append(articles, a)
	}
	return articles, nil
}

func (s *LocalStore) read(id string) (Article, error) {
	p, err := s.path(id)
	if err != nil {
		return Article{}, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Article{}, fmt.Errorf("news: %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Article{}, fmt.Errorf("news: read %q: %w", id, err)
	}
	a, err := ParseFile(id, data)
	if err != nil {
		return Article{}, fmt.Errorf("news: %s: %w", p, err)
	}
	return a, nil
}

// Get returns the article with id.
func (s *LocalStore) Get(_ context.Context, id string) (Article, error) {
	return s.read(id)
}

// Put writes a atomically: a reader sees the old file or the new one, never a mix.
func (s *LocalStore) Put(_ context.Context, a Article) error {
	if err := a.Validate(); err != nil {
		return err
	}
	p, err := s.path(a.ID)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(p, FormatFile(a)); err != nil {
		return fmt.Errorf("news: put %q: %w", a.ID, err)
	}
	return nil
}

// Delete removes the article with id.
func (s *LocalStore) Delete(_ context.Context, id string) error {
	p, err := s.path(id)
	if err != nil {
		return err
	}
	err = os.Remove(p)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("news: delete %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("news: delete %q: %w", id, err)
	}
	return atomicfile.SyncDir(s.dir)
}

// Close does nothing: the local store holds no open resources between calls.
func (s *LocalStore) Close() error { return nil }

// Watch sends the list now and again after every change to the directory.
func (s *LocalStore) Watch(ctx context.Context, fn func([]Article)) error {
	return dirwatch.Watch(ctx, s.dir, func() error {
		list, err := s.List(ctx)
		if err == nil {
			fn(list)
		}
		return err
	})
}
