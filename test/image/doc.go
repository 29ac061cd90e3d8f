// Package image tests the container image of `make image` as a platform
// runs it: under podman (runc, host networking) against Google's Firestore
// emulator, it must serve the site, show a post written through the
// emulator within 2 s, report healthy, log JSON lines that Cloud Logging
// reads (severity, message, time, the trace of a request) on stdout, run as
// a non-root user, carry its version labels, and stop cleanly within 10 s
// of SIGTERM.
//
// Its test needs buildah's image, podman and the emulator, so it builds
// only with the image tag: `make test-image`, or
// `go test -tags image ./test/image` after `make image`.
package image
