//go:build !race

package photo

// raceDetector reports whether the tests run under the race detector.
const raceDetector = false
