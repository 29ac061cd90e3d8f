//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package docstore

// crossProcessLock says that lockFile does not exclude other processes here.
const crossProcessLock = false

// lockFile takes no lock where there is no flock: Local's in-process mutex
// is all there is, so two processes must not write to one directory at
// once (see Local).
func lockFile(string) (release func(), err error) {
	return func() {}, nil
}
