package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/robohornets/robohornets/internal/netaddr"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

const serveUsage = `Usage: robohornets serve [flags]

Serves the public website over HTTP. Put it behind any reverse proxy for TLS.
`

// The values of --fast-path.
const (
	fastPathOn  = "on"
	fastPathOff = "off"
)

// shutdownGrace is how long open requests may take to finish at shutdown.
// Live streams end at once; what is left (closing the stores, the last log
// lines) fits in the rest of the 10 s that container platforms (Cloud Run,
// podman stop, docker stop) wait after SIGTERM before they kill.
const shutdownGrace = 8 * time.Second

func (p Program) runServe(args []string) error {
	fs := newFlagSet("serve", serveUsage, p.Stderr)
	var c commonFlags
	c.register(fs)
	e := eventFlags{withWebhook: true}
	e.register(fs)
	listen := fs.String("listen", "", "`ADDR` to listen on (default 127.0.0.1:8080, or :$PORT when PORT is set)")
	maxStreams := fs.Int("max-streams", server.DefaultMaxStreams, "most live streams (the news, article and event updates of open pages) this process keeps open at once; beyond it a new one is answered 503 with Retry-After (0: no cap). Each takes a file descriptor")
	maxPerClient := fs.Int("max-streams-per-client", server.DefaultMaxStreamsPerClient, "most live streams open from one client (an IPv4 address or an IPv6 /64; an IPv6 /48 may open 16 times as many); 0: no cap. Behind a reverse proxy, set --trusted-proxy-hops or --trusted-proxy so that the client is not the proxy")
	trusted := fs.String("trusted-proxy", "", "comma-separated `ADDRS` (IP addresses or CIDR prefixes) of the reverse proxies in front of this server: when a request comes from one of them, the nearest address of X-Forwarded-For that is not one is the client, for the per-client limits (sign-in, live streams) and the console's audit log (default: none; the connection's peer is the client)")
	hops := fs.Int("trusted-proxy-hops", 0, "`N` proxies stand in front of this server and every request comes through them, each appending the address it saw to X-Forwarded-For: the client is the N-th address from the right, for the per-client limits and the audit log. 1 on Cloud Run (its front end); 2 behind a Google Cloud load balancer in front of Cloud Run. Never set it where clients can reach the server directly: they would name themselves (default 0: off)")
	fastPath := fs.String("fast-path", fastPathOn, "`on` or off. On, pages, build files and the news list are answered from memory by a fast path in front of net/http (one read and one write a request, a large build file by sendfile); off sends every request through net/http and its middleware: the same answers, at more CPU a request")
	var pf pushFlags
	pf.register(fs)
	siteURL := siteURLFlag(fs, "for feeds, the sitemap and link previews (default: http:// and the --listen address; never the request's Host, which anyone can set)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *maxStreams < 0 || *maxPerClient < 0 {
		return fmt.Errorf("%w: --max-streams %d / --max-streams-per-client %d: want 0 (no cap) or more", errUsage, *maxStreams, *maxPerClient)
	}
	if *fastPath != fastPathOn && *fastPath != fastPathOff {
		return fmt.Errorf("%w: --fast-path %q: want %s or %s", errUsage, *fastPath, fastPathOn, fastPathOff)
	}
	if err := c.checkStore(); err != nil {
		return err
	}
	if err := e.check(); err != nil {
		return err
	}
	if err := checkSiteURL(*siteURL); err != nil {
		return err
	}
	if err := pf.check(*siteURL); err != nil {
		return err
	}
	proxies, err := netaddr.ParseProxies(*trusted)
	if err != nil {
		return fmt.Errorf("%w: --trusted-proxy: %v", errUsage, err)
	}
	switch {
	case *hops < 0:
		return fmt.Errorf("%w: --trusted-proxy-hops %d: want 0 (off) or more", errUsage, *hops)
	case *hops > 0 && proxies.Trusted != nil:
		return fmt.Errorf("%w: --trusted-proxy-hops and --trusted-proxy: give one of them (hops when the proxies' addresses are not known, as on Cloud Run)", errUsage)
	}
	proxies.Hops = *hops
	addr := *listen
	if addr == "" {
		addr = "127.0.0.1:8080"
		if port := os.Getenv("PORT"); port != "" {
			addr = ":" + port
		}
	}
	// The log goes to stdout, one JSON object a line with Cloud Logging's
	// field names: what Cloud Run and other container platforms collect.
	// One access log line per request: batched, not a write each.
	logs := newLogBuffer(p.Stdout)
	defer func() { _ = logs.Close() }() // a log that cannot be written has no one to tell
	logger := slog.New(newCloudLogHandler(logs, c.logLevel))
	setMemoryLimit(logger, os.Getenv("GOMEMLIMIT"), cgroupRoot)
	if c.news.Kind == news.StoreLocal {
		logger.Warn(localStoreWarning, "data", c.news.Dir)
	}
	if *siteURL == "" {
		*siteURL = localSiteURL(addr)
		logger.Warn("no --site-url: feeds, the sitemap and link previews point to this machine; give the public address", "site_url", *siteURL)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	svc, err := start(c, e, logger, server.Options{Assets: p.Assets, StoreName: c.news.Kind, Version: p.Version, Commit: p.Commit, Built: p.Built, SiteURL: *siteURL,
		MaxStreams: streamCap(*maxStreams), MaxStreamsPerClient: streamCap(*maxPerClient), Proxies: proxies, TraceProject: c.news.Project, FastPathOff: *fastPath == fastPathOff}, consoleConfig{on: true, proxies: proxies, push: &pf})
	if err != nil {
		return err
	}
	defer svc.stop()
	site := svc.site
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("serving", "url", "http://"+ln.Addr().String(), "store", c.news.Kind, "version", p.Version, "commit", p.Commit, "fast_path", *fastPath)
	warnFileLimit(logger, *maxStreams)
	served := make(chan error, 1)
	go func() { served <- site.Serve(ln) }()

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// A second SIGINT or SIGTERM ends the process at once, as it would
	// without a handler: whoever sends it does not want to wait.
	stop()
	logger.Info("shutting down; a second signal exits at once", "grace", shutdownGrace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := site.Shutdown(shutdownCtx); err != nil {
		return err
	}
	// Said, so that a log shows a clean stop apart from a killed process.
	logger.Info("shut down: every request and live stream ended")
	return nil
}

// localStoreWarning is said at start with the local store: its files are
// this machine's, so a second instance (or a container whose disk goes with
// it) would show other news.
const localStoreWarning = "the local store is for a single instance: its news lives in this machine's data directory; several instances, or a container platform such as Cloud Run, need --store firestore"

// localSiteURL is the website's address when only the listen address is
// known: its host, or localhost when it listens on every interface.
func localSiteURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// streamCap is the server's cap for a --max-streams flag: on the command
// line 0 is the way to say "no cap" (the default is the flag's), while in
// server.Options, as in every Options, zero means the default.
func streamCap(flag int) int {
	if flag == 0 {
		return server.NoCap
	}
	return flag
}
