//go:build !unix

package cli

import "log/slog"

// warnFileLimit does nothing where there is no RLIMIT_NOFILE.
func warnFileLimit(*slog.Logger, int) {}
