package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// cgroupRoot is where a container sees its own cgroup: with cgroup
// namespaces (Cloud Run, Docker, Podman, Kubernetes) the container's
// cgroup is the root of the mount.
const cgroupRoot = "/sys/fs/cgroup"

// noMemoryLimit is a cgroup limit that means none: cgroup v1 writes
// 2^63 rounded down to a page when no limit is set, and no machine has
// an exabyte.
const noMemoryLimit = 1 << 60

// cgroupLimitFiles are the files that hold the container's memory limit,
// under cgroupRoot: cgroup v2, then v1.
var cgroupLimitFiles = []string{"memory.max", "memory/memory.limit_in_bytes"}

// containerMemory returns the memory limit of the cgroup mounted at root,
// in bytes, and whether there is one: "max", a value of noMemoryLimit or
// more, or no cgroup file means none.
func containerMemory(root string) (int64, bool, error) {
	for _, name := range cgroupLimitFiles {
		path := filepath.Join(root, name)
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, false, fmt.Errorf("memory limit: %w", err)
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0, false, nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0, false, fmt.Errorf("memory limit: %s holds %q, not a number of bytes", path, s)
		}
		if n >= noMemoryLimit {
			return 0, false, nil
		}
		return n, true, nil
	}
	return 0, false, nil
}

// goMemoryLimit is the GOMEMLIMIT for a container of mem bytes: 90 % of
// it. Go's limit counts only the Go runtime's memory (heap, stacks, its
// own structures); the container's also counts what serve writes to an
// in-memory /tmp (Cloud Run's), the page cache of the files it reads and
// the kernel's socket buffers, and the collector needs room to catch up
// with a burst before the kernel kills the process. A tenth (51 MiB of
// Cloud Run's 512 MiB) is that room; the photos' budget
// (photo.MaxBytesAtOnce) is well below what is left.
func goMemoryLimit(mem int64) int64 {
	return mem - mem/10
}

// setMemoryLimit sets the Go runtime's soft memory limit from the
// container's memory (the cgroup under root), unless GOMEMLIMIT (env)
// already set one, and logs which limit holds: without it the collector
// lets the heap grow to twice what is live, past a container's memory,
// and the kernel kills the process instead.
func setMemoryLimit(logger *slog.Logger, env, root string) {
	if env != "" {
		logger.Info("memory limit from GOMEMLIMIT", "gomemlimit_bytes", debug.SetMemoryLimit(-1))
		return
	}
	mem, ok, err := containerMemory(root)
	if err != nil {
		logger.Warn("the container's memory limit could not be read, so GOMEMLIMIT is not set: set it in the environment", "err", err)
		return
	}
	if !ok {
		logger.Info("no container memory limit found; GOMEMLIMIT not set", "cgroup", root)
		return
	}
	limit := goMemoryLimit(mem)
	debug.SetMemoryLimit(limit)
	logger.Info("memory limit set from the container's", "container_memory_bytes", mem, "gomemlimit_bytes", limit)
}
