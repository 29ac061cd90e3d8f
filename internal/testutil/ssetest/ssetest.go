// Package ssetest reads server-sent event streams in tests, as a browser's
// EventSource does (WHATWG HTML, "Interpreting an event stream"): lines end
// in CRLF, LF or CR; a line starting with a colon is a comment; a field's
// name runs to the first colon, and one space after the colon is dropped;
// data lines are joined with "\n"; a blank line dispatches the event, or
// nothing when it has no data; id sets the last event ID (not when it
// holds U+0000) and retry the reconnection time (ASCII digits only).
//
// Every Go test that reads an event stream reads it with this package.
package ssetest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// Comments says what a Reader does with comment lines.
type Comments int

const (
	// SkipComments ignores comments, as EventSource does.
	SkipComments Comments = iota
	// ReportComments returns each comment line as an Event of its own,
	// with Comment set (the heartbeats of this program are comments).
	ReportComments
)

// Event is one dispatched event, or one comment.
type Event struct {
	// Type is the event field's value, "message" when there was none;
	// "" for a comment.
	Type string
	// Data is the event's data lines joined with "\n".
	Data string
	// ID is the stream's last event ID when the event was dispatched.
	ID string
	// Retry is the reconnection time the stream last set, 0 if none.
	Retry time.Duration
	// Comment is the text of a comment line after its colon (and one
	// space), for a comment reported by ReportComments.
	Comment string
	// IsComment reports whether this is a comment, not an event.
	IsComment bool
	// At is when the Reader read the event's last line.
	At time.Time
}

// Reader reads events from a stream. It is not safe for concurrent use.
type Reader struct {
	r        *bufio.Reader
	comments Comments

	started bool // the first byte, a possible BOM, is behind
	skipLF  bool // the last line ended in CR: a following LF belongs to it
	pending bool // a line or field of an unfinished event has been read

	data    strings.Builder
	hasData bool
	typ     string
	lastID  string
	retry   time.Duration
	line    []byte
}

// NewReader returns a Reader of r. When r is a *bufio.Reader it reads
// through it directly, so the caller may go on reading r after an event.
func NewReader(r io.Reader, comments Comments) *Reader {
	return &Reader{r: bufio.NewReader(r), comments: comments}
}

// Next returns the next event (and, with ReportComments, the next comment).
// At the end of the stream it returns io.EOF when the stream ended between
// events, and io.ErrUnexpectedEOF when it ended within one (the event is
// discarded, as EventSource discards it). Any other error is the stream's.
func (r *Reader) Next() (Event, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && r.pending {
				return Event{}, io.ErrUnexpectedEOF
			}
			return Event{}, err
		}
		if len(line) == 0 {
			r.pending = false
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		r.pending = true
		name, value, found := bytes.Cut(line, []byte(":"))
		if found {
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		if len(name) == 0 {
			if r.comments == ReportComments {
				return Event{Comment: string(value), IsComment: true, ID: r.lastID, Retry: r.retry, At: time.Now()}, nil
			}
			continue
		}
		r.field(string(name), value)
	}
}

// field processes one field of an event.
func (r *Reader) field(name string, value []byte) {
	switch name {
	case "event":
		r.typ = string(value)
	case "data":
		if r.hasData {
			r.data.WriteByte('\n')
		}
		r.data.Write(value)
		r.hasData = true
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
		}
	case "retry":
		if len(value) > 0 && strings.Trim(string(value), "0123456789") == "" {
			if ms, err := strconv.ParseInt(string(value), 10, 64); err == nil {
				r.retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
	// Any other field is ignored.
}

// dispatch ends the event at a blank line: it returns it when it has data,
// and resets the data and the type either way.
func (r *Reader) dispatch() (Event, bool) {
	defer func() {
		r.data.Reset()
		r.hasData, r.typ = false, ""
	}()
	if !r.hasData {
		return Event{}, false
	}
	typ := r.typ
	if typ == "" {
		typ = "message"
	}
	return Event{Type: typ, Data: r.data.String(), ID: r.lastID, Retry: r.retry, At: time.Now()}, true
}

// readLine returns the next line without its end (CRLF, LF or CR). It
// never reads past the end of the line, so it does not wait on a live
// stream for a byte that may not come. A last line without its end is
// not returned: the stream ended within it.
func (r *Reader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		b, err := r.r.ReadByte()
		if err != nil {
			if len(r.line) > 0 {
				r.pending = true
			}
			return nil, err
		}
		if !r.started {
			r.started = true
			if b == 0xEF { // a UTF-8 byte order mark is dropped
				if bom, err := r.r.Peek(2); err == nil && bom[0] == 0xBB && bom[1] == 0xBF {
					_, _ = r.r.Discard(2)
					continue
				}
			}
		}
		if r.skipLF {
			r.skipLF = false
			if b == '\n' {
				continue
			}
		}
		switch b {
		case '\r':
			r.skipLF = true
			return r.line, nil
		case '\n':
			return r.line, nil
		}
		r.line = append(r.line, b)
	}
}

// Parse returns the events of text, a stream or the start of one (what a
// recorder holds so far), and how it ends: io.EOF between events,
// io.ErrUnexpectedEOF within one.
func Parse(text string, comments Comments) ([]Event, error) {
	r := NewReader(strings.NewReader(text), comments)
	var events []Event
	for {
		ev, err := r.Next()
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
}
