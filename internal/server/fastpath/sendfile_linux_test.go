//go:build linux

package fastpath

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/robohornets/robohornets/internal/testutil/disktest"
)

// TestBodyFileKinds checks where a large body is kept for sendfile: an
// unnamed temporary file in TMPDIR (on TMPDIR's file system, with no name
// left behind), a memory file where TMPDIR takes none or is full, and no
// file at all for a small body. Every file holds the body whole.
func TestBodyFileKinds(t *testing.T) {
	large := bytes.Repeat([]byte("0123456789abcdef"), 8<<10) // 128 KiB
	tests := []struct {
		name   string
		tmpdir func(t *testing.T) string
		body   []byte
		want   string // "temporary", "memory" or "none"
	}{
		{"TMPDIR takes an unnamed temporary file", func(t *testing.T) string { return t.TempDir() }, large, "temporary"},
		{"TMPDIR does not exist", func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing") }, large, "memory"},
		{"TMPDIR is full", func(t *testing.T) string { return disktest.Mount(t, 64<<10).Dir }, large, "memory"},
		{"a small body is written, not sent from a file", func(t *testing.T) string { return t.TempDir() }, large[:minSendfile-1], "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.tmpdir(t)
			t.Setenv("TMPDIR", dir)
			f := NewFile(tt.body)
			if f == nil {
				if tt.want != "none" {
					t.Fatalf("no file, want a %s file", tt.want)
				}
				return
			}
			if tt.want == "none" {
				t.Fatalf("a file for a %d-byte body, want none", len(tt.body))
			}
			link, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(f.fd))
			if err != nil {
				t.Fatal(err)
			}
			got := "temporary"
			if strings.HasPrefix(link, "/memfd:") {
				got = "memory"
			}
			if got != tt.want {
				t.Fatalf("the body is in %s, a %s file; want a %s file", link, got, tt.want)
			}
			if got == "temporary" {
				var st, dirSt unix.Stat_t
				if err := unix.Fstat(f.fd, &st); err != nil {
					t.Fatal(err)
				}
				if err := unix.Stat(dir, &dirSt); err != nil {
					t.Fatal(err)
				}
				if st.Dev != dirSt.Dev || st.Nlink != 0 {
					t.Errorf("the temporary file is on device %d with %d names, want TMPDIR's device %d and no name", st.Dev, st.Nlink, dirSt.Dev)
				}
				if names, err := os.ReadDir(dir); err != nil || len(names) != 0 {
					t.Errorf("TMPDIR holds %v (%v), want nothing", names, err)
				}
			}
			held := make([]byte, len(tt.body)+1)
			n, err := unix.Pread(f.fd, held, 0)
			if err != nil || !bytes.Equal(held[:n], tt.body) {
				t.Errorf("the file holds %d bytes (%v), want the %d bytes of the body", n, err, len(tt.body))
			}
		})
	}
}
