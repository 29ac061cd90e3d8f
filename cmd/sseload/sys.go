// The machine: source addresses, the open-file limit, a process's memory.

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
	"net"
	"syscall"
	"time"
)

func sourceAddrs(c config) []net.IP {
	host := c.base.Hostname()
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() || ip.To4() == nil {
		return nil
	}
	k := c.sources
	if k == 0 {
		k = (c.n + 4999) / 5000
	}
	out := make([]net.IP, min(k, 250))
	for j := range out {
		out[j] = net.IPv4(127, 0, 0, byte(j+1))
	}
	return out
}

func raiseFileLimit(need uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("read the open-file limit: %w", err)
	}
	if lim.Cur >= need {
		return nil
	}
	want := syscall.Rlimit{Cur: max(need, lim.Cur), Max: max(need, lim.Max)}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
		want = syscall.Rlimit{Cur: lim.Max, Max: lim.Max}
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want)
		if lim.Max < need {
			return fmt.Errorf("the open-file limit is %d, and %d viewers need %d: raise it (ulimit -n) or lower -n", lim.Max, need-256, need)
		}
	}
	return nil
}

func rss(pid int) (int64, error) {
	if pid == 0 {
		return -1, nil
	}
	now, _, err := servetest.Memory(pid)
	if err != nil {
		return 0, fmt.Errorf("read the memory of process %d: %w", pid, err)
	}
	return now, nil
}

func nonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
