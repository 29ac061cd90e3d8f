//go:build emulator

package docstore

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

// openFirestore opens a Firestore on project of the emulator and closes it
// when the test ends.
func openFirestore(t *testing.T, project string) *Firestore {
	t.Helper()
	t.Setenv("FIRESTORE_EMULATOR_HOST", emulator.Start(t))
	return mustOpen(t, func() (*Firestore, error) { return OpenFirestore(t.Context(), project) })
}

func TestFirestore(t *testing.T) {
	testDB(t, func(t *testing.T) (DB, DB) {
		project := firestoretest.FreshProject(t)
		return openFirestore(t, project), openFirestore(t, project)
	})
}

// TestFirestoreWatchUnreachable starts Watch on a Firestore that nothing
// answers: it must return ErrUnreachable, without the address or project.
func TestFirestoreWatchUnreachable(t *testing.T) {
	port, err := firestoretest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	t.Setenv("FIRESTORE_EMULATOR_HOST", addr)
	s := mustOpen(t, func() (*Firestore, error) { return OpenFirestore(t.Context(), "unreachable-project") })
	s.firstSnapshot = time.Second
	err = s.Watch(t.Context(), "Notices", func([]Doc) { t.Error("Watch called fn with no Firestore") })
	if !errors.Is(err, ErrUnreachable) || strings.Contains(err.Error(), addr) || strings.Contains(err.Error(), "unreachable-project") {
		t.Errorf("Watch = %v, want ErrUnreachable, with neither address nor project", err)
	}
}
