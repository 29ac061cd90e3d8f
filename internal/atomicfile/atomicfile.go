// Package atomicfile writes files so that a reader, or the next start after a
// crash or a full disk, sees either the old content or the new one, never a
// mix or a truncated file.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// tempMark comes between a file's name and the random digits of its
// temporary files: ".name.tmp-123456".
const tempMark = ".tmp-"

// Write replaces path with data through a synced temporary file in the same
// directory and a rename, then syncs the directory so the rename itself
// survives a power cut. The directory must exist. On failure the old file is
// left as it was and the temporary file is removed, except for a failure of
// the last step, the directory sync: the new file is then in place, but a
// power cut may still undo the rename. Temporary files start with a dot, so
// directory watchers can ignore them; a process killed mid-write leaves its
// own behind, for RemoveStale.
func Write(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := createTemp(path)
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

// createTemp creates a temporary file for path beside it, named as isTemp
// recognizes.
func createTemp(path string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+tempMark+"*")
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
// disk. Where directories cannot be synced it does nothing and returns nil:
// on Windows (see syncsDirs), and on file systems that refuse the sync (see
// refusedDirSync), where failing would turn every completed write into an
// error without making any of them safer.
func SyncDir(dir string) error {
	if !syncsDirs(runtime.GOOS) {
		return nil
	}
	return syncDir(dir, (*os.File).Sync)
}

// syncsDirs reports whether SyncDir syncs directories on goos. Windows
// refuses to flush a directory handle (FlushFileBuffers fails with access
// denied), and NTFS journals a rename by itself.
func syncsDirs(goos string) bool {
	return goos != "windows"
}

// syncDir opens dir and syncs it with sync, which is (*os.File).Sync but for
// tests. A refusal from the file system is no error.
func syncDir(dir string, sync func(*os.File) error) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }() // a read-only directory handle: closing it cannot lose data
	if err := sync(d); err != nil && !refusedDirSync(err) {
		return err // an *fs.PathError, which names the directory
	}
	return nil
}

// refusedDirSync reports whether err, from syncing a directory, is the file
// system saying it cannot sync directories at all rather than failing to:
// some FUSE, network and virtual-machine shared folders answer EINVAL,
// ENOTSUP or ENOSYS, and some systems EBADF for a directory opened read-only.
// The rename being made durable has already happened; only its durability
// is out of reach, as it is on Windows. An I/O error, or any other, is a
// real failure.
func refusedDirSync(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EBADF)
}

// StaleAfter is how long after its last change a temporary file of Write
// counts as left by a writer that died: a write takes well under a second,
// even of a large file on a slow disk.
const StaleAfter = time.Hour

// RemoveStale removes from dir the temporary files of Write that were last
// changed more than StaleAfter before now, which writers killed mid-write
// (SIGKILL, a crash, a power cut) left behind, and returns their names. A
// younger one may belong to a write under way and is kept. Nothing else is
// touched: a name must be a dot, a file name, ".tmp-" and digits. now is
// wall time, as file modification times are.
func RemoveStale(dir string, now time.Time) (removed []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTemp(e.Name()) {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // renamed into place, or removed by another cleaner
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if now.Sub(info.ModTime()) <= StaleAfter {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, e.Name())
	}
	return removed, errors.Join(errs...)
}

// isTemp reports whether name is that of a temporary file of Write:
// ".NAME.tmp-DIGITS", as os.CreateTemp makes it from Write's pattern.
func isTemp(name string) bool {
	i := strings.LastIndex(name, tempMark)
	if !strings.HasPrefix(name, ".") || i < 2 {
		return false
	}
	digits := name[i+len(tempMark):]
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}
