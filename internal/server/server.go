// Package server is the public website: the embedded React build, the news
// API with server-sent events, feeds and the sitemap. A Server is an
// http.Handler (the desktop window serves its page through it) that can also
// own an http.Server with timeouts and limits, its live streams and its
// graceful Shutdown; the caller only starts and stops it.
package server

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/netaddr"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/push"
	"github.com/robohornets/robohornets/internal/server/fastpath"
)

// Options configures the handler.
type Options struct {
	// Assets is the built frontend with index.html at its root. Nil or an FS
	// without index.html serves a page that says the frontend is not built.
	Assets fs.FS
	// Hub supplies the news; required.
	Hub *news.Hub
	// Event supplies the pit display's data; nil means event data is off.
	Event *frcevent.Hub
	// NexusWebhookToken, when set, accepts Nexus's pushes at
	// POST /api/nexus/webhook with this Nexus-Token; "" means no webhook.
	NexusWebhookToken string
	// StoreName names the news store in /healthz ("local", "firestore").
	StoreName string
	// Version, Commit and Built (the build's date) are reported by
	// /healthz; "" reports as "" (a build without -ldflags).
	Version, Commit, Built string
	// Ready tells /readyz whether the store answers: nil or an error, before
	// ctx ends (ReadyTimeout). It is called at most once per ReadyCacheFor,
	// however many probes come. Nil means always ready.
	Ready func(ctx context.Context) error
	// ReadyTimeout is how long /readyz waits for Ready; zero means
	// DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// Clock tells the time; nil means clock.Real.
	Clock clock.Clock
	// Logger receives the access log; nil means slog.Default().
	Logger *slog.Logger
	// TraceProject is the Google Cloud project of the traces that requests
	// name in their trace headers (traceparent, X-Cloud-Trace-Context): an
	// access log line gets Cloud Logging's trace field,
	// projects/TraceProject/traces/TRACE_ID, with the span and the sampling
	// decision. "" logs the bare trace id under "trace".
	TraceProject string
	// Heartbeat is the interval of comments on idle event streams; zero
	// means DefaultHeartbeat.
	Heartbeat time.Duration
	// SiteURL is the absolute base URL used in feeds, the sitemap and link
	// previews, like "https://robohornets.org"; it is never taken from a
	// request, whose Host anyone can set and caches would keep. An https
	// one also sends Strict-Transport-Security; "" means root-relative
	// links and no Strict-Transport-Security.
	SiteURL string
	// MaxStreams caps the live streams (news, article and event updates)
	// open at once; a new one beyond it is answered 503 with Retry-After.
	// Zero means DefaultMaxStreams; NoCap (any negative value) means none.
	MaxStreams int
	// MaxStreamsPerClient caps the live streams of one client (an IPv4
	// address or an IPv6 /64, as Proxies names it); an IPv6 /48 may have
	// netaddr.SiteShare times as many. Zero means
	// DefaultMaxStreamsPerClient; NoCap, none.
	MaxStreamsPerClient int
	// Proxies say which reverse proxies' X-Forwarded-For names the client
	// of a request, for MaxStreamsPerClient; the zero value means the
	// connection's peer is the client.
	Proxies netaddr.Proxies
	// Console is the team console at /admin (its API, and the session that
	// opens its pages and chunks); nil means none (the window, which says to
	// use a phone or a browser).
	Console Console
	// Media serves the console's photos at /media/{name}; nil means none.
	Media http.Handler
	// Push, when set, serves the subscriptions of the team's followers
	// (push.Notifier.Routes); nil: no push API.
	Push *push.Notifier
	// Notice supplies the pit notice (GET /api/notice and its stream); nil
	// means there is never one.
	Notice *notice.Hub
	// FastPathOff sends every request through net/http and the middleware
	// chain. False (the zero value) lets the fast path (package fastpath)
	// answer pages, build files and the news list from memory, the same
	// answers without net/http's per-request work.
	FastPathOff bool
	// StreamWriteTimeout bounds each write of a live stream: a viewer that
	// takes no data for this long is dropped, freeing its connection and
	// goroutine. Zero means DefaultStreamWriteTimeout.
	StreamWriteTimeout time.Duration
}

// Server is the website. Its zero value is not usable: call New.
type Server struct {
	opts   Options
	assets *assets
	// bodies holds the pages, feeds and JSON made from the current news.
	bodies bodyCache
	// eventBodies holds the event pages and JSON made from the current
	// event status, by its version.
	eventBodies bodyCache
	handler     http.Handler
	http        *http.Server
	// fast is the fast path, nil when it is off; fastNotPages are the
	// prefixes of the paths it may not answer as servePage (initFast).
	fast         *fastpath.Server
	fastNotPages []string
	// webhookToken is the SHA-256 of Options.NexusWebhookToken.
	webhookToken [sha256.Size]byte
	// securityHeaders go on every response, on both paths.
	securityHeaders http.Header

	// streams is cancelled as Shutdown begins, which ends every live stream:
	// http.Server.Shutdown waits for open requests but never cancels them.
	streams    context.Context
	endStreams context.CancelFunc
	// liveStreams counts the open streams against their caps.
	liveStreams *streamLimiter
	// runningStreams are the goroutines of the streams that took their
	// connection over from net/http (hijackStream); Shutdown waits for them.
	runningStreams sync.WaitGroup
	// ready is /readyz's cached answer of Options.Ready.
	ready *readiness
}

// Limits of the HTTP server: a slow or idle client cannot hold a
// connection for long, and headers are bounded.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 30 * time.Second // live streams set their own, per write
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

// New returns the website. It panics when opts.Hub is nil, a programmer error.
func New(opts Options) *Server {
	if opts.Hub == nil {
		panic("server.New: Options.Hub is nil")
	}
	opts.Clock = cmp.Or[clock.Clock](opts.Clock, clock.Real{})
	opts.Logger = cmp.Or(opts.Logger, slog.Default())
	opts.Heartbeat = cmp.Or(opts.Heartbeat, DefaultHeartbeat)
	if opts.Event == nil {
		opts.Event = frcevent.NewHub(frcevent.Options{Disabled: true, Logger: opts.Logger})
	}
	opts.MaxStreams = cmp.Or(opts.MaxStreams, DefaultMaxStreams)
	opts.MaxStreamsPerClient = cmp.Or(opts.MaxStreamsPerClient, DefaultMaxStreamsPerClient)
	opts.StreamWriteTimeout = cmp.Or(opts.StreamWriteTimeout, DefaultStreamWriteTimeout)
	opts.ReadyTimeout = cmp.Or(opts.ReadyTimeout, DefaultReadyTimeout)
	s := &Server{opts: opts, assets: loadAssets(opts.Assets, opts.Logger), webhookToken: sha256.Sum256([]byte(opts.NexusWebhookToken)),
		securityHeaders: securityHeaders(opts.SiteURL)}
	s.streams, s.endStreams = context.WithCancel(context.Background())
	s.liveStreams = newStreamLimiter(opts.MaxStreams, opts.MaxStreamsPerClient)
	s.ready = &readiness{check: opts.Ready, timeout: opts.ReadyTimeout, clock: opts.Clock, logger: opts.Logger, parent: s.streams}

	mux := http.NewServeMux()
	for _, r := range s.routes() {
		mux.HandleFunc(r.pattern, r.handler)
	}
	chain := middlewareChain(opts, s.securityHeaders)
	s.handler = behind(chain, mux)
	s.http = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
	}
	if fastPathOn(opts.FastPathOff, chain) {
		s.initFast()
		s.fast = fastpath.New(fastpath.Options{Site: fastSite{s}, NetHTTP: s.http, Clock: opts.Clock, Logger: opts.Logger})
	}
	return s
}

// route is one pattern of the website's mux and its handler.
type route struct {
	pattern string
	handler http.HandlerFunc
}

// routes are the website's patterns; the Nexus webhook is one only when it
// has a token.
func (s *Server) routes() []route {
	routes := []route{
		{"GET /healthz", s.serveHealth},
		{"GET /readyz", s.serveReady},
		{"GET /api/time", s.serveTime},
		{"GET /api/news", s.serveNewsList},
		{"GET /api/news/stream", s.serveNewsStream},
		{"GET /api/news/{id}", s.serveArticle},
		{"GET /api/news/{id}/stream", s.serveArticleStream},
		{"GET /api/event", s.serveEvent},
		{"GET /api/event/stream", s.serveEventStream},
		{"GET /api/notice", s.serveNotice},
		{"GET /api/notice/stream", s.serveNoticeStream},
		{"GET /api/", s.serveAPINotFound},
		{"GET /news.xml", s.serveRSS},
		{"GET /sitemap.xml", s.serveSitemap},
		{"GET /robots.txt", s.serveRobots},
		{"GET /assets/", s.serveAsset},
		{"GET /" + consoleAssets, s.serveConsoleAsset},
		{"GET /admin", s.serveAdminPage},
		{"GET /admin/", s.serveAdminPage},
		{"GET /media/{name}", s.serveMedia},
		{"GET /pit/{file}", s.calendarHandler()}, // {team}.ics; any other name is the page
		{"GET /", s.servePage},
	}
	for _, m := range consoleAPIMethods {
		routes = append(routes, route{m + " /admin/api/", s.serveConsoleAPI})
	}
	if s.opts.Push != nil {
		for _, r := range s.opts.Push.Routes() {
			routes = append(routes, route{r.Pattern, r.Handler})
		}
	}
	if s.opts.NexusWebhookToken != "" {
		routes = append(routes, route{"POST /api/nexus/webhook", s.serveNexusWebhook})
	}
	return routes
}

// ServeHTTP serves one request of the website.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Serve accepts connections on ln until Shutdown; it then returns nil once
// Shutdown has begun, or the error that stopped it. Each connection starts
// on the fast path, which hands it to net/http when needed, unless
// Options.FastPathOff. ln is a plain listener: TLS ends at the reverse
// proxy or the platform's front end.
func (s *Server) Serve(ln net.Listener) error {
	var err error
	if s.fast != nil {
		err = s.fast.Serve(ln)
	} else if err = s.http.Serve(ln); errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// Shutdown ends every live stream, stops accepting connections and waits
// for the open requests to finish, or for ctx to end; then it closes every
// connection left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.endStreams()
	fastDone := make(chan error, 1)
	if s.fast != nil {
		s.fast.Close()
		go func() { fastDone <- s.fast.Wait(ctx) }()
	} else {
		fastDone <- nil
	}
	err := s.http.Shutdown(ctx)
	if err := cmp.Or(err, <-fastDone); err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	return s.waitStreams(ctx)
}

// statusFor maps the errors of the handlers and of the news and event
// packages to HTTP status codes.
func statusFor(err error) int {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, news.ErrInvalidID), errors.Is(err, frcevent.ErrMalformedPush), errors.Is(err, errBadBody):
		return http.StatusBadRequest
	case errors.Is(err, errBadToken):
		return http.StatusUnauthorized
	case errors.Is(err, news.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, frcevent.ErrNoEvent), errors.Is(err, frcevent.ErrOtherEvent):
		return http.StatusConflict
	case errors.Is(err, frcevent.ErrFuturePush):
		return http.StatusUnprocessableEntity
	default:
		return http.StatusInternalServerError
	}
}

// writeError sends err as {"error": "..."} with the status statusFor gives.
func writeError(w http.ResponseWriter, err error) {
	writeJSON(w, statusFor(err), map[string]string{"error": err.Error()})
}

// jsonType is the Content-Type of every JSON response.
const jsonType = "application/json; charset=utf-8"

// writeJSON sends v with status. Its Cache-Control is no-cache unless the
// handler has set its own.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", jsonType)
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) serveTime(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]int64{"now": s.opts.Clock.Now().UnixMilli()})
}

// withAPIMethods answers a method the API does not take with a JSON 405,
// like every API error (the mux's own is plain text): only GET and HEAD,
// and POST on the Nexus webhook when it is on and on the push API's
// subscribe and unsubscribe when it is on.
func withAPIMethods(next http.Handler, webhook, pushAPI bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		isPost := webhook && r.URL.Path == "/api/nexus/webhook" ||
			pushAPI && (r.URL.Path == push.PathSubscribe || r.URL.Path == push.PathUnsubscribe)
		allowed := r.Method == http.MethodGet || r.Method == http.MethodHead || (isPost && r.Method == http.MethodPost)
		if allowed || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Allow", "GET, HEAD")
		if isPost {
			w.Header().Set("Allow", "POST")
		}
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": r.Method + " is not allowed on " + r.URL.Path})
	})
}

func (s *Server) serveAPINotFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "no API at " + r.URL.Path})
}
