//go:build !emulator

package news

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when its tests leave goroutines behind, as
// firestoretest.Main does for the emulator build (main_test.go). gRPC's
// callback serializer ends a moment after its connection closes.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("google.golang.org/grpc/internal/grpcsync.(*CallbackSerializer).run"))
}
