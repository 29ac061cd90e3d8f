//go:build !desktop && !bindings

package main

import (
	"context"

	"github.com/robohornets/robohornets/internal/cli"
)

// windowOpener returns nil: builds without the Wails desktop tags, like the
// static serve-only binary, have no window.
func windowOpener() func(context.Context, cli.Window) error { return nil }
