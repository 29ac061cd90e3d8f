package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWholeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	for _, content := range []string{"first", "second, longer than the first", "3"} {
		if err := Write(path, []byte(content)); err != nil {
			t.Fatalf("Write(%q): %v", content, err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("after Write(%q): %q, %v", content, got, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file (no temporary left)", len(entries))
	}
}

func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	if err := Write(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A directory where the temporary file would go cannot take it: replace
	// the target by a path inside a missing directory to force the failure.
	if err := Write(filepath.Join(dir, "missing", "a.json"), []byte("new")); err == nil {
		t.Fatal("Write into a missing directory succeeded")
	}
	got, _ := os.ReadFile(path)
	if string(got) != "old" {
		t.Errorf("old file = %q after a failed write, want old", got)
	}
}

func TestWriteAllCreatesTheDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cache", "deep", "a.json")
	for _, content := range []string{"first", "second"} {
		if err := WriteAll(path, []byte(content)); err != nil {
			t.Fatalf("WriteAll(%q): %v", content, err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != content {
			t.Fatalf("after WriteAll(%q): %q, %v", content, got, err)
		}
	}
	// A file where the directory should be: the error, and nothing written.
	blocked := filepath.Join(dir, "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteAll(filepath.Join(blocked, "a.json"), []byte("x")); err == nil {
		t.Fatal("WriteAll under a file succeeded")
	}
}
