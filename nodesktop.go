//go:build !desktop && !bindings

package main

import "context"

// hasDesktop is false in builds without the Wails desktop tags, like the
// static serve-only binary.
const hasDesktop = false

func openWindow(context.Context, desktopOptions) error { return errNoDesktop }
