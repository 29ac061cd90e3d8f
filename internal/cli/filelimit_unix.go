//go:build unix

package cli

import (
	"log/slog"
	"syscall"
)

// fileReserve are the descriptors serve needs besides its streams: the
// listener, the store, the logs and ordinary requests.
const fileReserve = 256

// warnFileLimit warns when the process would run out of file descriptors
// before it reaches --max-streams, as every stream holds a connection: past
// the limit new viewers fail to connect instead of getting a 503. Go has
// already raised the soft limit to the hard one at start, so only the hard
// limit is left to raise (ulimit -Hn, LimitNOFILE= in a systemd unit).
func warnFileLimit(logger *slog.Logger, maxStreams int) {
	var lim syscall.Rlimit
	if maxStreams <= 0 || syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) != nil {
		return
	}
	if need := uint64(maxStreams) + fileReserve; uint64(lim.Cur) < need {
		logger.Warn("the open-file limit is below --max-streams: raise the hard limit (ulimit -Hn, LimitNOFILE=) or lower --max-streams",
			"file_limit", uint64(lim.Cur), "max_streams", maxStreams, "files_needed", need)
	}
}
