package news

import (
	"testing"

	"github.com/robohornets/robohornets/internal/firestoretest"
)

func TestMain(m *testing.M) { firestoretest.Main(m, &emulator) }
