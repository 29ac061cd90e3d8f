//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package docstore

import (
	"errors"
	"os"
	"syscall"
)

// crossProcessLock says that lockFile excludes other processes here.
const crossProcessLock = true

// lockFile takes an exclusive advisory lock (flock) on the file at path,
// creating it if needed, and returns its release. The lock belongs to this
// open file, so it excludes every other opening, in this process or
// another, and the system releases it if the process dies.
func lockFile(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = f.Close() // the lock was not taken; there is nothing to release
		return nil, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	// Closing the file releases the lock; nothing was written to it.
	return func() { _ = f.Close() }, nil
}
