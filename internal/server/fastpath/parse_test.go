package fastpath

import (
	"bufio"
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	const host = "Host: example.org\r\n"
	cases := []struct {
		name, req string
		want      parseVerdict
	}{
		{"GET", "GET /news HTTP/1.1\r\n" + host + "\r\n", parsed},
		{"HEAD", "HEAD / HTTP/1.1\r\n" + host + "\r\n", parsed},
		{"known headers", "GET /assets/a-1.js HTTP/1.1\r\nhost: a:8080\r\naccept-encoding: gzip, br\r\nIf-None-Match: \"x\"\r\nConnection: Keep-Alive\r\nUser-Agent: x/1 (y)\r\n\r\n", parsed},
		{"half a request", "GET / HTTP/1.1\r\n" + host, incomplete},
		{"no host", "GET / HTTP/1.1\r\n\r\n", notFast},
		{"two hosts", "GET / HTTP/1.1\r\n" + host + host + "\r\n", notFast},
		{"odd host", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", notFast},
		{"POST", "POST / HTTP/1.1\r\n" + host + "Content-Length: 0\r\n\r\n", notFast},
		{"OPTIONS", "OPTIONS * HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"lower-case method", "get / HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"HTTP/1.0", "GET / HTTP/1.0\r\n" + host + "\r\n", notFast},
		{"HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", notFast},
		{"absolute form", "GET http://example.org/ HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"query", "GET /api/news?a=1 HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"escape", "GET /news/%61 HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"double slash", "GET //news HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"dot segment", "GET /assets/../go.mod HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"dot file", "GET /.env HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"two spaces", "GET  / HTTP/1.1\r\n" + host + "\r\n", notFast},
		{"body", "GET / HTTP/1.1\r\n" + host + "Content-Length: 3\r\n\r\nabc", notFast},
		{"chunked", "GET / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", notFast},
		{"range", "GET /assets/a.js HTTP/1.1\r\n" + host + "Range: bytes=0-1\r\n\r\n", notFast},
		{"expect", "GET / HTTP/1.1\r\n" + host + "Expect: 100-continue\r\n\r\n", notFast},
		{"upgrade", "GET / HTTP/1.1\r\n" + host + "Connection: Upgrade\r\nUpgrade: h2c\r\n\r\n", notFast},
		{"connection close", "GET / HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n", notFast},
		{"two encodings headers", "GET / HTTP/1.1\r\n" + host + "Accept-Encoding: br\r\nAccept-Encoding: gzip\r\n\r\n", notFast},
		{"folded line", "GET / HTTP/1.1\r\n" + host + "X-A: 1\r\n 2\r\n\r\n", notFast},
		{"space before colon", "GET / HTTP/1.1\r\n" + host + "X-A : 1\r\n\r\n", notFast},
		{"bare LF in a value", "GET / HTTP/1.1\r\n" + host + "X-A: 1\n2\r\n\r\n", notFast},
		{"bare LF lines", "GET / HTTP/1.1\n" + host + "\n", notFast},
		{"a bare LF after CRLF lines", "GET / HTTP/1.1\r\n" + host + "X-A: 1\n", notFast},
		{"the start of a GET", "GE", incomplete},
		{"the start of a HEAD", "HEAD /ne", incomplete},
		{"the start of a POST", "POS", notFast},
		{"an empty Accept-Encoding, then another", "GET / HTTP/1.1\r\n" + host + "Accept-Encoding:\r\nAccept-Encoding: br\r\n\r\n", notFast},
		{"an empty If-None-Match, then another", "GET / HTTP/1.1\r\n" + host + "If-None-Match: \r\nIf-None-Match: \"x\"\r\n\r\n", notFast},
		{"two User-Agents", "GET / HTTP/1.1\r\n" + host + "User-Agent: a\r\nUser-Agent: b\r\n\r\n", notFast},
		{"NUL", "GET / HTTP/1.1\r\n" + host + "X-A: \x00\r\n\r\n", notFast},
		{"non-ASCII", "GET / HTTP/1.1\r\n" + host + "X-A: caf\xc3\xa9\r\n\r\n", notFast},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, got := parse([]byte(c.req)); got != c.want {
				t.Errorf("parse(%q) = %d, want %d", c.req, got, c.want)
			}
		})
	}
	req, _ := parse([]byte("HEAD /a HTTP/1.1\r\nHost: x\r\nAccept-Encoding:  gzip \r\nIf-None-Match: \"e\"\r\n\r\nGET /b"))
	if !req.Head || string(req.Path) != "/a" || string(req.AcceptEncoding) != "gzip" || string(req.IfNoneMatch) != `"e"` || req.size != 74 {
		t.Errorf("parsed %+v", req)
	}
}

// TestParseKeepsEachHeaderOnce: every header the fast path reads lands
// in its own field, and a second one of any of them (in any case) sends the
// request to net/http.
func TestParseKeepsEachHeaderOnce(t *testing.T) {
	const start = "GET / HTTP/1.1\r\nHost: a\r\n"
	req, verdict := parse([]byte(start + "accept-encoding: 1\r\nIF-NONE-MATCH: 2\r\nUser-Agent: 3\r\n" +
		"traceparent: 4\r\nX-Cloud-Trace-Context: 5\r\n\r\n"))
	got := []string{string(req.AcceptEncoding), string(req.IfNoneMatch), string(req.UserAgent), string(req.Traceparent), string(req.CloudTraceContext)}
	if verdict != parsed || !slices.Equal(got, []string{"1", "2", "3", "4", "5"}) {
		t.Fatalf("verdict %d, fields %q", verdict, got)
	}
	for _, name := range []string{"Accept-Encoding", "If-None-Match", "User-Agent", "Traceparent", "X-Cloud-Trace-Context"} {
		twice := start + name + ": a\r\n" + strings.ToLower(name) + ": b\r\n\r\n"
		if _, verdict := parse([]byte(twice)); verdict != notFast {
			t.Errorf("%s twice: verdict %d, want notFast", name, verdict)
		}
	}
}

// FuzzParse holds parse to net/http's reading of the same bytes:
// whatever it accepts, net/http reads as the same GET or HEAD of the same
// path with the same headers, with no body and the connection kept open.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
		"HEAD /assets/x-1.js HTTP/1.1\r\nHost: a:1\r\nAccept-Encoding: gzip\r\nIf-None-Match: \"x\"\r\nConnection: keep-alive\r\n\r\n",
		"GET /news HTTP/1.1\r\nHost: [::1]:8080\r\nX: \t y \t\r\n\r\n",
		"GET /assets/a.js HTTP/1.1\r\nHost: a\r\nAccept-Encoding:\r\nAccept-Encoding: br\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a\r\nIf-None-Match:\r\nIf-None-Match: \"x\"\r\nUser-Agent:\r\nUser-Agent: y\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a\r\nTraceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\nX-Cloud-Trace-Context: 105445aa7843bc8bf206b12000100000/1;o=1\r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, verdict := parse(data)
		if verdict != parsed {
			return
		}
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(data[:req.size])))
		if err != nil {
			t.Fatalf("parse accepts %q, net/http refuses it: %v", data[:req.size], err)
		}
		method := http.MethodGet
		if req.Head {
			method = http.MethodHead
		}
		switch {
		case r.Method != method, r.URL.Path != string(req.Path), r.URL.RawQuery != "", r.URL.RawPath != "":
			t.Errorf("%q: net/http reads %s %q (query %q, raw %q)", data, r.Method, r.URL.Path, r.URL.RawQuery, r.URL.RawPath)
		case r.Header.Get("Accept-Encoding") != string(req.AcceptEncoding), r.Header.Get("If-None-Match") != string(req.IfNoneMatch),
			r.UserAgent() != string(req.UserAgent), r.Header.Get("Traceparent") != string(req.Traceparent),
			r.Header.Get("X-Cloud-Trace-Context") != string(req.CloudTraceContext):
			t.Errorf("%q: net/http reads other header values: %q", data, r.Header)
		case r.ContentLength != 0, len(r.TransferEncoding) > 0, r.Close, !r.ProtoAtLeast(1, 1), r.Header.Get("Range") != "", r.Header.Get("Expect") != "":
			t.Errorf("%q: net/http reads a body, a close, a range or an expectation", data)
		case strings.Contains(r.URL.Path, "/.") || strings.Contains(r.URL.Path, "//"):
			t.Errorf("%q: a path the mux would clean", data)
		}
	})
}
