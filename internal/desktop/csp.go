package desktop

import (
	"log/slog"
	"sync"
)

// ViolationsLogged is how many Content-Security-Policy violations of one
// page load are logged one by one. After them one line says the rest are
// only counted, and the count is logged when it reaches 100, 1000 and so
// on: a page that breaks the policy in a loop writes a few lines, not one
// per violation.
const ViolationsLogged = 10

// Violation is one Content-Security-Policy violation the page saw, as it
// reports it.
type Violation struct {
	// Load tells the page's loads apart (its time origin): the log counts
	// per load, so a reloaded page is logged afresh.
	Load string `json:"load"`
	// Route is the page's path when it happened.
	Route string `json:"route"`
	// Directive is the directive that blocked it, like "style-src-attr".
	Directive string `json:"directive"`
	// Blocked is what was blocked: an address, "inline" or "eval".
	Blocked string `json:"blocked"`
	// Source is where in the page's code it happened, like
	// "wails://wails/assets/index-1a2b.js:1:2345"; "" when unknown.
	Source string `json:"source"`
	// Sample is the start of the blocked code, when the browser gives it.
	Sample string `json:"sample"`
}

// ViolationLog logs the violations a page reports as warnings ("csp
// violation"), a few per page load (ViolationsLogged). Its methods may be
// called from any goroutine.
type ViolationLog struct {
	logger *slog.Logger

	mu    sync.Mutex
	load  string // the page load count is of
	count int
}

// NewViolationLog returns a ViolationLog that writes to logger.
func NewViolationLog(logger *slog.Logger) *ViolationLog {
	return &ViolationLog{logger: logger}
}

// Add logs v, or counts it when its page load has had ViolationsLogged
// already.
func (l *ViolationLog) Add(v Violation) {
	l.mu.Lock()
	if v.Load != l.load {
		l.load, l.count = v.Load, 0
	}
	l.count++
	n := l.count
	l.mu.Unlock()
	switch {
	case n <= ViolationsLogged:
		attrs := []any{"route", v.Route, "directive", v.Directive, "blocked", v.Blocked, "source", v.Source}
		if v.Sample != "" {
			attrs = append(attrs, "sample", v.Sample)
		}
		l.logger.Warn("csp violation", attrs...)
	case n == ViolationsLogged+1:
		l.logger.Warn("csp violations: more in this page load; only counting them now", "route", v.Route, "logged", ViolationsLogged)
	case powerOfTen(n):
		l.logger.Warn("csp violations: still more in this page load", "route", v.Route, "count", n)
	}
}

// powerOfTen reports whether n is 10, 100, 1000 and so on.
func powerOfTen(n int) bool {
	for n >= 10 && n%10 == 0 {
		n /= 10
	}
	return n == 1
}
