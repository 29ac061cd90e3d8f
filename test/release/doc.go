// Package release checks what `make release` ships: the checksums, the
// static serve binaries of both architectures, the versions the binaries
// report, and the kiosk's .deb installed into a throwaway root with dpkg
// (its files and modes, its dependencies, the systemd user unit through
// systemd-analyze verify, the desktop entries through desktop-file-validate).
//
// It reads a release directory that a build made, so it builds only with the
// release tag: `make test-release` builds one with VERSION=0.0.0-test and
// runs it, or `ROBOHORNETS_RELEASE_DIR=build/release
// ROBOHORNETS_RELEASE_VERSION=x.y.z go test -tags release ./test/release`.
package release
