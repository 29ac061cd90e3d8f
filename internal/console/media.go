package console

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/robohornets/robohornets/internal/docstore"
)

// mediaPattern is the only form of a photo's name (mediaName): 32 hex
// digits of its hash and its extension.
var mediaPattern = regexp.MustCompile(`^[0-9a-f]{32}\.(jpg|png)$`)

// mediaTypes are the Content-Types of the photos' extensions.
var mediaTypes = map[string]string{".jpg": "image/jpeg", ".png": "image/png"}

// mediaCacheBytes bounds the photos a MediaHandler keeps in memory.
const mediaCacheBytes = 32 << 20

// mediaCacheControl is the Cache-Control of a photo: its name never
// changes meaning.
const mediaCacheControl = "public, max-age=31536000, immutable"

// MediaHandler serves the photos the console stored in db at
// GET /media/{name}, to anyone: the name is the content's hash, so the
// answer is cached for a year as immutable, and its ETag is the name. A
// request whose If-None-Match holds that ETag is answered 304 without
// asking the store (a name never changes meaning), and the photos read
// are kept in memory, the most recently served first, up to
// mediaCacheBytes, so a popular photo costs one store read per instance.
// Any other name is 404 without asking the store; a store that cannot be
// reached is 503.
func MediaHandler(db docstore.DB) http.Handler {
	cache := newBlobCache(mediaCacheBytes)
	// reads makes the requests for a photo that is not in the cache wait
	// for one store read, rather than each making its own.
	var reads singleflight.Group
	mux := http.NewServeMux()
	mux.HandleFunc("GET /media/{name}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if !mediaPattern.MatchString(name) {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		etag := `"` + name + `"`
		if etagListed(strings.Join(r.Header.Values("If-None-Match"), ","), etag) {
			h.Set("Cache-Control", mediaCacheControl)
			h.Set("ETag", etag)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		data, ok := cache.get(name)
		if !ok {
			v, err, _ := reads.Do(name, func() (any, error) {
				// Not the first asker's context: its going away must not fail the others.
				data, err := db.GetBlob(context.WithoutCancel(r.Context()), name)
				if err == nil {
					cache.add(name, data)
				}
				return data, err
			})
			if errors.Is(err, docstore.ErrNotFound) {
				http.NotFound(w, r)
				return
			}
			if err != nil {
				slog.Default().Error("console: serve media", "name", name, "err", err)
				h.Set("Cache-Control", "no-store")
				http.Error(w, "The photo store cannot be reached; try again in a moment.", http.StatusServiceUnavailable)
				return
			}
			data = v.([]byte)
		}
		h.Set("Content-Type", mediaTypes[path.Ext(name)])
		h.Set("Cache-Control", mediaCacheControl)
		h.Set("ETag", etag)
		// ServeContent answers ranges and HEAD.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	})
	return mux
}

// etagListed reports whether the If-None-Match value header lists etag, by
// the weak comparison that If-None-Match uses ("*" is left to the usual
// answer: it asks whether the photo exists at all).
func etagListed(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		if strings.TrimPrefix(strings.TrimSpace(tag), "W/") == etag {
			return true
		}
	}
	return false
}

// blobCache keeps blobs by name up to a total of bytes, forgetting the
// least recently used first. It is safe for concurrent use.
type blobCache struct {
	mu    sync.Mutex
	limit int
	size  int
	order *list.List // of *cachedBlob, most recently used first
	byKey map[string]*list.Element
}

type cachedBlob struct {
	name string
	data []byte
}

func newBlobCache(limit int) *blobCache {
	return &blobCache{limit: limit, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the blob name, if kept, and marks it used.
func (c *blobCache) get(name string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[name]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedBlob).data, true
}

// add keeps data as the blob name, forgetting the least recently used
// blobs to make room; a blob larger than the whole cache is not kept.
func (c *blobCache) add(name string, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[name]; ok || len(data) > c.limit {
		return
	}
	for c.size+len(data) > c.limit {
		oldest := c.order.Back()
		b := oldest.Value.(*cachedBlob)
		c.order.Remove(oldest)
		delete(c.byKey, b.name)
		c.size -= len(b.data)
	}
	c.byKey[name] = c.order.PushFront(&cachedBlob{name: name, data: data})
	c.size += len(data)
}
