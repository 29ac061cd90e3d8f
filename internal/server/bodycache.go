package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/robohornets/robohornets/internal/news"
)

// bodyCache keeps the bodies made from one news snapshot — pages with
// their head and inline data, the news JSON, the feed and the sitemap —
// each with its gzip form and ETag, so a request for an unchanged page
// costs a map lookup and a write. A new snapshot version starts an empty
// set; bodies are made on first request. Only bodies of known routes and
// existing articles are kept, so the set is bounded by the news.
type bodyCache struct {
	current atomic.Pointer[cachedVersion]
}

type cachedVersion struct {
	version uint64
	bodies  sync.Map // key → *asset
}

// get returns the body for key made from the snapshot of version, making it
// with build the first time. A request still holding an older snapshot
// than the newest seen gets a body made for it alone.
func (r *bodyCache) get(version uint64, key string, build func() *asset) *asset {
	v := r.current.Load()
	for v == nil || v.version < version {
		if r.current.CompareAndSwap(v, &cachedVersion{version: version}) {
			v = r.current.Load()
			break
		}
		v = r.current.Load()
	}
	if v.version != version {
		return build()
	}
	if b, ok := v.bodies.Load(key); ok {
		return b.(*asset)
	}
	b, _ := v.bodies.LoadOrStore(key, build())
	return b.(*asset)
}

// serveFromNews serves the body that build makes from the current news,
// made once per news version for key.
func (s *Server) serveFromNews(w http.ResponseWriter, r *http.Request, key, mimeType string, cacheControl []string, build func(news.Snapshot) []byte) {
	snap := s.opts.Hub.Current()
	s.bodies.get(snap.Version, key, func() *asset {
		return newBody(build(snap), mimeType)
	}).serve(w, r, cacheControl)
}

// minGzip is the smallest body worth compressing.
const minGzip = 512

// newBody makes a body with its ETag and, when it is big enough to gain,
// its gzip form.
func newBody(data []byte, mimeType string) *asset {
	var gz []byte
	if len(data) >= minGzip {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // a valid level never fails
		_, _ = zw.Write(data)                                  // a bytes.Buffer never fails
		_ = zw.Close()
		if b.Len() < len(data) {
			gz = b.Bytes()
		}
	}
	return newAsset(data, nil, gz, mimeType)
}

// etagOf is the ETag (without quotes) of a body.
func etagOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
