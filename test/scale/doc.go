// Package scale proves the scale-out story end to end: three `serve`
// processes on one Firestore emulator behind nginx, where one write reaches
// the live viewers of all three within a second.
//
// Its test needs nginx and the Firestore emulator, and starts processes, so
// it builds only with the scale tag: `make test-scale`, or
// `go test -tags scale ./test/scale`.
package scale
