package desktop

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

func TestPickScreen(t *testing.T) {
	tv := Size{Width: 1920, Height: 1080}
	laptop := Size{Width: 1280, Height: 800}
	tests := []struct {
		name    string
		screens []Screen
		want    Size
		wantOK  bool
	}{
		{name: "none", screens: nil},
		{name: "only empty ones", screens: []Screen{{Size: Size{}, Current: true}}},
		{name: "one", screens: []Screen{{Size: tv}}, want: tv, wantOK: true},
		{name: "the one the window is on", screens: []Screen{{Size: laptop, Primary: true}, {Size: tv, Current: true}}, want: tv, wantOK: true},
		{name: "else the primary one", screens: []Screen{{Size: laptop}, {Size: tv, Primary: true}}, want: tv, wantOK: true},
		{name: "else the first", screens: []Screen{{Size: laptop}, {Size: tv}}, want: laptop, wantOK: true},
		{name: "an empty current one is skipped", screens: []Screen{{Current: true}, {Size: tv}}, want: tv, wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := PickScreen(tt.screens)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("PickScreen = %v, %v; want %v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCovers(t *testing.T) {
	screen := Size{Width: 1280, Height: 720}
	tests := []struct {
		name string
		win  Placement
		want bool
	}{
		{name: "exactly", win: Placement{Width: 1280, Height: 720}, want: true},
		// The reported bug: Wails centres its 1280×800 window on a 720 px
		// screen, at y = (720-800)/2, and the size limit then shrinks it.
		{name: "shifted up 40 px", win: Placement{Y: -40, Width: 1280, Height: 720}},
		{name: "centred and smaller", win: Placement{X: 320, Y: 140, Width: 1280, Height: 800}},
		{name: "larger", win: Placement{Width: 1920, Height: 1080}},
		{name: "one pixel short", win: Placement{Width: 1280, Height: 719}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Covers(tt.win, screen); got != tt.want {
				t.Errorf("Covers(%+v, %v) = %v, want %v", tt.win, screen, got, tt.want)
			}
		})
	}
}

// fakeWindow is a window system for Cover: a screen, a window on it, and
// whether fitting the window works (it does with no window manager).
type fakeWindow struct {
	mu      sync.Mutex
	screen  Size
	win     Placement
	err     error
	stuck   bool // fitting changes nothing
	fits    chan Size
	measure chan struct{} // one value per measurement
}

func newFakeWindow(screen Size, win Placement) *fakeWindow {
	return &fakeWindow{screen: screen, win: win, fits: make(chan Size, 16), measure: make(chan struct{}, 64)}
}

func (f *fakeWindow) Measure() (Size, Placement, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.measure <- struct{}{}
	return f.screen, f.win, f.err
}

func (f *fakeWindow) Fit(s Size, _ Placement) {
	f.mu.Lock()
	if !f.stuck {
		f.win = Placement{Width: s.Width, Height: s.Height}
	}
	f.mu.Unlock()
	f.fits <- s
}

func (f *fakeWindow) set(change func(f *fakeWindow)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

// runCover runs c against f on the real clock of the test's synctest
// bubble until the test ends.
func runCover(t *testing.T, c Cover, f *fakeWindow) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run(ctx, clock.Real{}, f.Measure, f.Fit)
	}()
	t.Cleanup(func() { cancel(); <-done })
}

// measuredNow fails the test unless Run measured the window at this
// moment of the bubble's time, and returns once Run waits again.
func measuredNow(t *testing.T, f *fakeWindow) {
	t.Helper()
	synctest.Wait()
	select {
	case <-f.measure:
	default:
		t.Fatal("no measurement at this moment")
	}
	synctest.Wait()
}

// step lets d pass, and returns the fits made in the round that follows
// (Run waits again only after it).
func step(t *testing.T, f *fakeWindow, d time.Duration) []Size {
	t.Helper()
	time.Sleep(d)
	measuredNow(t, f)
	var got []Size
	for len(f.fits) > 0 {
		got = append(got, <-f.fits)
	}
	return got
}

func TestCoverFitsAtOnceAndAfterTheScreenChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tv := Size{Width: 1920, Height: 1080}
		f := newFakeWindow(tv, Placement{X: 320, Y: 140, Width: 1280, Height: 800})
		runCover(t, Cover{Every: time.Second, MaxWait: time.Minute}, f)

		// The first measurement is at once, before any wait.
		measuredNow(t, f)
		if got := <-f.fits; got != tv {
			t.Fatalf("first fit to %v, want %v", got, tv)
		}
		if got := step(t, f, time.Second); got != nil {
			t.Fatalf("fitted %v while the window covers the screen", got)
		}
		// The screen shrinks (xrandr): the window is fitted within a second.
		small := Size{Width: 1280, Height: 720}
		f.set(func(f *fakeWindow) { f.screen = small })
		if got := step(t, f, time.Second); len(got) != 1 || got[0] != small {
			t.Fatalf("after the screen changed: fits %v, want [%v]", got, small)
		}
		if got := step(t, f, time.Second); got != nil {
			t.Fatalf("fitted %v again after it worked", got)
		}
	})
}

func TestCoverBacksOffWhenFittingChangesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		screen := Size{Width: 1280, Height: 720}
		// A window manager holds the window below a 40 px panel.
		held := Placement{Y: 40, Width: 1280, Height: 680}
		f := newFakeWindow(screen, held)
		f.stuck = true
		runCover(t, Cover{Every: time.Second, MaxWait: 4 * time.Second}, f)
		measuredNow(t, f)
		<-f.fits

		// Fits come after 1 s, then 2 s, then 4 s, and never further apart.
		for i, gap := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second} {
			// Advance the gap in two steps: a round made before it ends shows
			// up as a second measurement and fit.
			time.Sleep(gap - time.Second)
			time.Sleep(time.Second)
			measuredNow(t, f)
			if got := <-f.fits; got != screen {
				t.Fatalf("round %d: fit to %v, want %v", i, got, screen)
			}
			synctest.Wait()
			if len(f.measure) != 0 || len(f.fits) != 0 {
				t.Fatalf("round %d: measured or fitted before the %v wait ended", i, gap)
			}
		}

		// The window manager lets go: the window covers, and a later change is
		// handled within Every again.
		f.set(func(f *fakeWindow) { f.stuck, f.win = false, Placement{Width: 1280, Height: 720} })
		time.Sleep(4 * time.Second)
		measuredNow(t, f)
		f.set(func(f *fakeWindow) { f.win = held })
		if got := step(t, f, time.Second); len(got) != 1 {
			t.Fatalf("fits %v after a change, want one within a second", got)
		}
	})
}

func TestCoverRetriesAFailedMeasurement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		screen := Size{Width: 1080, Height: 1920}
		f := newFakeWindow(screen, Placement{Width: 1080, Height: 800})
		f.err = errors.New("no window yet")
		runCover(t, Cover{Every: time.Second, MaxWait: time.Minute}, f)
		measuredNow(t, f)
		if got := step(t, f, time.Second); got != nil {
			t.Fatalf("fitted %v without a measurement", got)
		}
		f.set(func(f *fakeWindow) { f.err = nil })
		if got := step(t, f, time.Second); len(got) != 1 || got[0] != screen {
			t.Fatalf("fits %v, want [%v]", got, screen)
		}
	})
}
