package server

import (
	"bytes"
	"cmp"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robohornets/robohornets/internal/server/fastpath"
)

// asset is one response body with its compressed variants: an embedded
// file, or a page or feed made from the news (bodyCache). Every header
// value it sends is built once, so serving it allocates almost nothing.
type asset struct {
	plain, br, gz *variant // br and gz are nil when absent
	mimeType      []string
}

// variant is one encoding of a body with its header values.
type variant struct {
	body       []byte
	etag       string   // quoted
	etagHeader []string // {etag}
	length     []string // Content-Length
	encoding   []string // Content-Encoding; nil for the plain body
	// heads are the fast path's status line and header of a 200 and a 304
	// answer with it, made on first use.
	heads [2]atomic.Pointer[fastHead]
	// file is the body in a file of its own for sendfile, made on the fast
	// path's first answer with it (a window, which serves no connection,
	// never makes one); nil when the body is small.
	file     *fastpath.File
	fileOnce sync.Once
}

// bodyFile returns v's file, making it on first use.
func (v *variant) bodyFile() *fastpath.File {
	v.fileOnce.Do(func() { v.file = fastpath.NewFile(v.body) })
	return v.file
}

func newVariant(body []byte, etag, encoding string) *variant {
	if body == nil {
		return nil
	}
	v := &variant{body: body, etag: `"` + etag + `"`, length: []string{strconv.Itoa(len(body))}}
	v.etagHeader = []string{v.etag}
	if encoding != "" {
		v.encoding = []string{encoding}
	}
	return v
}

// newAsset makes an asset of data and its compressed forms (nil when absent).
func newAsset(data, br, gz []byte, mimeType string) *asset {
	tag := etagOf(data)
	f := &asset{plain: newVariant(data, tag, ""), br: newVariant(br, tag+"-br", "br"), gz: newVariant(gz, tag+"-gz", "gzip")}
	// A type the extension does not tell is the one net/http would sniff,
	// named here so that every variant and both paths send it.
	f.mimeType = []string{cmp.Or(mimeType, http.DetectContentType(data))}
	return f
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
		br, _ := fs.ReadFile(fsys, p+".br") // absent variants stay nil
		gz, _ := fs.ReadFile(fsys, p+".gz")
		a.files[p] = newAsset(data, br, gz, typeByExtension(path.Ext(p)))
		return nil
	})
	if err != nil {
		logger.Error("server: cannot read the embedded frontend", "err", err)
	}
	if f, ok := a.files["index.html"]; ok {
		a.index = newPageTemplate(f.plain.body)
	}
	return a
}

// ownTypes are the types of the build's files that the standard library
// does not know by itself: it reads the others from the system's
// /etc/mime.types, which a distroless or scratch image lacks.
var ownTypes = map[string]string{
	".webmanifest": "application/manifest+json",
}

// typeByExtension is the Content-Type of a file with extension ext; ""
// leaves it to sniffing.
func typeByExtension(ext string) string {
	if t, ok := ownTypes[strings.ToLower(ext)]; ok {
		return t
	}
	return mime.TypeByExtension(ext)
}

// varyEncoding is the Vary value of a body with compressed variants.
var varyEncoding = []string{"Accept-Encoding"}

// serve writes f, choosing a precompressed variant the client accepts.
// cacheControl is one of the shared values below. The fast path
// (fast.go) answers the same requests with the same header, made by the
// same two methods.
func (f *asset) serve(w http.ResponseWriter, r *http.Request, cacheControl []string) {
	h := w.Header()
	v := f.choose(r.Header.Get("Accept-Encoding"))
	if r.Header.Get("Range") != "" {
		// Rare (a resumed download): the standard library's full handling.
		f.setHeader(h, v, cacheControl, false)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(v.body))
		return
	}
	notModified := v.notModified(r.Header.Get("If-None-Match"))
	f.setHeader(h, v, cacheControl, notModified)
	if notModified {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	// One write of the whole body: the server's buffered writer hands it to
	// the connection in one system call, where io.Copy took one per 32 KB.
	h["Content-Length"] = v.length
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(v.body)
	}
}

// choose returns the variant of f for a request's Accept-Encoding.
func (f *asset) choose(acceptEncoding string) *variant {
	switch {
	case f.br != nil && accepts(acceptEncoding, "br"):
		return f.br
	case f.gz != nil && accepts(acceptEncoding, "gzip"):
		return f.gz
	}
	return f.plain
}

// notModified reports whether a request's If-None-Match names v.
func (v *variant) notModified(ifNoneMatch string) bool {
	return ifNoneMatch != "" && etagListMatches(ifNoneMatch, v.etag)
}

// setHeader sets the header of a response with v but its length: a 304
// has no type.
func (f *asset) setHeader(h http.Header, v *variant, cacheControl []string, notModified bool) {
	h["Cache-Control"] = cacheControl
	if !notModified {
		h["Content-Type"] = f.mimeType
	}
	if f.br != nil || f.gz != nil {
		h["Vary"] = varyEncoding
	}
	if v.encoding != nil {
		h["Content-Encoding"] = v.encoding
	}
	h["Etag"] = v.etagHeader
}

// etagListMatches reports whether an If-None-Match header names etag, with
// the weak comparison RFC 9110 asks for, or is "*".
func etagListMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
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

// Cache-Control values, shared by every response that sends one.
var (
	cacheImmutable  = []string{"public, max-age=31536000, immutable"}
	cacheRevalidate = []string{"no-cache"}
	cacheShort      = []string{"public, max-age=3600"}
	cacheNoStore    = []string{"no-store"}
	// cacheFeed lets clients and proxies keep the feed and sitemap for 5 minutes.
	cacheFeed = []string{"public, max-age=300"}
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
