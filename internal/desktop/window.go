package desktop

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/notice"
	"github.com/robohornets/robohornets/internal/spec"
)

// Watchdog and rotation settings of the kiosk that are not the spec's.
const (
	// WatchdogMaxReloads is how many reloads in a row may fail before the
	// window gives up and exits, so its supervisor restarts it.
	WatchdogMaxReloads = 3
	// RotationPause is how long a touch, click or key pauses the rotation.
	RotationPause = 60 * time.Second
	// PitRoute is the pit display, where the rotation holds while our match
	// is queuing.
	PitRoute = "/pit"
)

// Flags are the desktop window's settings as the command line gives
// them, before they are checked.
type Flags struct {
	Route, Rotate, Dim, CountdownAt, CountdownDebug, SiteURL, MaxMemory, GPU string
	Kiosk                                                                    bool
	Every, Watchdog                                                          time.Duration
}

// Config is the checked settings of the desktop window.
type Config struct {
	// StartRoute is the page the window opens on.
	StartRoute string
	// CountdownQuery is added to /whattimeisit routes, like "at=12:09:00&debug=off".
	CountdownQuery string
	// Kiosk is true on an unattended screen: fullscreen, frameless, one instance.
	Kiosk bool
	// Rotation cycles the window through pages; nil means no rotation.
	Rotation *Rotation
	// Watchdog reloads a page that stopped answering; nil means none.
	Watchdog *Watchdog
	// MemoryGuard reloads the page past a memory ceiling; nil means none.
	MemoryGuard *MemoryGuard
	// Dim darkens the screen daily; the zero Schedule never does.
	Dim Schedule
	// SiteURL is the public website's address, for the pit display's QR
	// code; "" means none.
	SiteURL string
	// Accelerated asks the web view to composite its page with the GPU.
	Accelerated bool
	// Notice supplies the pit notice, sent to the page as EventNotice after
	// each change; nil means none.
	Notice *notice.Hub
}

// Check checks the flags and returns the window's settings. Each error
// names the flag at fault.
func (f Flags) Check() (Config, error) {
	var w Config
	if !strings.HasPrefix(f.Route, "/") {
		return w, fmt.Errorf("--route %q must start with /", f.Route)
	}
	w.StartRoute, w.Kiosk, w.SiteURL = f.Route, f.Kiosk, f.SiteURL
	if f.Rotate != "" {
		routes, err := ParseRoutes(f.Rotate)
		if err != nil {
			return w, fmt.Errorf("--rotate: %w", err)
		}
		if f.Every <= 0 {
			return w, fmt.Errorf("--every %v must be positive", f.Every)
		}
		w.Rotation = &Rotation{Routes: routes, Every: f.Every, PauseFor: RotationPause, HoldRoute: PitRoute}
		if f.Route == "/" {
			w.StartRoute = routes[0]
		}
	}
	if f.Watchdog < 0 {
		return w, fmt.Errorf("--watchdog %v must not be negative", f.Watchdog)
	}
	if f.Watchdog > 0 {
		w.Watchdog = &Watchdog{Timeout: f.Watchdog, MaxReloads: WatchdogMaxReloads}
	}
	ceiling, err := ParseSize(f.MaxMemory)
	if err != nil {
		return w, fmt.Errorf("--max-memory: %w", err)
	}
	if ceiling > 0 {
		w.MemoryGuard = &MemoryGuard{Ceiling: ceiling, First: MemoryFirstCheck, Every: MemoryCheckEvery, Settle: MemorySettle, MaxReloads: MemoryMaxReloads}
	}
	dim, err := ParseSchedule(f.Dim)
	if err != nil {
		return w, fmt.Errorf("--dim: %w", err)
	}
	w.Dim = dim
	at, err := ParseTimeOfDay(f.CountdownAt)
	if err != nil {
		return w, fmt.Errorf("--countdown-at: %w", err)
	}
	q := url.Values{}
	if def, _ := ParseTimeOfDay(spec.CountdownTargetTimeOfDay); at != def {
		q.Set("at", formatTimeOfDay(at))
	}
	switch f.CountdownDebug {
	case "on":
	case "off":
		q.Set("debug", "off")
	default:
		return w, fmt.Errorf("--countdown-debug %q: want on or off", f.CountdownDebug)
	}
	w.CountdownQuery = q.Encode()
	switch f.GPU {
	case "auto":
		w.Accelerated = hasRenderNode(DRIDir)
	case "on":
		w.Accelerated = true
	case "off":
	default:
		return w, fmt.Errorf("--gpu %q: want auto, on or off", f.GPU)
	}
	return w, nil
}

// DRIDir is where Linux lists the machine's graphics devices.
const DRIDir = "/dev/dri"

// hasRenderNode reports whether dir holds a GPU render node (renderD128 and
// up). Without one, WebKit's accelerated compositing runs on a software GL
// (Mesa's llvmpipe) and costs the page's main thread more than it saves:
// during the countdown's celebration the clock's ticks reach the page later
// with it than without (docs/BENCHMARKS.md has the figures).
func hasRenderNode(dir string) bool {
	nodes, _ := filepath.Glob(filepath.Join(dir, "renderD*"))
	return len(nodes) > 0
}

// WithDefaults adds the countdown settings of the command line to a route
// of the countdown page that has no query of its own.
func (w Config) WithDefaults(route string) string {
	if w.CountdownQuery == "" || route != "/whattimeisit" {
		return route
	}
	return route + "?" + w.CountdownQuery
}

func formatTimeOfDay(d time.Duration) string {
	return fmt.Sprintf("%02d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}
