package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// asset is one embedded file with its precompressed variants.
type asset struct {
	name     string
	data     []byte
	br, gz   []byte
	etag     string
	mimeType string
}

// assets is the embedded frontend, read once at start.
type assets struct {
	files map[string]*asset // by path without the leading slash
	index *pageTemplate     // nil when the frontend is not built
}

func loadAssets(fsys fs.FS, logger *slog.Logger) *assets {
	a := &assets{files: make(map[string]*asset)}
	if fsys == nil {
		return a
	}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") || path.Base(p) == ".gitkeep" {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		f := &asset{name: p, data: data, etag: hex.EncodeToString(sum[:8]), mimeType: mime.TypeByExtension(path.Ext(p))}
		f.br, _ = fs.ReadFile(fsys, p+".br") // absent variants stay nil
		f.gz, _ = fs.ReadFile(fsys, p+".gz")
		a.files[p] = f
		return nil
	})
	if err != nil {
		logger.Error("server: cannot read the embedded frontend", "err", err)
	}
	if f, ok := a.files["index.html"]; ok {
		a.index = newPageTemplate(f.data)
	}
	return a
}

// serve writes f, choosing a precompressed variant the client accepts.
func (f *asset) serve(w http.ResponseWriter, r *http.Request, cacheControl string) {
	h := w.Header()
	h.Set("Cache-Control", cacheControl)
	if f.mimeType != "" {
		h.Set("Content-Type", f.mimeType)
	}
	body, tag := f.data, f.etag
	if f.br != nil || f.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		switch enc := r.Header.Get("Accept-Encoding"); {
		case f.br != nil && accepts(enc, "br"):
			body, tag = f.br, f.etag+"-br"
			h.Set("Content-Encoding", "br")
		case f.gz != nil && accepts(enc, "gzip"):
			body, tag = f.gz, f.etag+"-gz"
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", `"`+tag+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// accepts reports whether an Accept-Encoding header allows coding, honouring
// an explicit q=0 refusal.
func accepts(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

const (
	cacheImmutable  = "public, max-age=31536000, immutable"
	cacheRevalidate = "no-cache"
	cacheShort      = "public, max-age=3600"
)

// serveAsset serves the hashed build files; a missing one is a plain 404, never the app.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	f, ok := s.assets.files[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f.serve(w, r, cacheImmutable)
}

// servePage serves a root file (favicon, images) when one exists, and
// otherwise index.html, whose head is filled in for the route.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	if f, ok := s.assets.files[name]; ok && name != "index.html" {
		f.serve(w, r, cacheShort)
		return
	}
	if s.assets.index == nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("The website's frontend is not built into this binary: run `make build`.\n"))
		return
	}
	body := s.assets.index.render(s.headFor(r))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", cacheRevalidate)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}
