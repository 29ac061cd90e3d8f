// Package atomicfile writes files so that a reader, or the next start after a
// crash or a full disk, sees either the old content or the new one, never a
// mix or a truncated file.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Write replaces path with data through a synced temporary file in the same
// directory and a rename, then syncs the directory so the rename itself
// survives a power cut. The directory must exist. On failure the old file is
// left as it was and the temporary file is removed. Temporary files start
// with a dot, so directory watchers can ignore them.
func Write(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err = tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return SyncDir(dir)
}

// WriteAll is Write after creating path's directory and any missing
// parents, like os.MkdirAll, for files such as caches whose directory
// nobody else makes. Write is for a directory that must already be there.
func WriteAll(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return Write(path, data)
}

// SyncDir flushes a directory's entries (creations, renames, removals) to
// disk. Windows cannot open a directory for syncing and makes renames durable
// by itself, so there it does nothing.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
