package spec

import (
	"os"
	"testing"
)

func TestGeneratedTypeScriptIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../frontend/src/lib/spec.gen.ts")
	if err != nil {
		t.Fatalf("read generated constants: %v (run go generate ./internal/spec)", err)
	}
	if string(got) != TypeScript() {
		t.Fatal("frontend/src/lib/spec.gen.ts is stale: run go generate ./internal/spec")
	}
}
