package frcevent

import (
	"encoding/json"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// staleAt returns when the data shown turns stale; false when it has
// none, or is stale already.
func (h *Hub) staleAt() (time.Time, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.current.AsOf.IsZero() || h.current.Stale {
		return time.Time{}, false
	}
	return h.current.AsOf.Add(board.StaleAfter + time.Nanosecond), true
}

// publishLocked merges and, when the Status changed, encodes it once for
// every viewer. Subscribers are woken only when what the page shows
// changed: a newer AsOf alone (a source confirmed its data) updates the
// Status and the cache but does not wake every screen.
//
// A Status that does not encode (upstream sent a time JSON cannot hold)
// is logged and the previous one stays: upstream data is no programmer
// error, and must never stop the hub.
func (h *Hub) publishLocked() {
	st := board.Merge(h.up, h.opts.Clock.Now())
	body, err := json.Marshal(st)
	if err != nil {
		h.opts.Logger.Error("event: cannot encode the merged data; showing the previous", "err", err)
		return
	}
	if h.body != nil && string(body) == string(h.body) {
		return
	}
	content := contentJSON(st)
	changed := string(content) != string(h.content)
	h.current, h.body, h.content = st, body, content
	h.version++
	if changed {
		h.changed.Notify()
	}
}

// contentJSON encodes s without its AsOf times. s encoded with them, so it
// encodes without them.
func contentJSON(s board.Status) []byte {
	s.AsOf, s.Nexus.AsOf, s.TBA.AsOf = time.Time{}, time.Time{}, time.Time{}
	data, _ := json.Marshal(s)
	return data
}
