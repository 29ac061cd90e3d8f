//go:build !linux

package disktest

import "errors"

// Only Linux has tmpfs: Mount skips the test.

func mountTmpfs(string, int64) error { return errors.ErrUnsupported }

func unmount(string) error { return errors.ErrUnsupported }

func freeBytes(string) (int64, error) { return 0, errors.ErrUnsupported }
