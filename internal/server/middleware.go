package server

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/robohornets/robohornets/internal/clock"
)

// contentSecurityPolicy allows scripts and styles from this site only (no
// inline code, no eval), images from this site, data: ones and any https
// one (an article may show a picture hosted elsewhere; a plain-http one
// would be insecure content on the site and is refused), and the season
// page's video from YouTube's frame. It is
// as strict as the pages allow: e2e/csp.test.mjs and e2e-desktop/csp.test.mjs
// load every route under it and fail on a violation.
var contentSecurityPolicy = strings.Join([]string{
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data: https:",
	"font-src 'self'",
	"connect-src 'self'",
	"media-src 'self'",
	"frame-src https://www.youtube-nocookie.com",
	"object-src 'none'",
	"base-uri 'none'",
	"form-action 'self'",
	"frame-ancestors 'none'",
}, "; ")

// securityHeaders go on every response. The values are built once and
// shared: a handler that changes one replaces its slice (Header.Set) or
// appends past its length of one, so the shared arrays are never written.
var securityHeaders = http.Header{
	"Content-Security-Policy":    {contentSecurityPolicy},
	"X-Content-Type-Options":     {"nosniff"},
	"Referrer-Policy":            {"strict-origin-when-cross-origin"},
	"Permissions-Policy":         {"camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
	"X-Frame-Options":            {"DENY"},
	"Cross-Origin-Opener-Policy": {"same-origin"},
}

func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range securityHeaders {
			h[k] = v[:1:1]
		}
		next.ServeHTTP(w, r)
	})
}

// recorder notes the status and size of a response for the access log. It
// passes Unwrap through so http.NewResponseController still reaches the
// connection (flushing, deadlines) for event streams.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// withAccessLog logs one line per request, with the fields Cloud Logging
// reads (logAccess); traceProject is the project of its trace field.
func withAccessLog(logger *slog.Logger, clk clock.Clock, traceProject string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := clk.Now()
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		logAccess(r.Context(), logger, accessOf(r, rec.status, rec.bytes, clk.Now().Sub(start)), traceProject)
	})
}
