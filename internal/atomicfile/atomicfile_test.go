package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
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

func TestSyncsDirs(t *testing.T) {
	// The desktop window ships for these three; Windows cannot sync a
	// directory, and trying would fail every write there.
	for goos, want := range map[string]bool{"windows": false, "linux": true, "darwin": true, "freebsd": true} {
		if got := syncsDirs(goos); got != want {
			t.Errorf("syncsDirs(%q) = %v, want %v", goos, got, want)
		}
	}
}

func TestSyncDirErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		syncErr error // of the directory's Sync, as *os.File returns it
		wantErr error // nil: SyncDir succeeds
	}{
		{"synced", nil, nil},
		{"EINVAL, as some FUSE and VM shared folders answer", syscall.EINVAL, nil},
		{"ENOTSUP", syscall.ENOTSUP, nil},
		{"EOPNOTSUPP", syscall.EOPNOTSUPP, nil},
		{"ENOSYS", syscall.ENOSYS, nil},
		{"EBADF, for a directory opened read-only", syscall.EBADF, nil},
		{"an I/O error is one", syscall.EIO, syscall.EIO},
		{"a full disk is one", syscall.ENOSPC, syscall.ENOSPC},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called := false
			err := syncDir(dir, func(f *os.File) error {
				called = true
				if tt.syncErr == nil {
					return f.Sync()
				}
				return &fs.PathError{Op: "sync", Path: f.Name(), Err: tt.syncErr}
			})
			if !called {
				t.Fatal("the directory was not synced")
			}
			if tt.wantErr == nil && err != nil {
				t.Fatalf("syncDir = %v, want nil: the rename is done and only its durability is out of reach", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("syncDir = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	old := now.Add(-StaleAfter - time.Minute)
	type file struct {
		name     string
		modified time.Time
		removed  bool
	}
	files := []file{
		{".a.md.tmp-1234567", old, true},
		{".cache.json.tmp-42", old, true},
		{".a.md.tmp-99", now.Add(-time.Minute), false}, // a write under way
		{"a.md", old, false},
		{".a.md.swp", old, false},         // an editor's
		{".a.md.tmp-", old, false},        // no digits
		{".a.md.tmp-12x", old, false},     // not digits
		{"a.md.tmp-123", old, false},      // no leading dot
		{"..tmp-123", old, false},         // no file name
		{".notes.tmp-old.md", old, false}, // a person's file
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.modified, f.modified); err != nil {
			t.Fatal(err)
		}
	}
	// A directory that looks like a temporary file is not one.
	if err := os.Mkdir(filepath.Join(dir, ".d.tmp-7"), 0o755); err != nil {
		t.Fatal(err)
	}
	// And the temporary files Write makes are found.
	for _, name := range []string{"a.md", "event.json", "no-extension"} {
		tmp, err := createTemp(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := tmp.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(tmp.Name(), old, old); err != nil {
			t.Fatal(err)
		}
		files = append(files, file{filepath.Base(tmp.Name()), old, true})
	}
	removed, err := RemoveStale(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range files {
		_, statErr := os.Stat(filepath.Join(dir, f.name))
		if gone := errors.Is(statErr, fs.ErrNotExist); gone != f.removed {
			t.Errorf("%s: removed %v, want %v", f.name, gone, f.removed)
		}
		if f.removed {
			want = append(want, f.name)
		}
	}
	slices.Sort(removed)
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("RemoveStale returned %q, want %q", removed, want)
	}
	if _, err := os.Stat(filepath.Join(dir, ".d.tmp-7")); err != nil {
		t.Errorf("a directory was removed: %v", err)
	}
	if _, err := RemoveStale(filepath.Join(dir, "missing"), now); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("RemoveStale of a missing directory = %v, want not exist", err)
	}
}
