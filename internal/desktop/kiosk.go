// Package desktop is the desktop window and the logic of unattended screens:
// rotating through pages, reloading a page that stopped answering, night
// dimming, covering the screen and the memory guard. Only wails.go (desktop
// builds) knows Wails; the rest is plain Go the caller wires to the window.
package desktop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// Rotation cycles a window through routes.
type Rotation struct {
	// Routes are shown in order, starting with the first; at least one.
	Routes []string
	// Every is how long each route stays; must be positive.
	Every time.Duration
	// PauseFor is how long an interaction (touch, click, key) pauses the
	// rotation; it then resumes from the first route.
	PauseFor time.Duration
	// HoldRoute is shown for as long as a hold lasts (our match is
	// queuing); "" means holds are ignored.
	HoldRoute string
}

// ParseRoutes splits a comma-separated route list like "/,/news".
func ParseRoutes(list string) ([]string, error) {
	var routes []string
	for _, r := range strings.Split(list, ",") {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !strings.HasPrefix(r, "/") {
			return nil, fmt.Errorf("kiosk: route %q must start with /", r)
		}
		routes = append(routes, r)
	}
	if len(routes) == 0 {
		return nil, errors.New("kiosk: no routes to rotate through")
	}
	return routes, nil
}

// Run navigates to the next route every r.Every until ctx ends. An
// interaction, sent as the time it happened, pauses the rotation for
// r.PauseFor from then (each new one restarts the pause); when the pause ends
// it navigates to the first route and goes on. A true on holds navigates to
// r.HoldRoute at once and stops the rotation there until a false, which
// resumes it from the first route.
// Only one wait is pending at a time: an interaction moves the deadline, the
// wait then sleeps on to it.
func (r Rotation) Run(ctx context.Context, clk clock.Clock, interactions <-chan time.Time, holds <-chan bool, navigate func(route string)) {
	i := 0
	next := clk.Now().Add(r.Every)
	paused, held := false, false
	wait := clk.After(r.Every)
	for {
		select {
		case <-ctx.Done():
			return
		case at := <-interactions:
			paused = true
			next = at.Add(r.PauseFor)
		case h := <-holds:
			if r.HoldRoute == "" || h == held {
				continue
			}
			held = h
			if held {
				navigate(r.HoldRoute)
				continue
			}
			// The match is on field: start over, a full interval per page.
			paused, i = false, 0
			navigate(r.Routes[i])
			next = clk.Now().Add(r.Every)
		case now := <-wait:
			if now.Before(next) {
				wait = clk.After(next.Sub(now))
				continue
			}
			if held {
				next = now.Add(r.Every)
				wait = clk.After(r.Every)
				continue
			}
			if paused {
				paused, i = false, 0
			} else {
				i = (i + 1) % len(r.Routes)
			}
			navigate(r.Routes[i])
			next = now.Add(r.Every)
			wait = clk.After(r.Every)
		}
	}
}

// ErrHung is returned by Watchdog.Run when reloading did not bring the page back.
var ErrHung = errors.New("kiosk: the page stopped answering and reloading did not help")

// Watchdog reloads a page whose heartbeat stopped.
type Watchdog struct {
	// Timeout is how long the page may be silent before it is reloaded.
	Timeout time.Duration
	// MaxReloads is how many reloads in a row may fail before Run gives up.
	MaxReloads int
}

// Run calls reload whenever no heartbeat arrived for w.Timeout. A heartbeat,
// sent as the time the page sent it, resets the count of failed reloads. After w.MaxReloads reloads that
// brought no heartbeat, Run returns ErrHung, so the process can exit and its
// supervisor restart it. Run returns nil when ctx ends. A heartbeat only
// moves the deadline; one wait is pending at a time.
func (w Watchdog) Run(ctx context.Context, clk clock.Clock, heartbeats <-chan time.Time, reload func()) error {
	failed := 0
	deadline := clk.Now().Add(w.Timeout)
	wait := clk.After(w.Timeout)
	for {
		select {
		case <-ctx.Done():
			return nil
		case at := <-heartbeats:
			failed = 0
			deadline = at.Add(w.Timeout)
		case now := <-wait:
			if now.Before(deadline) {
				wait = clk.After(deadline.Sub(now))
				continue
			}
			if failed == w.MaxReloads {
				return ErrHung
			}
			failed++
			reload()
			deadline = now.Add(w.Timeout)
			wait = clk.After(w.Timeout)
		}
	}
}

// Schedule is a daily time window like 22:00-06:00, in local time; it may
// wrap past midnight. The zero Schedule is never active.
type Schedule struct {
	from, to time.Duration // since midnight
	set      bool
}

// ParseSchedule reads "HH:MM-HH:MM"; "" gives the zero Schedule.
func ParseSchedule(s string) (Schedule, error) {
	if s == "" {
		return Schedule{}, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return Schedule{}, fmt.Errorf("kiosk: schedule %q: want HH:MM-HH:MM", s)
	}
	from, err := ParseTimeOfDay(a)
	if err != nil {
		return Schedule{}, fmt.Errorf("kiosk: schedule %q: %w", s, err)
	}
	to, err := ParseTimeOfDay(b)
	if err != nil {
		return Schedule{}, fmt.Errorf("kiosk: schedule %q: %w", s, err)
	}
	if from == to {
		return Schedule{}, fmt.Errorf("kiosk: schedule %q is empty", s)
	}
	return Schedule{from: from, to: to, set: true}, nil
}

// ParseTimeOfDay reads HH:MM or HH:MM:SS as the time since midnight.
func ParseTimeOfDay(s string) (time.Duration, error) {
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second, nil
		}
	}
	return 0, fmt.Errorf("%q is not a time of day like 12:09 or 12:09:00", s)
}

// Active reports whether t falls inside the schedule.
func (s Schedule) Active(t time.Time) bool {
	if !s.set {
		return false
	}
	y, m, d := t.Date()
	since := t.Sub(time.Date(y, m, d, 0, 0, 0, 0, t.Location()))
	if s.from < s.to {
		return since >= s.from && since < s.to
	}
	return since >= s.from || since < s.to
}
