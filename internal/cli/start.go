package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/robohornets/robohornets/internal/console"
	"github.com/robohornets/robohornets/internal/datadir"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/follow"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/demo"
	"github.com/robohornets/robohornets/internal/netaddr"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/push"
	"github.com/robohornets/robohornets/internal/server"
	"github.com/robohornets/robohornets/internal/spec"
)

// eventFlags choose the pit display's event and its upstreams. The API keys
// come only from the environment, so they never show in a process list, a
// shell history or a unit file's command line.
type eventFlags struct {
	team              int
	event, nexusEvent string
	nexusURL, tbaURL  string
	nexusKey, tbaKey  string
	nexusWebhookToken string
	withWebhook       bool // serve takes Nexus's pushes; the window does not listen
}

// Values of --event that are not event keys.
const (
	eventOff  = "off"
	eventDemo = "demo"
)

func (e *eventFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&e.team, "team", spec.Team, "our FRC team `NUMBER`")
	fs.StringVar(&e.event, "event", "", "TBA event `KEY` of the pit display, like 2026okok (default: the team's event of today); \"off\" turns event data off; \"demo\" plays a bundled qualification day")
	fs.StringVar(&e.nexusEvent, "nexus-event", "", "the event's `KEY` on FRC Nexus when it differs from TBA's, as for championship divisions (default: --event)")
	fs.StringVar(&e.nexusURL, "nexus-url", frcevent.DefaultNexusURL, "base `URL` of the FRC Nexus API (a mirror or a test server); the key comes from $NEXUS_API_KEY")
	fs.StringVar(&e.tbaURL, "tba-url", frcevent.DefaultTBAURL, "base `URL` of The Blue Alliance API v3; the key comes from $TBA_API_KEY")
	e.nexusKey = os.Getenv("NEXUS_API_KEY")
	e.tbaKey = os.Getenv("TBA_API_KEY")
	e.nexusWebhookToken = os.Getenv("NEXUS_WEBHOOK_TOKEN")
}

// check rejects flag values that cannot work before anything starts.
func (e *eventFlags) check() error {
	if e.team <= 0 {
		return fmt.Errorf("%w: --team %d: want a positive team number", errUsage, e.team)
	}
	for name, u := range map[string]string{"--nexus-url": e.nexusURL, "--tba-url": e.tbaURL} {
		if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			return fmt.Errorf("%w: %s %q: want an http or https URL", errUsage, name, u)
		}
	}
	if strings.ContainsAny(e.event+e.nexusEvent, "/?#% ") {
		return fmt.Errorf("%w: --event %q / --nexus-event %q: an event key has no slashes or spaces", errUsage, e.event, e.nexusEvent)
	}
	return nil
}

// consoleConfig says whether the website has the team console, and which
// reverse proxies it believes about a client's address (--trusted-proxy,
// --trusted-proxy-hops).
type consoleConfig struct {
	on      bool
	proxies netaddr.Proxies
	// push, when set, sends notifications to the team's followers and
	// serves their subscriptions (serve; the window has none).
	push *pushFlags
}

// services are what serve and the window run: the news, notice and event
// hubs and the website over them. stop ends them in order.
type services struct {
	news   *news.Hub
	notice *notice.Hub
	event  *frcevent.Hub
	site   *server.Server
	stop   func()
}

// start opens the news store and the console's documents beside it, starts
// the event poller (or the demo) and the pit notice, and builds the website
// over them; with con.on, the website has the team console at /admin
// (serve; the window has none).
func start(c commonFlags, e eventFlags, logger *slog.Logger, site server.Options, con consoleConfig) (services, error) {
	c.news.Logger = logger
	hub, stopNews, err := news.Start(c.news)
	if err != nil {
		return services{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	db, err := openDocstore(ctx, c.news)
	if err != nil {
		cancel()
		stopNews()
		return services{}, err
	}
	var running sync.WaitGroup
	stopAll := func() {
		cancel()
		running.Wait()
		stopNews()
		_ = db.Close() // shutting down: nothing is left to report to
	}
	if con.on {
		console, err := consoleFor(db, hub.Store(), site.SiteURL, con.proxies, logger)
		if err != nil {
			stopAll()
			return services{}, err
		}
		site.Console = console
		running.Go(func() { _ = console.Run(ctx) }) // sweeps expired records until stop
	}
	site.Media = console.MediaHandler(db)
	site.Ready = storeReady(db)
	notices := notice.NewHub(notice.Options{DB: db, Logger: logger})
	opts := frcevent.Options{
		Team:          e.team,
		EventKey:      e.event,
		NexusEventKey: e.nexusEvent,
		NexusURL:      e.nexusURL,
		TBAURL:        e.tbaURL,
		NexusKey:      e.nexusKey,
		TBAKey:        e.tbaKey,
		CacheFile:     datadir.Dir(c.news.Dir).EventCache(),
		Logger:        logger,
	}
	switch e.event {
	case eventOff:
		opts = frcevent.Options{Team: e.team, Disabled: true, Logger: logger}
	case eventDemo:
		opts = demo.Apply(opts)
	}
	events := frcevent.NewHub(opts)
	running.Go(func() { _ = events.Run(ctx) })
	running.Go(func() { _ = notices.Run(ctx) })

	if con.push != nil {
		n, err := push.NewNotifier(ctx, push.Options{DB: db, Subject: con.push.subject, SiteURL: site.SiteURL, FollowPath: spec.FollowPath,
			AllowLoopback: con.push.allowLoopback, Logger: logger, MaxPerClient: con.push.maxPerClient,
			MaxSubscriptions: con.push.maxSubscriptions, Proxies: con.proxies})
		if err != nil {
			stopAll()
			return services{}, fmt.Errorf("push: %w", err)
		}
		if con.push.allowLoopback {
			logger.Warn("--push-allow-loopback: push subscriptions to plain http on loopback are taken; for tests only")
		}
		site.Push = n
		running.Go(func() { _ = n.Run(ctx) })
		running.Go(func() { _ = follow.Run(ctx, follow.Options{Event: events, News: hub, Push: n, Logger: logger}) })
	}
	site.Hub, site.Event, site.Notice, site.Logger = hub, events, notices, logger
	if e.withWebhook {
		site.NexusWebhookToken = e.nexusWebhookToken
	}
	return services{
		news:   hub,
		notice: notices,
		event:  events,
		site:   server.New(site),
		stop: func() {
			cancel()
			running.Wait()
			if site.Push != nil {
				site.Push.Close()
			}
			stopAll()
		},
	}, nil
}

// The document readiness reads: a cheap read of one that need not exist.
// They are exported for the test of the Firestore security rules, which
// must know every collection the program touches.
const (
	// ReadyCollection is the docstore collection of readiness's document.
	ReadyCollection = "Health"
	// ReadyID is the id of readiness's document in ReadyCollection.
	ReadyID = "ready"
)

// storeReady is serve's readiness: the store answers a read through the
// docstore (the same project and client as the console's documents; the
// news store shares the project). An answer of "no such document" is an
// answer.
func storeReady(db docstore.DB) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := db.Get(ctx, ReadyCollection, ReadyID)
		if errors.Is(err, docstore.ErrNotFound) {
			return nil
		}
		return err
	}
}

// consoleFor makes the team console over db, publishing to the news store.
// Its relying party is the --site-url only when one was given for a public
// https address; the default (this machine's listen address) leaves it to
// the request's host, which only http://localhost may use.
func consoleFor(db docstore.DB, store news.Store, siteURL string, proxies netaddr.Proxies, logger *slog.Logger) (*console.Console, error) {
	if !strings.HasPrefix(siteURL, "https://") {
		siteURL = ""
	}
	con, err := console.New(console.Options{DB: db, News: store, SiteURL: siteURL, Proxies: proxies, Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	return con, nil
}
