package desktop

import (
	"context"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

// Timings of Cover in the kiosk window.
const (
	// CoverEvery is how often the kiosk window compares itself with its
	// screen: three cheap calls to the window system, once a second.
	CoverEvery = time.Second
	// CoverMaxWait is the longest wait between attempts when fitting the
	// window changes nothing (a window manager that holds it elsewhere).
	CoverMaxWait = time.Minute
)

// Size is a width and a height in pixels.
type Size struct {
	Width, Height int
}

// Placement is where a window is and how large it is, in pixels; X and Y
// are relative to the top-left corner of its screen.
type Placement struct {
	X, Y, Width, Height int
}

// Screen is one monitor as the window system reports it.
type Screen struct {
	Size
	// Current is true for the monitor the window is on.
	Current bool
	// Primary is true for the monitor the system calls its main one.
	Primary bool
}

// PickScreen returns the size of the screen a kiosk window belongs on: the
// one it is on, else the primary one, else the first. ok is false when
// there is no screen with an area.
func PickScreen(screens []Screen) (size Size, ok bool) {
	pick := -1
	for i, s := range screens {
		if s.Width <= 0 || s.Height <= 0 {
			continue
		}
		switch {
		case s.Current:
			return s.Size, true
		case pick < 0, s.Primary && !screens[pick].Primary:
			pick = i
		}
	}
	if pick < 0 {
		return Size{}, false
	}
	return screens[pick].Size, true
}

// Covers reports whether a window at p covers a screen of size s exactly:
// at its top-left corner and just as large.
func Covers(p Placement, s Size) bool {
	return p == Placement{Width: s.Width, Height: s.Height}
}

// Cover keeps an unattended window covering its whole screen. A fullscreen
// request needs a window manager to act on it; on a bare X display (xinit
// behind a TV) nobody does, and the screen may change size while the window
// is open, so the window is measured again and again and fitted whenever it
// does not cover the screen.
type Cover struct {
	// Every is how often the screen and the window are measured; must be
	// positive.
	Every time.Duration
	// MaxWait caps the wait between attempts when fitting changes nothing:
	// each such attempt doubles the wait, starting from Every, so a window
	// manager that keeps the window elsewhere is not fought every second.
	// Zero means Every: no backing off.
	MaxWait time.Duration
}

// Run measures the screen and the window at once and then every c.Every
// until ctx ends, and calls fit with the screen's size and the window's
// placement whenever the window does not cover the screen. A failed
// measurement (the window is not up yet) is tried again after c.Every. When
// the measurement after a fit is the same as before it, the fit did nothing
// and the next attempt waits twice as long, up to c.MaxWait; any change
// starts over at c.Every.
func (c Cover) Run(ctx context.Context, clk clock.Clock, measure func() (Size, Placement, error), fit func(screen Size, from Placement)) {
	var (
		wait      time.Duration // the first measurement is at once
		backoff   = c.Every
		fitted    bool // the last round called fit
		lastSize  Size
		lastPlace Placement
	)
	for {
		select {
		case <-ctx.Done():
			return
		case <-clk.After(wait):
		}
		wait = c.Every
		screen, win, err := measure()
		if err != nil || screen.Width <= 0 || screen.Height <= 0 {
			fitted = false
			continue
		}
		if Covers(win, screen) {
			fitted, backoff = false, c.Every
			continue
		}
		if fitted && screen == lastSize && win == lastPlace {
			// The last fit changed nothing: try again, less often.
			backoff = min(2*backoff, max(c.MaxWait, c.Every))
			wait = backoff
		} else {
			backoff = c.Every
		}
		fit(screen, win)
		fitted, lastSize, lastPlace = true, screen, win
	}
}
