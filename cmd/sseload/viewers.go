// The load: N viewers, each one stream connection, and what each saw.

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

type viewers struct {
	readyFlag []atomic.Bool // per viewer: has its first event, or failed
	readyN    atomic.Int64
	errs      []atomic.Pointer[error]

	// marker is the text of the write being timed; start is its time.
	marker atomic.Pointer[[]byte]
	start  atomic.Int64   // UnixNano
	got    []atomic.Int64 // per viewer: nanoseconds from start, 0 until it has the marker
	gotN   atomic.Int64
	wake   chan struct{}
}

func newViewers(n int) *viewers {
	return &viewers{readyFlag: make([]atomic.Bool, n), errs: make([]atomic.Pointer[error], n), got: make([]atomic.Int64, n), wake: make(chan struct{}, 1)}
}

func (v *viewers) markReady(i int) {
	if v.readyFlag[i].CompareAndSwap(false, true) && v.readyN.Add(1) == int64(len(v.readyFlag)) {
		v.notify()
	}
}

func (v *viewers) fail(i int, err error) {
	v.errs[i].CompareAndSwap(nil, &err)
	v.markReady(i)
	v.notify()
}

func (v *viewers) notify() {
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

func (v *viewers) failures() []error {
	var out []error
	for i := range v.errs {
		if e := v.errs[i].Load(); e != nil {
			out = append(out, *e)
		}
	}
	return out
}

func (v *viewers) waitReady(ctx context.Context) error {
	for v.readyN.Load() < int64(len(v.readyFlag)) {
		select {
		case <-v.wake:
		case <-ctx.Done():
			return fmt.Errorf("%d of %d viewers had their first event in time: %w", v.readyN.Load(), len(v.readyFlag), ctx.Err())
		}
	}
	return nil
}

func (v *viewers) expect(marker []byte) {
	for i := range v.got {
		v.got[i].Store(0)
	}
	v.gotN.Store(0)
	v.marker.Store(&marker)
}

func (v *viewers) startClock(t time.Time) { v.start.Store(t.UnixNano()) }

func (v *viewers) delivered(i int, at time.Time) {
	d := max(at.UnixNano()-v.start.Load(), 1)
	if v.got[i].CompareAndSwap(0, d) {
		if v.gotN.Add(1) == int64(len(v.got)) {
			v.notify()
		}
	}
}

func (v *viewers) waitDelivered(ctx context.Context, timeout time.Duration) error {
	deadline := time.After(timeout)
	for v.gotN.Load() < int64(len(v.got)) {
		if len(v.failures()) > 0 {
			return nil
		}
		select {
		case <-v.wake:
		case <-deadline:
			return fmt.Errorf("%d of %d viewers got the write within %v", v.gotN.Load(), len(v.got), timeout)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (v *viewers) delays() []time.Duration {
	out := make([]time.Duration, len(v.got))
	for i := range v.got {
		out[i] = time.Duration(v.got[i].Load())
	}
	return out
}

func (v *viewers) watch(ctx, connectCtx context.Context, i int, c config, local net.Addr, dialing chan struct{}) {
	select {
	case dialing <- struct{}{}:
	case <-connectCtx.Done():
		v.fail(i, connectCtx.Err())
		return
	}
	d := net.Dialer{LocalAddr: local, Timeout: 30 * time.Second}
	conn, err := d.DialContext(connectCtx, "tcp", c.base.Host)
	if err == nil {
		_, err = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nUser-Agent: sseload\r\n\r\n", c.path, c.base.Host)
	}
	<-dialing
	if err != nil {
		v.fail(i, err)
		return
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() }) // unblocks the reader, which reports what matters
	defer stop()
	defer func() { _ = conn.Close() }() // teardown: a close error changes nothing here
	br := bufio.NewReaderSize(conn, 4<<10)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		v.fail(i, err)
		return
	}
	defer func() { _ = res.Body.Close() }() // closing a read body cannot lose data
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		v.fail(i, fmt.Errorf("%s: %s", res.Status, bytes.TrimSpace(body)))
		return
	}
	buf := make([]byte, 4<<10)
	var sc eventScanner
	var marker *[]byte
	for {
		n, err := res.Body.Read(buf)
		if n > 0 {
			now := time.Now()
			if m := v.marker.Load(); m != marker {
				marker = m
				sc.expect(*m)
			}
			first, got := sc.feed(buf[:n])
			if first {
				v.markReady(i)
			}
			if got {
				v.delivered(i, now)
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				v.fail(i, fmt.Errorf("stream ended: %w", err))
			}
			return
		}
	}
}
