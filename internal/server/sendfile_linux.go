//go:build linux

package server

import (
	"cmp"
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// minSendfile is the smallest body sent with sendfile(2); below it the
// copy of a write costs less than the extra system call.
const minSendfile = 16 << 10

// bodyFile is a large build file in a memory file, which the fast path
// sends with sendfile(2): the kernel hands its pages to the socket, where
// a write copies every byte.
type bodyFile struct{ fd int }

// newBodyFile returns the memory file of body, or nil when body is small
// or the system refuses one (the body is then written).
func newBodyFile(body []byte) *bodyFile {
	if len(body) < minSendfile {
		return nil
	}
	fd, err := unix.MemfdCreate("robohornets-body", unix.MFD_CLOEXEC)
	if err != nil {
		return nil
	}
	for written := 0; written < len(body); {
		n, err := unix.Write(fd, body[written:])
		if err != nil {
			_ = unix.Close(fd) // the body is written instead
			return nil
		}
		written += n
	}
	return &bodyFile{fd: fd}
}

// send writes head, then the file's size bytes, on the connection rc: the
// head with MSG_MORE, so that it leaves in one packet with the start of the
// body. It waits for the socket as a write does, deadline included.
func (f *bodyFile) send(rc syscall.RawConn, head [][]byte, size int) error {
	var sendErr error
	err := rc.Write(func(fd uintptr) bool {
		for len(head) > 0 {
			n, err := unix.SendmsgBuffers(int(fd), head, nil, nil, unix.MSG_MORE)
			switch err {
			case nil:
				head = consumed(head, n)
			case unix.EINTR:
			case unix.EAGAIN:
				return false
			default:
				sendErr = err
				return true
			}
		}
		return true
	})
	if err := cmp.Or(err, sendErr); err != nil {
		return err
	}
	var offset int64
	err = rc.Write(func(fd uintptr) bool {
		for offset < int64(size) {
			n, err := unix.Sendfile(int(fd), f.fd, &offset, size-int(offset))
			switch err {
			case nil:
				if n == 0 {
					sendErr = io.ErrUnexpectedEOF // the file is shorter than the body: never
					return true
				}
			case unix.EINTR:
			case unix.EAGAIN:
				return false
			default:
				sendErr = err
				return true
			}
		}
		return true
	})
	return cmp.Or(err, sendErr)
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
