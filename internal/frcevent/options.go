package frcevent

import (
	"log/slog"
	"math/rand/v2"
	"net/http"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/spec"
)

// Options configures a Hub. Every zero value is usable.
type Options struct {
	// Team is our team number; zero means spec.Team.
	Team int
	// EventKey is the TBA event key, like "2026okok"; "" means find the
	// event of today among Team's events of the year on TBA (which needs
	// TBAKey), and Configured stays false when there is none. Meanwhile an
	// event named by the cache is polled, so that a TBA that is down or
	// refuses the key never keeps Nexus from being asked.
	EventKey string
	// Disabled turns event data off (--event off): Configured is false and
	// no request is ever made.
	Disabled bool
	// NexusEventKey is the event's key on Nexus when it differs from TBA's
	// (championship divisions); "" means EventKey.
	NexusEventKey string
	// NexusURL is the base of the Nexus API; "" means DefaultNexusURL.
	NexusURL string
	// TBAURL is the base of the TBA API; "" means DefaultTBAURL.
	TBAURL string
	// NexusKey is sent as the Nexus-Api-Key header; "" turns Nexus off: no
	// request, its Source is "off".
	NexusKey string
	// TBAKey is sent as the X-TBA-Auth-Key header; "" turns TBA off like
	// NexusKey does Nexus.
	TBAKey string
	// Keyless asks both sources without a key header, for an upstream that
	// needs none: the demo's, inside this process. False means a source
	// without its key is off.
	Keyless bool
	// CacheFile keeps the last good data across restarts, like
	// "DATA/cache/event.json"; its directory is created. "" means no cache.
	CacheFile string
	// Clock tells the time and paces the polls; nil means clock.Real.
	Clock clock.Clock
	// Logger receives upstream errors; nil means slog.Default().
	Logger *slog.Logger
	// HTTPClient makes the requests, each bounded to 10 s by the hub; nil
	// means a new http.Client.
	HTTPClient *http.Client
	// Rand jitters the retry waits; nil means a randomly seeded source.
	Rand *rand.Rand
	// Speedup divides every wait between two requests: the demo plays a
	// compressed event against a stand-in in this process, which asks for
	// no politeness. Zero means 1, the real pace, which a real upstream
	// needs (TBA: at most one request per path every 61 s).
	Speedup int
}

// withDefaults returns o with every zero field set to what its doc says.
func (o Options) withDefaults() Options {
	opts := o
	if opts.Team == 0 {
		opts.Team = spec.Team
	}
	if opts.NexusEventKey == "" {
		opts.NexusEventKey = opts.EventKey
	}
	if opts.NexusURL == "" {
		opts.NexusURL = DefaultNexusURL
	}
	if opts.TBAURL == "" {
		opts.TBAURL = DefaultTBAURL
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	opts.Speedup = max(opts.Speedup, 1)
	return opts
}
