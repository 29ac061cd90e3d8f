//go:build linux

package fastpath

import (
	"cmp"
	"io"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// minSendfile is the smallest body sent with sendfile(2); below it the
// copy of a write costs less than the extra system call.
const minSendfile = 16 << 10

// File is a large body in a file of its own, which the fast path sends
// with sendfile(2): the kernel hands its pages to the socket, where a
// write copies every byte.
type File struct{ fd int }

// NewFile returns a file holding body, or nil when body is small or
// the system gives none (the body is then written). The file is an unnamed
// temporary file in os.TempDir(): in the page cache, as the files a static
// server sends are, which the kernel splices a batch of pages at a time
// (on a tmpfs, as a container's, it is memory). Where that directory takes
// no such file or has no room, it is a memory file (memfd), which the
// kernel splices a page at a time.
func NewFile(body []byte) *File {
	if len(body) < minSendfile {
		return nil
	}
	for _, create := range []func() (int, error){
		func() (int, error) {
			return unix.Open(os.TempDir(), unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
		},
		func() (int, error) { return unix.MemfdCreate("robohornets-body", unix.MFD_CLOEXEC) },
	} {
		fd, err := create()
		if err != nil {
			continue
		}
		if err := writeFile(fd, body); err != nil {
			_ = unix.Close(fd) // the next kind of file, or the body is written
			continue
		}
		f := &File{fd: fd}
		runtime.AddCleanup(f, func(fd int) { _ = unix.Close(fd) }, fd) // with its body: an old news version's, a test server's
		return f
	}
	return nil
}

// writeFile writes body to the start of the file fd.
func writeFile(fd int, body []byte) error {
	for written := 0; written < len(body); {
		n, err := unix.Pwrite(fd, body[written:], int64(written))
		if err != nil {
			return err
		}
		written += n
	}
	return nil
}

// send writes head, then the file's size bytes, on the connection rc: the
// head with MSG_MORE, so that it leaves in one packet with the start of the
// body. It waits for the socket as a write does, deadline included.
func (f *File) send(rc syscall.RawConn, head [][]byte, size int) error {
	err := writeAll(rc, func(fd int) (bool, error) {
		n, err := unix.SendmsgBuffers(fd, head, nil, nil, unix.MSG_MORE)
		if err == nil {
			head = consumed(head, n)
		}
		return len(head) == 0, err
	})
	if err != nil {
		return err
	}
	var offset int64
	return writeAll(rc, func(fd int) (bool, error) {
		n, err := unix.Sendfile(fd, f.fd, &offset, size-int(offset))
		if err == nil && n == 0 {
			return true, io.ErrUnexpectedEOF // the file is shorter than the body: never
		}
		return offset >= int64(size), err
	})
}

// writeAll calls step on the socket of rc until it is done, waiting for
// the socket whenever step meets EAGAIN.
func writeAll(rc syscall.RawConn, step func(fd int) (done bool, err error)) error {
	var stepErr error
	err := rc.Write(func(fd uintptr) bool {
		for {
			done, err := step(int(fd))
			switch {
			case err == unix.EAGAIN:
				return false
			case err == unix.EINTR:
			case err != nil:
				stepErr = err
				return true
			case done:
				return true
			}
		}
	})
	return cmp.Or(err, stepErr)
}

// consumed drops the first n bytes of bufs.
func consumed(bufs [][]byte, n int) [][]byte {
	for n > 0 && len(bufs) > 0 {
		if n < len(bufs[0]) {
			bufs[0] = bufs[0][n:]
			return bufs
		}
		n -= len(bufs[0])
		bufs = bufs[1:]
	}
	return bufs
}
