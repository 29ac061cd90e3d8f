package news

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	code := m.Run()
	emulator.Stop()
	if code == 0 {
		// Every watcher, hub and client the tests started must be gone.
		if err := goleak.Find(goleak.IgnoreTopFunction("google.golang.org/grpc/internal/grpcsync.(*CallbackSerializer).run")); err != nil {
			os.Stderr.WriteString("goroutine leak: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}
