package event

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/robohornets/robohornets/internal/atomicfile"
)

// cacheFile is the last good data on disk: the Status shown, to show it
// again at once after a restart, and the upstream data it was merged from,
// to merge on from it when only one source answers.
type cacheFile struct {
	Status   Status   `json:"status"`
	Upstream upstream `json:"upstream"`
}

// freshnessWriteEvery spaces the writes that would only record newer AsOf
// times: sources confirm their data every 30 to 61 s, and the disk need not
// hear each confirmation.
const freshnessWriteEvery = time.Minute

// loadCache takes the cached upstream data into h.up and returns the cached
// Status, or nil when there is no cache for this team and event. It runs in
// NewHub, before any other goroutine knows h.
func (h *Hub) loadCache() *Status {
	path := h.opts.CacheFile
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var c cacheFile
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil {
		h.opts.Logger.Warn("event: ignoring unreadable cache", "file", path, "err", err)
		return nil
	}
	cached := c.Upstream
	if !cached.Configured || cached.Team != h.up.Team ||
		!h.discovering && (cached.EventKey != h.up.EventKey || cached.NexusEventKey != h.up.NexusEventKey) {
		h.opts.Logger.Info("event: cache is for another team or event; ignoring it", "file", path, "event", cached.EventKey)
		return nil
	}
	if h.discovering {
		// Show the cached event until the search says which one is today's.
		h.up.EventKey, h.up.NexusEventKey, h.up.Configured, h.up.Message = cached.EventKey, cached.NexusEventKey, true, ""
	}
	// The health is not restored: it is about requests of this run.
	h.up.Nexus = nexusData{LastGood: cached.Nexus.LastGood, Event: cached.Nexus.Event, Pits: cached.Nexus.Pits}
	h.up.TBA = tbaData{
		LastGood: cached.TBA.LastGood, TeamStatus: cached.TBA.TeamStatus, Matches: cached.TBA.Matches,
		Event: cached.TBA.Event, Rankings: cached.TBA.Rankings, DownEvents: cached.TBA.DownEvents,
	}
	return &c.Status
}

// persist writes the current Status and its upstream data when they
// changed since the last write. Writes are ordered by cacheMu and always
// write the latest data, so the file never goes back in time.
func (h *Hub) persist() {
	if h.opts.CacheFile == "" {
		return
	}
	h.cacheMu.Lock()
	defer h.cacheMu.Unlock()
	h.mu.Lock()
	version, st, up, content := h.version, h.current, h.up, h.content
	h.mu.Unlock()
	if version == h.written || !up.Configured {
		return // a missing event is no data worth keeping over the last good
	}
	now := h.opts.Clock.Now()
	if string(content) == string(h.writtenContent) && now.Sub(h.writtenAt) < freshnessWriteEvery {
		return
	}
	data := mustJSON(cacheFile{Status: st, Upstream: up})
	err := os.MkdirAll(filepath.Dir(h.opts.CacheFile), 0o755)
	if err == nil {
		err = atomicfile.Write(h.opts.CacheFile, data)
	}
	if err != nil {
		h.opts.Logger.Warn("event: cannot write cache", "file", h.opts.CacheFile, "err", err)
		return
	}
	h.written, h.writtenAt, h.writtenContent = version, now, content
}
