// Package spec holds the business constants of the team's specification
// (docs/SPEC.md section 9) in one place. The frontend reads the same values from
// frontend/src/gen/spec.gen.ts, which `go generate ./internal/spec` (that is,
// `go run ./cmd/gen`, as `make generate` does) writes from this file; a test
// of cmd/gen fails when the two drift apart.
package spec

//go:generate go run ../../cmd/gen -root ../..

import "time"

// The constants below carry the names of docs/SPEC.md section 9, row by row.
const (
	// SlideshowAutoAdvance is how long a slide stays before the next one.
	SlideshowAutoAdvance = 4000 * time.Millisecond
	// SlideAnimation is how long a slide change animates; next/previous are ignored meanwhile.
	SlideAnimation = 500 * time.Millisecond
	// KeyPressThrottle allows one arrow key press per this interval; key repeats are ignored.
	KeyPressThrottle = 500 * time.Millisecond
	// ParallaxScrollThrottle is the minimum interval between parallax scroll updates.
	ParallaxScrollThrottle = 16 * time.Millisecond
	// ParallaxFactor is the share of the scroll distance the banner moves by.
	ParallaxFactor = 0.5
	// TitleLetterHoverStagger is the delay between letters recolouring on hover.
	TitleLetterHoverStagger = 30 * time.Millisecond
	// InlineLinkHoverStagger is the delay between letters of an inline link on hover.
	InlineLinkHoverStagger = 7 * time.Millisecond
	// NewsPreviewLines is how many lines of an article the news list previews.
	NewsPreviewLines = 3
	// NewsPreviewClampLines is how many lines the preview is clamped to visually.
	NewsPreviewClampLines = 4
	// NewsSortDefault is the initial sort order of the news list.
	NewsSortDefault = "new-old"
	// CountdownDebugOffset is the countdown target's distance from page load in debug mode.
	CountdownDebugOffset = 10 * time.Second
	// CountdownTargetTimeOfDay is the daily countdown target, local time, as HH:MM:SS.
	CountdownTargetTimeOfDay = "12:09:00"
	// CelebrationLength is how long confetti is fired after the target.
	CelebrationLength = 60 * time.Second
	// CelebrationInterval is the time between two confetti bursts.
	CelebrationInterval = 250 * time.Millisecond
	// ConfettiParticles is the particle count of one confetti burst.
	ConfettiParticles = 50
	// ConfettiSpread is the spread angle of one confetti burst, in degrees.
	ConfettiSpread = 70
	// ConfettiOriginY is the vertical origin of a burst, as a share of the screen height.
	ConfettiOriginY = 0.6
	// SeasonPageBubbles is the number of bubbles on the current season page.
	SeasonPageBubbles = 50
	// ExpandingCirclesMax is the most expanding circles shown at once.
	ExpandingCirclesMax = 4
	// ExpandingCirclesEvery is the interval between two new expanding circles.
	ExpandingCirclesEvery = 500 * time.Millisecond
	// ExpandingCircleLifetime is how long one expanding circle lasts.
	ExpandingCircleLifetime = 8000 * time.Millisecond
	// WaveAmplitude is the amplitude of the scroll-driven wave, in pixels.
	WaveAmplitude = 40
	// WaveLength is the wavelength of the scroll-driven wave, in pixels.
	WaveLength = 500
	// WavePathStep is the horizontal step of the wave's clip path, in pixels.
	WavePathStep = 4
	// NarrowLayoutMaxWidth is the widest viewport, in CSS pixels, that gets the narrow layout.
	NarrowLayoutMaxWidth = 649
	// WideLayoutMinWidth is the narrowest viewport, in CSS pixels, that gets the wide layout.
	WideLayoutMinWidth = 650
	// MenuCollapseBelow is the viewport width, in CSS pixels, under which the menu collapses.
	MenuCollapseBelow = 1200
	// FooterClockRefresh is the refresh interval of the footer's hidden clock.
	FooterClockRefresh = 1000 * time.Millisecond
)

// ConfettiColors are the four pink and orange colours of a confetti burst.
var ConfettiColors = []string{"#ff4fa3", "#ff8fc7", "#ff8a1f", "#ffb347"}
