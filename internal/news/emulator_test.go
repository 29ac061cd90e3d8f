//go:build emulator

package news

import (
	"testing"

	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

// emulator is the real Firestore emulator shared by the tests of this
// package, started on first use and stopped by TestMain.
var emulator firestoretest.Emulator

// freshProject returns a project id no other test uses, so each test starts
// with an empty database.
func freshProject(t testing.TB) string {
	t.Helper()
	return firestoretest.FreshProject(t)
}
