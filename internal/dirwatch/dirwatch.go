// Package dirwatch follows a directory of files written with atomicfile or
// by hand: the local stores of news and of the console's documents.
package dirwatch

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Settle is how long Watch waits after a file event for more to come, so a
// save (often several events) gives one call.
const Settle = 50 * time.Millisecond

// Watch calls changed now, and again Settle after each burst of changes to
// the files of dir, until ctx ends, the watcher fails or changed returns an
// error, which it returns. Dot files (the temporary files of atomicfile and
// of editors) are not changes.
func Watch(ctx context.Context, dir string, changed func() error) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	defer func() { _ = w.Close() }() // watching is over; nothing is lost
	if err := w.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	if err := changed(); err != nil {
		return err
	}
	var settle <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-w.Events:
			if !ok {
				return fmt.Errorf("watch %s: watcher closed", dir)
			}
			if strings.HasPrefix(filepath.Base(ev.Name), ".") {
				continue
			}
			if settle == nil {
				settle = time.After(Settle)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return fmt.Errorf("watch %s: watcher closed", dir)
			}
			return fmt.Errorf("watch %s: %w", dir, err)
		case <-settle:
			settle = nil
			if err := changed(); err != nil {
				return err
			}
		}
	}
}
