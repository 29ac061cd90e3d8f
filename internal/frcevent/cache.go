package frcevent

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/robohornets/robohornets/internal/atomicfile"
	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// cacheFile is the last good data on disk: the upstream data, merged again
// after a restart to show it at once with its age, and to merge on from it
// when only one source answers. Files of older versions also hold the
// Status then shown, which is not read: merged afresh, a Nexus schedule of
// long ago no longer passes for live. They hold Nexus's event converted,
// under "event", which is not read either: the event is now kept as Nexus
// sent it, under "eventStatus", and such a file's TBA data and pits load
// while Nexus's next answer brings the rest. In the same way, files of
// older versions hold TBA's match lists converted, under "matches" and
// "eventMatches", which are not read: the lists are now kept as TBA sent
// them, under "teamMatchList" and "eventMatchList", and TBA's next answers
// bring them back.
type cacheFile struct {
	Upstream board.Upstream `json:"upstream"`
}

// freshnessWriteEvery spaces the writes that would only record newer AsOf
// times: sources confirm their data every 30 to 61 s, and the disk need not
// hear each confirmation.
const freshnessWriteEvery = time.Minute

// loadCache takes the cached upstream data into h.up, when there is a cache
// for this team and event; our season, when there is one for this team. It runs in NewHub, before any other goroutine
// knows h.
func (h *Hub) loadCache() {
	path := h.opts.CacheFile
	if path == "" {
		return
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var c cacheFile
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil {
		h.opts.Logger.Warn("event: ignoring unreadable cache", "file", path, "err", err)
		return
	}
	cached := c.Upstream
	if cached.Team == h.up.Team {
		// Our season is ours whatever the event, and with none.
		h.up.Season = cached.Season
	}
	if !cached.Configured || cached.Team != h.up.Team ||
		!h.discovering && (cached.EventKey != h.up.EventKey || cached.NexusEventKey != h.up.NexusEventKey) {
		h.opts.Logger.Info("event: cache is for another team or event; ignoring it", "file", path, "event", cached.EventKey)
		return
	}
	if h.discovering {
		// Show the cached event until the search says which one is today's.
		h.up.EventKey, h.up.NexusEventKey, h.up.Configured, h.up.Message = cached.EventKey, cached.NexusEventKey, true, ""
	}
	// All the data comes back; the health does not: it is about requests of this run.
	h.up.Nexus, h.up.TBA = cached.Nexus, cached.TBA
	h.up.Nexus.Health, h.up.TBA.Health = board.Health{}, board.Health{}
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
	version, up, content := h.version, h.up, h.content
	h.mu.Unlock()
	if version == h.written || !up.Configured && up.Season == nil {
		return // a missing event is no data worth keeping over the last good
	}
	now := h.opts.Clock.Now()
	if string(content) == string(h.writtenContent) && now.Sub(h.writtenAt) < freshnessWriteEvery {
		return
	}
	data, err := json.Marshal(cacheFile{Upstream: up})
	if err == nil {
		err = atomicfile.WriteAll(h.opts.CacheFile, data)
	}
	if err != nil {
		h.opts.Logger.Warn("event: cannot write cache", "file", h.opts.CacheFile, "err", err)
		return
	}
	h.written, h.writtenAt, h.writtenContent = version, now, content
}
