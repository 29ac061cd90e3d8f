package disktest

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestFillLeavesWhatItSays(t *testing.T) {
	d := Mount(t, 64<<10)
	d.Fill(t, 2*pageSize)
	path := filepath.Join(d.Dir, "f")
	if err := os.WriteFile(path, make([]byte, 2*pageSize), 0o644); err != nil {
		t.Fatalf("writing the free space: %v", err)
	}
	if err := os.WriteFile(path, make([]byte, 3*pageSize), 0o644); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("writing past it: %v, want ENOSPC", err)
	}
	d.Free(t)
	if err := os.WriteFile(path, make([]byte, 8*pageSize), 0o644); err != nil {
		t.Fatalf("after Free: %v", err)
	}
}
