package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/testutil/disktest"
)

// TestNewsOnAFullDisk edits and adds articles of the local store on a full
// disk: each command fails with one line naming the full disk and exit 1,
// and leaves the store as it was, old article whole and no temporary file;
// once there is room, the same edit succeeds.
func TestNewsOnAFullDisk(t *testing.T) {
	disk := disktest.Mount(t, 256<<10)
	data := disk.Dir
	src := t.TempDir()
	fileA := writeFile(t, filepath.Join(src, "a.md"), bigContent("alpha", 6<<10))
	fileB := writeFile(t, filepath.Join(src, "b.md"), bigContent("bravo", 12<<10))
	mustNews(t, data, "add", "--id", "big", "--title", "Version A", "--date", "2026-01-10T12:00:00-06:00", fileA)
	before := tree(t, filepath.Join(data, "news"))
	show := mustNews(t, data, "show", "big").stdout

	// A page free: each write gets part of the way.
	disk.Fill(t, 4096)
	for _, args := range [][]string{
		{"edit", "big", "--title", "Version B", fileB},
		{"add", "--id", "other", "--title", "Other", fileB},
	} {
		r := newsCmd(t, data, args...)
		if r.code != 1 {
			t.Fatalf("news %q on a full disk: exit %d, want 1\nstderr: %s", args, r.code, r.stderr)
		}
		checkOneLineError(t, r.stderr, "no space left on device")
		if diff := changedFiles(before, tree(t, filepath.Join(data, "news"))); len(diff) > 0 {
			t.Fatalf("news %q on a full disk changed the store: %q", args, diff)
		}
		if got := mustNews(t, data, "show", "big").stdout; got != show {
			t.Fatalf("news show big after news %q on a full disk: %d bytes, want the %d of before", args, len(got), len(show))
		}
	}
	if r := mustNews(t, data, "list"); !strings.Contains(r.stdout, "Version A") || r.stderr != "" {
		t.Fatalf("news list on the full disk:\n%s\nstderr: %s", r.stdout, r.stderr)
	}

	disk.Free(t)
	mustNews(t, data, "edit", "big", "--title", "Version B", fileB)
	if got := parseShow(t, "big", mustNews(t, data, "show", "big").stdout); got.Title != "Version B" {
		t.Fatalf("with room again the edit gives %q, want Version B", got.Title)
	}
}

// changedFiles returns the files of two trees that are in one only or
// differ between them.
func changedFiles(before, after map[string]string) []string {
	var changed []string
	for name, content := range before {
		if got, ok := after[name]; !ok || got != content {
			changed = append(changed, name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			changed = append(changed, name)
		}
	}
	slices.Sort(changed)
	return changed
}

// bigContent is markdown of about size bytes whose every line is numbered,
// so that no cut of it, nor a mix of two versions, looks like a whole one.
func bigContent(word string, size int) string {
	var b strings.Builder
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "%s line %07d: the pit crew checks the bumpers, the battery and the brain.\n", word, n)
	}
	return b.String()
}
