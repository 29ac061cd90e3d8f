//go:build emulator

package docstore

import (
	"testing"

	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

// emulator is the real Firestore emulator shared by the tests of this
// package, started on first use and stopped by TestMain.
var emulator firestoretest.Emulator

// TestMain runs the helper process of TestLocalLockAcrossProcesses when
// asked to, and otherwise the tests, with the emulator.
func TestMain(m *testing.M) {
	runHelper()
	firestoretest.Main(m, &emulator)
}
