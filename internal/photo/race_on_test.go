//go:build race

package photo

// raceDetector reports whether the tests run under the race detector,
// which allocates on its own: sync.Pool drops what it is given at
// random, so the decoders' pooled readers are made again.
const raceDetector = true
