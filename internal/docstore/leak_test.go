//go:build !emulator

package docstore

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain runs the helper process of TestLocalLockAcrossProcesses when
// asked to, and otherwise the tests, failing the package when they leave
// goroutines behind, as firestoretest.Main does for the emulator build
// (main_test.go).
func TestMain(m *testing.M) {
	runHelper()
	goleak.VerifyTestMain(m)
}
