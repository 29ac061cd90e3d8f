package frcevent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/disktest"
)

// TestHubCacheOnAFullDisk fills the disk under the cache, then has the hub
// write a bigger cache: the write fails part way and is logged, the old
// cache stays whole and loads at the next start, no temporary file is
// left, and the hub goes on serving the new data from memory. Once there
// is room again, the next poll writes the cache.
func TestHubCacheOnAFullDisk(t *testing.T) {
	disk := disktest.Mount(t, 64<<10)
	// The announcement at 40 s makes the cache bigger than the page Fill
	// leaves free and the page the old cache holds together: its write
	// fails part way, not at the first byte, even in place.
	tl := testTimeline()
	tl.Steps[0].State.Announcements[1].Text = "Lunch moved to 12:30. " + strings.Repeat("Pits stay open; robots stay on their carts. ", 250)
	e := newEnv(t, tl)
	opts := e.options()
	opts.CacheFile = filepath.Join(disk.Dir, "cache", "event.json")
	h, _ := e.runHub(t, opts, 2)
	good, err := os.ReadFile(opts.CacheFile)
	if err != nil || !strings.Contains(string(good), "Test Regional") || strings.Contains(string(good), "Lunch moved") {
		t.Fatalf("cache after the first answers: %v, %.200s", err, good)
	}

	disk.Fill(t, 4096)
	e.advance(time.Minute, time.Second, 2)
	s := h.Current()
	if len(s.Announcements) != 2 || !s.Configured {
		t.Fatalf("after the failed write the hub serves %+v, want the new announcement", s)
	}
	if got, err := os.ReadFile(opts.CacheFile); err != nil || string(got) != string(good) {
		t.Fatalf("the cache changed on a full disk: %v, %d bytes, want the %d of the old", err, len(got), len(good))
	}
	logs := e.logs.String()
	if !strings.Contains(logs, "event: cannot write cache") || !strings.Contains(logs, "no space left on device") {
		t.Fatalf("the failed write is not logged:\n%s", logs)
	}
	if entries, _ := os.ReadDir(filepath.Dir(opts.CacheFile)); len(entries) != 1 {
		t.Errorf("the cache directory holds %d entries, want only the cache (no temporary file)", len(entries))
	}
	// The real loader reads the old cache.
	restarted := NewHub(opts).Current()
	if restarted.EventName != "Test Regional" || restarted.NextMatch == nil || len(restarted.Announcements) != 1 {
		t.Fatalf("a restart loads %+v, want the old cache's data", restarted)
	}
	if strings.Contains(e.logs.String(), "ignoring unreadable cache") {
		t.Fatalf("the old cache does not load:\n%s", e.logs)
	}

	// Room again: the next poll writes the new data.
	disk.Free(t)
	e.advance(time.Minute, time.Second, 2)
	got, _ := os.ReadFile(opts.CacheFile)
	if !strings.Contains(string(got), "Lunch moved") {
		t.Fatal("with room again the cache still lacks the new announcement")
	}
	if len(got) <= 2*4096 {
		t.Fatalf("the new cache is %d bytes: it fits in the free page and the old cache's, so no write failed part way", len(got))
	}
}
