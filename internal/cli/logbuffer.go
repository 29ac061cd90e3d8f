package cli

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logFlushEvery is how long a log line may wait in the buffer.
const logFlushEvery = 200 * time.Millisecond

// logBuffer batches the lines of a busy log (serve's access log: one line
// per request) into few writes: it writes when its buffer fills and at
// least every logFlushEvery, and everything on Close. A line waits at most
// that long; on a crash the last fraction of a second can be lost.
type logBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushLoop()
	return b
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *logBuffer) flushLoop() {
	defer close(b.done)
	t := time.NewTicker(logFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.mu.Lock()
			_ = b.w.Flush() // a log with nowhere to go has no one to tell
			b.mu.Unlock()
		}
	}
}

// Close writes what is buffered and stops the flushing.
func (b *logBuffer) Close() error {
	close(b.stop)
	<-b.done
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Flush()
}
