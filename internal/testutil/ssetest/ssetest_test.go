package ssetest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// got is what a test expects of an event: the fields that do not change
// from run to run.
type got struct {
	Type, Data, ID, Comment string
	Retry                   time.Duration
	IsComment               bool
}

func strip(ev Event) got {
	return got{Type: ev.Type, Data: ev.Data, ID: ev.ID, Comment: ev.Comment, Retry: ev.Retry, IsComment: ev.IsComment}
}

func readAll(t *testing.T, r io.Reader, comments Comments) ([]got, error) {
	t.Helper()
	sr := NewReader(r, comments)
	var out []got
	for {
		ev, err := sr.Next()
		if err != nil {
			return out, err
		}
		if ev.At.IsZero() {
			t.Errorf("event %+v has no time", ev)
		}
		out = append(out, strip(ev))
	}
}

// checkEvents reports where events differ from want.
func checkEvents(t *testing.T, events, want []got) {
	t.Helper()
	if len(events) != len(want) {
		t.Fatalf("events = %+v, want %+v", events, want)
	}
	for i := range want {
		if events[i] != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, events[i], want[i])
		}
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name     string
		stream   string
		comments Comments
		want     []got
		end      error
	}{
		{"one event", "event: news\ndata: {}\n\n", SkipComments,
			[]got{{Type: "news", Data: "{}"}}, io.EOF},
		{"no event field is a message", "data: hi\n\n", SkipComments,
			[]got{{Type: "message", Data: "hi"}}, io.EOF},
		{"data lines joined with LF", "data: one\ndata:two\ndata:  three\n\n", SkipComments,
			[]got{{Type: "message", Data: "one\ntwo\n three"}}, io.EOF},
		{"empty data line", "data\ndata\n\n", SkipComments,
			[]got{{Type: "message", Data: "\n"}}, io.EOF},
		{"no data: no event, the type is reset", "event: a\n\ndata: x\n\n", SkipComments,
			[]got{{Type: "message", Data: "x"}}, io.EOF},
		{"CRLF", "event: a\r\ndata: 1\r\n\r\n", SkipComments,
			[]got{{Type: "a", Data: "1"}}, io.EOF},
		{"CR", "event: a\rdata: 1\r\rdata: 2\r\r", SkipComments,
			[]got{{Type: "a", Data: "1"}, {Type: "message", Data: "2"}}, io.EOF},
		{"mixed line ends", "data: 1\r\ndata: 2\rdata: 3\n\r\n", SkipComments,
			[]got{{Type: "message", Data: "1\n2\n3"}}, io.EOF},
		{"comments skipped", ": heartbeat\n\n: x\ndata: y\n\n", SkipComments,
			[]got{{Type: "message", Data: "y"}}, io.EOF},
		{"comments reported", ": heartbeat\n\n:no space\ndata: y\n\n", ReportComments,
			[]got{{Comment: "heartbeat", IsComment: true}, {Comment: "no space", IsComment: true}, {Type: "message", Data: "y"}}, io.EOF},
		{"retry sets the reconnection time", "retry: 2000\n\ndata: a\n\n", SkipComments,
			[]got{{Type: "message", Data: "a", Retry: 2 * time.Second}}, io.EOF},
		{"retry not all digits is ignored", "retry: 100\nretry: 2s\nretry: -5\nretry:\ndata: a\n\n", SkipComments,
			[]got{{Type: "message", Data: "a", Retry: 100 * time.Millisecond}}, io.EOF},
		{"id is kept across events", "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n", SkipComments,
			[]got{{Type: "message", Data: "a", ID: "7"}, {Type: "message", Data: "b", ID: "7"}, {Type: "message", Data: "c"}}, io.EOF},
		{"id with NUL is ignored", "id: 1\nid: a\x00b\ndata: x\n\n", SkipComments,
			[]got{{Type: "message", Data: "x", ID: "1"}}, io.EOF},
		{"only one space dropped, colons in values kept", "event:  spaced\ndata: a: b\n\n", SkipComments,
			[]got{{Type: " spaced", Data: "a: b"}}, io.EOF},
		{"unknown fields ignored", "foo: bar\nDATA: x\ndata: y\n\n", SkipComments,
			[]got{{Type: "message", Data: "y"}}, io.EOF},
		{"BOM at the start dropped", "\xEF\xBB\xBFdata: a\n\n", SkipComments,
			[]got{{Type: "message", Data: "a"}}, io.EOF},
		{"unfinished event discarded", "data: a\n\ndata: b\n", SkipComments,
			[]got{{Type: "message", Data: "a"}}, io.ErrUnexpectedEOF},
		{"unfinished line discarded", "data: a\n\ndata: b", SkipComments,
			[]got{{Type: "message", Data: "a"}}, io.ErrUnexpectedEOF},
		{"a comment then the end, unfinished", ": heartbeat\n", SkipComments,
			nil, io.ErrUnexpectedEOF},
		{"empty stream", "", SkipComments, nil, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, and a byte at a time: a line end split from its line,
			// or CR from LF, changes nothing.
			for _, r := range []io.Reader{strings.NewReader(tt.stream), iotest.OneByteReader(strings.NewReader(tt.stream))} {
				events, err := readAll(t, r, tt.comments)
				if !errors.Is(err, tt.end) {
					t.Errorf("ended with %v, want %v", err, tt.end)
				}
				checkEvents(t, events, tt.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	events, err := Parse("retry: 10\n\nevent: a\ndata: 1\n\n: c\n\nevent: b\ndata: 2\n", ReportComments)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Parse ended with %v, want io.ErrUnexpectedEOF", err)
	}
	var stripped []got
	for _, ev := range events {
		stripped = append(stripped, strip(ev))
	}
	checkEvents(t, stripped, []got{{Type: "a", Data: "1", Retry: 10 * time.Millisecond}, {Comment: "c", IsComment: true, Retry: 10 * time.Millisecond}})
}

func TestReaderReturnsTheStreamsError(t *testing.T) {
	broken := errors.New("connection reset")
	r := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(broken)), SkipComments)
	if ev, err := r.Next(); err != nil || ev.Data != "a" {
		t.Fatalf("Next = %+v, %v; want a", ev, err)
	}
	if _, err := r.Next(); !errors.Is(err, broken) {
		t.Fatalf("Next = %v, want %v", err, broken)
	}
}

// TestReaderDispatchesWithoutReadingAhead checks that an event ending in CR
// is returned at once on a live stream, not held until the next byte.
func TestReaderDispatchesWithoutReadingAhead(t *testing.T) {
	pr, pw := io.Pipe()
	defer func() { _ = pw.Close() }() // teardown: a close error changes nothing here
	r := NewReader(pr, SkipComments)
	go func() { _, _ = io.WriteString(pw, "data: a\r\r") }()
	done := make(chan Event)
	go func() {
		ev, _ := r.Next()
		done <- ev
	}()
	select {
	case ev := <-done:
		if ev.Data != "a" {
			t.Fatalf("event = %+v, want data a", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the event ending in CR was not returned before more bytes came")
	}
}

func TestStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if r.Header.Get("Accept") != "text/event-stream" {
			http.Error(w, "want Accept: text/event-stream", http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, "retry: 1500\n\nevent: news\ndata: 1\n\n: heartbeat\n\nevent: news\ndata: 2\n\n")
	}))
	defer srv.Close()
	s := Open(t, srv.Client(), srv.URL, ReportComments, 10*time.Second)
	if s.Response.StatusCode != http.StatusOK {
		t.Fatalf("status %d", s.Response.StatusCode)
	}
	// The server ends the stream at once: Done closes, and the events
	// read before the end are still there.
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done is not closed after the server ended the stream")
	}
	if ev := s.Peek(t, 10*time.Second); ev.Type != "news" || ev.Data != "1" || ev.Retry != 1500*time.Millisecond {
		t.Fatalf("Peek = %+v", ev)
	}
	var seen []got
	for range 3 {
		seen = append(seen, strip(s.Next(t, 10*time.Second)))
	}
	checkEvents(t, seen, []got{
		{Type: "news", Data: "1", Retry: 1500 * time.Millisecond},
		{Comment: "heartbeat", IsComment: true, Retry: 1500 * time.Millisecond},
		{Type: "news", Data: "2", Retry: 1500 * time.Millisecond},
	})
	if _, ok := <-s.Events(); ok {
		t.Error("an event after the last")
	}
	if err := s.Err(); !errors.Is(err, io.EOF) {
		t.Errorf("Err = %v, want io.EOF", err)
	}
}
