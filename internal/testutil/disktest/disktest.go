// Package disktest gives a test a tiny file system of its own to fill up,
// to see what a full disk does to the program's writes. It is a tmpfs,
// which only Linux has and only a process allowed to mount file systems
// (root, as in CI) can mount; elsewhere the tests that need one are
// skipped, saying why.
package disktest

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// pageSize is the unit tmpfs allocates in.
const pageSize = 4096

// Disk is a tmpfs mounted for one test.
type Disk struct {
	// Dir is where it is mounted.
	Dir    string
	filler string
}

// Mount mounts a tmpfs of size bytes (whole pages) on a new directory and
// unmounts it when the test ends. It skips the test where it cannot mount.
func Mount(t testing.TB, size int64) *Disk {
	t.Helper()
	dir := t.TempDir()
	if err := mountTmpfs(dir, size); err != nil {
		t.Skipf("cannot mount a %d-byte tmpfs to fill (%v): needs Linux and the right to mount, as root in CI has", size, err)
	}
	t.Cleanup(func() {
		if err := unmount(dir); err != nil {
			t.Errorf("unmount the test's tmpfs %s: %v", dir, err)
		}
	})
	return &Disk{Dir: dir, filler: filepath.Join(dir, ".disktest-filler")}
}

// Fill takes all the free space of the disk but free bytes (whole pages)
// with a file of its own, so that a write of more than free bytes fails
// with ENOSPC part way.
func (d *Disk) Fill(t testing.TB, free int64) {
	t.Helper()
	if free%pageSize != 0 {
		t.Fatalf("disktest: Fill(%d): free space comes in pages of %d bytes", free, pageSize)
	}
	f, err := os.OpenFile(d.filler, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // the filler only has to take the space
	page := make([]byte, pageSize)
	for {
		if _, err = f.Write(page); err != nil {
			break
		}
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("disktest: filling %s: %v, want ENOSPC", d.Dir, err)
	}
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	// A failed write may leave part of a page; cut back to whole pages.
	if err := f.Truncate(info.Size()/pageSize*pageSize - free); err != nil {
		t.Fatalf("disktest: leaving %d bytes free: %v", free, err)
	}
	if got, err := freeBytes(d.Dir); err != nil || got != free {
		t.Fatalf("disktest: %s has %d bytes free (%v), want %d", d.Dir, got, err, free)
	}
}

// Free removes what Fill wrote.
func (d *Disk) Free(t testing.TB) {
	t.Helper()
	if err := os.Remove(d.filler); err != nil {
		t.Fatal(err)
	}
}

// IsFiller reports whether name, a file name in Dir, is the file of Fill.
func (d *Disk) IsFiller(name string) bool {
	return name == filepath.Base(d.filler)
}
