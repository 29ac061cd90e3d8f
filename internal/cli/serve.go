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

	"github.com/robohornets/robohornets/internal/server"
)

const serveUsage = `Usage: robohornets serve [flags]

Serves the public website over HTTP. Put it behind any reverse proxy for TLS.
`

// shutdownGrace is how long open requests may take to finish at shutdown.
const shutdownGrace = 10 * time.Second

func (p Program) runServe(args []string) error {
	fs := newFlagSet("serve", serveUsage, p.Stderr)
	var c commonFlags
	c.register(fs)
	e := eventFlags{withWebhook: true}
	e.register(fs)
	listen := fs.String("listen", "", "`ADDR` to listen on (default 127.0.0.1:8080, or :$PORT when PORT is set)")
	siteURL := siteURLFlag(fs, "for feeds, the sitemap and link previews (default: the request's host)")
	if err := parse(fs, args); err != nil {
		return err
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
	addr := *listen
	if addr == "" {
		addr = "127.0.0.1:8080"
		if port := os.Getenv("PORT"); port != "" {
			addr = ":" + port
		}
	}
	logger := slog.New(slog.NewJSONHandler(p.Stderr, &slog.HandlerOptions{Level: c.logLevel}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	svc, err := start(c, e, logger, server.Options{Assets: p.Assets, StoreName: c.news.Kind, Version: p.Version, SiteURL: *siteURL})
	if err != nil {
		return err
	}
	defer svc.stop()
	site := svc.site
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("serving", "url", "http://"+ln.Addr().String(), "store", c.news.Kind, "version", p.Version)
	served := make(chan error, 1)
	go func() { served <- site.Serve(ln) }()

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	return site.Shutdown(shutdownCtx)
}
