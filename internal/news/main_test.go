//go:build emulator

package news

import (
	"testing"

	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

func TestMain(m *testing.M) { firestoretest.Main(m, &emulator) }
