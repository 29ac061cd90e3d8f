package server

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/server/fastpath"
)

// fastSite is the website as the fast path (package fastpath) asks it:
// the answers to pages, build files and the news list, made from the same
// bodies with the same header as net/http's (the security headers
// included: head), and their access log lines (logAccess).
type fastSite struct{ s *Server }

// Answer is the fast path's answer to req, or false for net/http's.
func (f fastSite) Answer(req fastpath.Request) (fastpath.Answer, bool) {
	body, cacheControl, ok := f.s.fastAnswer(req.Path)
	if !ok {
		return fastpath.Answer{}, false
	}
	v := body.choose(string(req.AcceptEncoding))
	notModified := v.notModified(string(req.IfNoneMatch))
	a := fastpath.Answer{Status: http.StatusOK, Header: body.head(v, f.s.securityHeaders, cacheControl, notModified)}
	switch {
	case notModified:
		a.Status = http.StatusNotModified
	case !req.Head:
		a.Body, a.File = v.body, v.bodyFile()
	}
	return a, true
}

// LogAccess writes the access log line of the fast path's answer to req,
// as withAccessLog writes net/http's.
func (f fastSite) LogAccess(req fastpath.Request, remote string, status int, size int64, latency time.Duration) {
	method := http.MethodGet
	if req.Head {
		method = http.MethodHead
	}
	line := access{method: method, path: string(req.Path), proto: "HTTP/1.1", remote: remote, userAgent: string(req.UserAgent),
		status: status, size: size, latency: latency}
	line.trace, line.traced = traceOf(string(req.Traceparent), string(req.CloudTraceContext))
	logAccess(context.Background(), f.s.opts.Logger, line, f.s.opts.TraceProject)
}

// fastAnswer returns the body for a request's path with its Cache-Control,
// exactly as the mux and the handlers would choose them; ok is false when
// net/http must serve it.
func (s *Server) fastAnswer(path []byte) (body *asset, cacheControl []string, ok bool) {
	switch {
	case string(path) == "/api/news":
		return s.newsList(), cacheRevalidate, true
	case bytes.HasPrefix(path, []byte("/assets/")):
		name := path[1:]
		if bytes.HasPrefix(name, []byte(consoleAssets)) {
			return nil, nil, false
		}
		f, ok := s.assets.files[string(name)]
		return f, cacheImmutable, ok
	}
	for _, prefix := range s.fastNotPages {
		if bytes.HasPrefix(path, []byte(prefix)) {
			return nil, nil, false
		}
	}
	// What servePage does: a file of the build, else the page.
	if f, ok := s.assets.files[string(path[1:])]; ok && string(path) != "/index.html" {
		return f, rootFileCache(string(path[1:])), true
	}
	if s.assets.index == nil {
		return nil, nil, false
	}
	page, ok := s.knownPage(string(path), s.opts.Hub.Current())
	return page, cacheRevalidate, ok
}

// initFast lists the path prefixes of the routes other than servePage's,
// so that the fast path answers as servePage only what the mux sends there.
// A route's pattern as a prefix covers more than the route (an exact
// /healthz also covers /healthz2): those go to net/http, which is never
// wrong.
func (s *Server) initFast() {
	for _, r := range s.routes() {
		_, p, _ := strings.Cut(r.pattern, " ")
		if p == "/" {
			continue
		}
		if i := strings.IndexByte(p, '{'); i >= 0 {
			p = p[:i]
		}
		s.fastNotPages = append(s.fastNotPages, p)
	}
}

// fastHead is the status line and header of one answer, without its Date
// and final blank line, made once per body variant.
type fastHead struct {
	cacheControl *string // the Cache-Control it was made with
	bytes        []byte
}

// head returns the status line and header of v's answer, with the
// server's security headers (made once per server: an asset is one
// server's).
func (f *asset) head(v *variant, security http.Header, cacheControl []string, notModified bool) []byte {
	slot := &v.heads[0]
	if notModified {
		slot = &v.heads[1]
	}
	if h := slot.Load(); h != nil && h.cacheControl == &cacheControl[0] {
		return h.bytes
	}
	h := make(http.Header, len(security)+7)
	for k, vs := range security {
		h[k] = vs
	}
	f.setHeader(h, v, cacheControl, notModified)
	var b bytes.Buffer
	if notModified {
		b.WriteString("HTTP/1.1 304 Not Modified\r\n")
	} else {
		h["Content-Length"] = v.length
		b.WriteString("HTTP/1.1 200 OK\r\n")
	}
	_ = h.Write(&b) // a bytes.Buffer never fails
	made := &fastHead{cacheControl: &cacheControl[0], bytes: b.Bytes()}
	slot.Store(made)
	return made.bytes
}
