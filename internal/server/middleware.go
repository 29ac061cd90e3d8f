package server

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/robohornets/robohornets/internal/clock"
)

// middleware is one layer of the chain in front of the mux, and what the
// fast path, which answers its requests without the chain, does about it.
type middleware struct {
	name     string
	fastPath fastPathTreatment
	wrap     func(next http.Handler) http.Handler
}

// fastPathTreatment is how a middleware's work is done for the requests
// the fast path answers. A middleware added without one (the zero value)
// is refused by New, and TestMiddlewareChain lists every middleware with
// its treatment: a rate limit or a metric would otherwise be skipped on
// the fast path without a word.
type fastPathTreatment int

const (
	fastPathUndecided fastPathTreatment = iota
	// fastPathMirrors: the fast path does the same work itself (an access
	// log line, the security headers in every header it sends), which
	// TestFastPathOffAnswersTheSame and TestFastPathLogsAsNetHTTP compare.
	fastPathMirrors
	// fastPathUntouched: the middleware passes every request the fast path
	// reads (a GET or HEAD of a clean path) to the next handler as it is,
	// and writes nothing; TestUntouchedMiddlewarePassesFastRequests holds
	// it to that.
	fastPathUntouched
	// fastPathOff: the fast path cannot do the middleware's work (a rate
	// limit, a metric per request): while it is in the chain, net/http
	// serves every request, as with Options.FastPathOff.
	fastPathOff
)

// middlewareChain is the chain in front of the mux, outermost first.
// security is the server's securityHeaders, which the fast path's
// answers carry too.
func middlewareChain(opts Options, security http.Header) []middleware {
	return []middleware{
		{"access log", fastPathMirrors, func(next http.Handler) http.Handler {
			return withAccessLog(opts.Logger, opts.Clock, opts.TraceProject, next)
		}},
		{"security headers", fastPathMirrors, func(next http.Handler) http.Handler { return withSecurityHeaders(security, next) }},
		{"one meaning per path", fastPathUntouched, withOneMeaningPerPath},
		{"API methods", fastPathUntouched, func(next http.Handler) http.Handler {
			return withAPIMethods(next, opts.NexusWebhookToken != "", opts.Push != nil)
		}},
	}
}

// behind returns h behind chain, its first middleware outermost.
func behind(chain []middleware, h http.Handler) http.Handler {
	for i := len(chain) - 1; i >= 0; i-- {
		h = chain[i].wrap(h)
	}
	return h
}

// fastPathOn reports whether the fast path may answer in front of chain:
// not turned off, and no middleware of chain says it cannot do its work.
// It panics on a middleware that has not decided, a programmer error.
func fastPathOn(off bool, chain []middleware) bool {
	on := !off
	for _, m := range chain {
		switch m.fastPath {
		case fastPathMirrors, fastPathUntouched:
		case fastPathOff:
			on = false
		default:
			panic("server: middleware " + m.name + " does not say what the fast path does about it (fastPathTreatment)")
		}
	}
	return on
}

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

// strictTransportSecurity tells a browser that has seen the site over https
// to use nothing else for two years, so that a hostile network cannot serve
// it the site over http later. Without includeSubDomains: the site knows
// only its own host, the team may run other hosts under its domain over
// plain http (at an event, say), and the console's __Host- cookies already
// refuse to be set by another host. Without preload, which is a promise
// for the whole domain that only its owner can make.
const strictTransportSecurity = "max-age=63072000"

// securityHeaders returns the headers that go on every response of a site
// whose public address is siteURL: Strict-Transport-Security only when that
// is https (over http it would be ignored, or, behind a proxy that adds
// TLS the site does not know of, a promise the site cannot keep). The
// values are built once and shared: a handler that changes one replaces
// its slice (Header.Set) or appends past its length of one, so the shared
// arrays are never written.
func securityHeaders(siteURL string) http.Header {
	h := http.Header{
		"Content-Security-Policy":    {contentSecurityPolicy},
		"X-Content-Type-Options":     {"nosniff"},
		"Referrer-Policy":            {"strict-origin-when-cross-origin"},
		"Permissions-Policy":         {"camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
		"X-Frame-Options":            {"DENY"},
		"Cross-Origin-Opener-Policy": {"same-origin"},
	}
	if strings.HasPrefix(siteURL, "https://") {
		h["Strict-Transport-Security"] = []string{strictTransportSecurity}
	}
	return h
}

// withSecurityHeaders sets headers (securityHeaders) on every response of
// next.
func withSecurityHeaders(headers http.Header, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range headers {
			h[k] = v[:1:1]
		}
		next.ServeHTTP(w, r)
	})
}

// withOneMeaningPerPath refuses with 404 a path that means one thing to the
// mux and another to a handler. The mux matches the escaped path, segment
// by segment, and redirects only the dot segments and double slashes it
// sees there; a handler reads the decoded path. So /assets%2Fconsole%2Fx.js
// would reach the public page route as one segment and then name a console
// chunk, an escaped dot segment would climb out of the folder the mux
// matched, and a backslash is a slash to browsers and some proxies but not
// to the mux. No URL of the site holds them (a news id has no slash, and
// browsers escape neither a slash nor a dot in one), so nothing is lost;
// the fast path hands every escaped or backslashed path to net/http
// (cleanPath), which comes here.
func withOneMeaningPerPath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if twoMeanings(r.URL.Path, r.URL.RawPath) {
			msg := "no such path: an escaped slash, a backslash or an escaped dot segment could name two paths"
			if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/admin/api/") {
				writeJSON(w, http.StatusNotFound, map[string]string{"error": msg})
				return
			}
			http.Error(w, msg, http.StatusNotFound)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// twoMeanings reports whether a request's decoded path and its raw form
// (url.URL.RawPath: set whenever the raw form is not the decoded path's
// default escaping) may be read as two different paths: an escaped slash
// (%2F), a backslash, escaped (%5C, which decodes into path) or not, or an
// escaped dot segment.
func twoMeanings(path, rawPath string) bool {
	if strings.Contains(path, `\`) {
		return true
	}
	if rawPath == "" {
		return false
	}
	raw := strings.ToLower(rawPath)
	if strings.Contains(raw, "%2f") {
		return true
	}
	if !strings.Contains(raw, "%2e") {
		return false
	}
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
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
