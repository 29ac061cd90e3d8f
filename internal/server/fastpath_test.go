package server_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/robohornets/robohornets/internal/server"
	"github.com/robohornets/robohornets/internal/spec"
	"github.com/robohornets/robohornets/internal/testutil/chantest"
	"github.com/robohornets/robohornets/internal/testutil/ssetest"
)

// serveOn serves e's website on a loopback listener until the test ends
// and returns its address.
func serveOn(t *testing.T, e *env) string {
	t.Helper()
	return serveSite(t, e.handler)
}

// serveSite serves site on a loopback listener until the test ends and
// returns its address.
func serveSite(t *testing.T, site *server.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = site.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = site.Shutdown(ctx)
	})
	return ln.Addr().String()
}

// exchange writes req on a new connection to addr and returns the bytes of
// the one response that comes back.
func exchange(t *testing.T, addr, req string) []byte {
	t.Helper()
	conn := dial(t, addr)
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	res, err := http.ReadResponse(bufio.NewReader(io.TeeReader(conn, &raw)), &http.Request{Method: strings.Fields(req)[0]})
	if err != nil {
		t.Fatalf("no response to %.80q: %v", req, err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatalf("body of %.80q: %v", req, err)
	}
	return raw.Bytes()
}

var dateHeader = regexp.MustCompile(`\r\nDate: [^\r]*\r\n`)

// withBigAsset is the test frontend with a build file large enough to be
// sent with sendfile, in its three encodings.
func withBigAsset(t *testing.T) fstest.MapFS {
	fsys := testAssets(t)
	random := make([]byte, 24<<10)
	_, _ = rand.Read(random) // never fails
	big := strings.Repeat("export const data = '"+hex.EncodeToString(random)+"';\n", 2)
	fsys["assets/big-def456.js"] = &fstest.MapFile{Data: []byte(big)}
	fsys["assets/big-def456.js.gz"] = &fstest.MapFile{Data: gzipped(t, big)}
	fsys["assets/big-def456.js.br"] = &fstest.MapFile{Data: []byte(big[:len(big)-100])} // any bytes: served as they are
	// Files whose type the extension does not tell, at the root, nested,
	// and among the build files.
	fsys["LICENSE"] = &fstest.MapFile{Data: []byte("All rights reserved.\n")}
	fsys["img/logo.unknownext"] = &fstest.MapFile{Data: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")}
	fsys["assets/notes-1.unknownext"] = &fstest.MapFile{Data: []byte{0, 1, 2, 3}}
	return fsys
}

// TestFastPathAnswersAsNetHTTP sends every kind of request the fast path
// answers, and the same request in a form it hands to net/http (an extra
// Connection token, which changes nothing for net/http), and compares the
// two answers byte for byte but their Date.
func TestFastPathAnswersAsNetHTTP(t *testing.T) {
	e := newEnv(t, envConfig{assets: withBigAsset(t)})
	addr := serveOn(t, e)
	paths := []string{"/api/news", "/assets/app-abc123.js", "/assets/big-def456.js", "/favicon.svg", "/LICENSE", "/img/logo.unknownext",
		"/assets/notes-1.unknownext", "/news/" + e.hub.Current().Articles[0].ID}
	for _, r := range spec.Routes {
		paths = append(paths, r.Path)
	}
	for _, path := range paths {
		for _, method := range []string{"GET", "HEAD"} {
			for _, encoding := range []string{"", "gzip", "br", "gzip, deflate, br, zstd", "br;q=0, gzip", "identity"} {
				head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: example.org\r\nUser-Agent: test\r\n", method, path)
				if encoding != "" {
					head += "Accept-Encoding: " + encoding + "\r\n"
				}
				fresh := compareFastAndNetHTTP(t, e, addr, head)
				etag := regexp.MustCompile(`\r\nEtag: ("[^"]*")`).FindSubmatch(fresh)
				if etag == nil {
					t.Fatalf("%s: no Etag:\n%s", head, fresh)
				}
				revalidated := compareFastAndNetHTTP(t, e, addr, head+"If-None-Match: W/\"x\", "+string(etag[1])+"\r\n")
				if !bytes.HasPrefix(revalidated, []byte("HTTP/1.1 304 ")) {
					t.Errorf("%s with its Etag: want 304, got\n%s", head, revalidated)
				}
			}
		}
	}
}

// compareFastAndNetHTTP sends head (a request without its blank line) as
// the fast path answers it and as net/http does, checks they match, and
// returns the answer.
func compareFastAndNetHTTP(t *testing.T, e *env, addr, head string) []byte {
	t.Helper()
	fastReq := head + "\r\n"
	slowReq := head + "Connection: keep-alive, x-net-http\r\n\r\n"
	if !e.handler.FastPathAnswers([]byte(fastReq)) {
		t.Fatalf("the fast path does not answer %q", fastReq)
	}
	if e.handler.FastPathAnswers([]byte(slowReq)) {
		t.Fatalf("the fast path answers %q", slowReq)
	}
	fast := dateHeader.ReplaceAll(exchange(t, addr, fastReq), []byte("\r\n"))
	slow := dateHeader.ReplaceAll(exchange(t, addr, slowReq), []byte("\r\n"))
	if !bytes.Equal(fast, slow) {
		t.Errorf("%q: the fast path's answer differs from net/http's\nfast:\n%.1500s\nnet/http:\n%.1500s", head, fast, slow)
	}
	return fast
}

// TestFastPathHandsOver checks what the fast path does not answer itself:
// each request gets net/http's answer, on the same connection, and the
// requests after it too.
func TestFastPathHandsOver(t *testing.T) {
	e := newEnv(t, envConfig{})
	addr := serveOn(t, e)
	conn := dial(t, addr)
	// Pipelined in one write: fast, handed over (another route), then what
	// would be fast, now served by net/http on the same connection.
	reqs := []struct{ target, want string }{
		{"/api/news", `"articles"`},
		{"/healthz", `"status":"live"`},
		{"/assets/app-abc123.js", appJS},
		{"/api/news?x=1", `"articles"`},
		{"/nope/..%2F", ""},
	}
	var all strings.Builder
	for _, r := range reqs {
		fmt.Fprintf(&all, "GET %s HTTP/1.1\r\nHost: example.org\r\n\r\n", r.target)
	}
	if _, err := io.WriteString(conn, all.String()); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	for _, r := range reqs {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: %v", r.target, err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 500 || !strings.Contains(string(body), r.want) {
			t.Errorf("%s: %d %.200q, want %q in it", r.target, res.StatusCode, body, r.want)
		}
	}
}

// TestFastPathReadsInPieces sends a request a few bytes at a time and a
// request too long for the fast path's buffer: both are answered.
func TestFastPathReadsInPieces(t *testing.T) {
	e := newEnv(t, envConfig{})
	addr := serveOn(t, e)
	conn := dial(t, addr)
	req := "GET /favicon.svg HTTP/1.1\r\nHost: example.org\r\nX-Long: " + strings.Repeat("a", 6000) + "\r\n\r\n"
	for piece := range slicesChunk(req, 7) {
		if _, err := io.WriteString(conn, piece); err != nil {
			t.Fatal(err)
		}
	}
	req = "GET /favicon.svg HTTP/1.1\r\nHost: example.org\r\n\r\n"
	for piece := range slicesChunk(req, 3) {
		if _, err := io.WriteString(conn, piece); err != nil {
			t.Fatal(err)
		}
	}
	br := bufio.NewReader(conn)
	for range 2 {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK || string(body) != faviconSV {
			t.Errorf("got %d %.100q, want the favicon", res.StatusCode, body)
		}
	}
}

// slicesChunk yields s in pieces of n bytes.
func slicesChunk(s string, n int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			k := min(n, len(s))
			if !yield(s[:k]) {
				return
			}
			s = s[k:]
		}
	}
}

// TestFastPathShutdown checks that Shutdown closes a connection waiting on
// the fast path for its next request, and returns.
func TestFastPathShutdown(t *testing.T) {
	e := newEnv(t, envConfig{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- e.handler.Serve(ln) }()
	conn := dial(t, ln.Addr().String())
	if _, err := io.WriteString(conn, "GET /favicon.svg HTTP/1.1\r\nHost: example.org\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.handler.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve after Shutdown: %v, want nil", err)
	}
	if n, err := br.ReadByte(); err == nil {
		t.Errorf("the idle connection is still open: read %q", n)
	}
}

// TestFastPathLogsAsNetHTTP checks that the fast path's access log line is
// net/http's, trace fields included, but for the time it took and the
// client's port.
// logLines is a log sink that hands on each line the logger writes (slog's
// handlers write a record in one Write), so a test can wait for a line
// that is written after the answer went out.
type logLines chan []byte

func (l logLines) Write(p []byte) (int, error) {
	l <- bytes.Clone(p)
	return len(p), nil
}

func TestFastPathLogsAsNetHTTP(t *testing.T) {
	e := newEnv(t, envConfig{})
	logs := make(logLines, 4)
	site := server.New(server.Options{Assets: testAssets(t), Hub: e.hub, Clock: e.clock, TraceProject: "team-1209",
		Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	addr := serveSite(t, site)
	const head = "GET /favicon.svg HTTP/1.1\r\nHost: example.org\r\nUser-Agent: test/1.0\r\n" +
		"Traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\n"
	if !site.FastPathAnswers([]byte(head + "\r\n")) {
		t.Fatal("the fast path does not answer the request")
	}
	var lines []map[string]any
	// Each answer is logged once it has gone out: wait for its line.
	for _, ask := range []string{head + "\r\n", head + "Connection: keep-alive, x-net-http\r\n\r\n"} {
		exchange(t, addr, ask)
		line := chantest.Receive(t, logs, "the access line", 10*time.Second)
		var fields map[string]any
		if err := json.Unmarshal(line, &fields); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		delete(fields, "time")
		req := fields["httpRequest"].(map[string]any)
		delete(req, "latency")
		req["remoteIp"], _, _ = strings.Cut(req["remoteIp"].(string), ":")
		lines = append(lines, fields)
	}
	if !reflect.DeepEqual(lines[0], lines[1]) {
		t.Errorf("the fast path logs\n%v\nnet/http logs\n%v", lines[0], lines[1])
	}
	if lines[0]["logging.googleapis.com/trace"] != "projects/team-1209/traces/4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("no trace in %v", lines[0])
	}
}

// TestServeAfterShutdown checks that Serve after Shutdown returns at once
// and closes its listener, as net/http's does.
func TestServeAfterShutdown(t *testing.T) {
	e := newEnv(t, envConfig{})
	if err := e.handler.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.handler.Serve(ln); err != nil {
		t.Errorf("Serve after Shutdown: %v, want nil", err)
	}
	if _, err := ln.Accept(); err == nil {
		t.Error("the listener is still open")
	}
}

// TestFastPathOffAnswersTheSame sends one table of requests to the website
// and to its twin with the fast path off (Options.FastPathOff), where
// net/http and the whole middleware chain serve every one, and compares
// the answers byte for byte but their Date: status, header and body. The
// table has every kind of request the fast path answers, revalidated too,
// and requests it hands to net/http.
func TestFastPathOffAnswersTheSame(t *testing.T) {
	e := newEnv(t, envConfig{assets: withBigAsset(t)})
	off := e.opts
	off.FastPathOff = true
	twin := server.New(off)
	addr, twinAddr := serveOn(t, e), serveSite(t, twin)

	const host = "Host: example.org\r\nUser-Agent: test\r\n"
	var fast []string // answered by the fast path when it is on
	for _, path := range []string{"/", "/news", "/whattimeisit", "/api/news", "/assets/app-abc123.js", "/assets/big-def456.js", "/favicon.svg",
		"/LICENSE", "/img/logo.unknownext", "/news/" + e.hub.Current().Articles[0].ID} {
		for _, method := range []string{"GET", "HEAD"} {
			for _, encoding := range []string{"", "Accept-Encoding: gzip\r\n", "Accept-Encoding: gzip, br\r\n"} {
				fast = append(fast, method+" "+path+" HTTP/1.1\r\n"+host+encoding)
			}
		}
	}
	netHTTP := []string{
		"GET /healthz HTTP/1.1\r\n" + host,
		"GET /api/time HTTP/1.1\r\n" + host,
		"GET /api/news/no-such-article HTTP/1.1\r\n" + host,
		"GET /api/news?x=1 HTTP/1.1\r\n" + host,
		"GET /assets/missing-abc.js HTTP/1.1\r\n" + host,
		"GET /news.xml HTTP/1.1\r\n" + host + "Accept-Encoding: gzip\r\n",
		"GET /sitemap.xml HTTP/1.1\r\n" + host,
		"GET /robots.txt HTTP/1.1\r\n" + host,
		"GET /assets%2Fapp-abc123.js HTTP/1.1\r\n" + host,
		"GET /assets\\app-abc123.js HTTP/1.1\r\n" + host,
		"GET //news HTTP/1.1\r\n" + host,
		"GET /assets/app-abc123.js HTTP/1.1\r\n" + host + "Range: bytes=0-3\r\n",
		"GET /admin HTTP/1.1\r\n" + host,
		"DELETE /api/news HTTP/1.1\r\n" + host,
		"GET / HTTP/1.0\r\n" + host,
	}
	etag := regexp.MustCompile(`\r\nEtag: ("[^"]*")`)
	for _, head := range append(fast, netHTTP...) {
		req := head + "Connection: keep-alive\r\n\r\n"
		if want := slices.Contains(fast, head); e.handler.FastPathAnswers([]byte(req)) != want || twin.FastPathAnswers([]byte(req)) {
			t.Fatalf("%q: the fast path answers it: %v with it on, %v with it off; want %v and false",
				req, e.handler.FastPathAnswers([]byte(req)), twin.FastPathAnswers([]byte(req)), want)
		}
		got := dateHeader.ReplaceAll(exchange(t, addr, req), []byte("\r\n"))
		want := dateHeader.ReplaceAll(exchange(t, twinAddr, req), []byte("\r\n"))
		if !bytes.Equal(got, want) {
			t.Errorf("%q: the answers differ\nfast path on:\n%.1500s\nfast path off:\n%.1500s", req, got, want)
		}
		if tag := etag.FindSubmatch(got); tag != nil && slices.Contains(fast, head) {
			req := head + "If-None-Match: " + string(tag[1]) + "\r\n\r\n"
			got := dateHeader.ReplaceAll(exchange(t, addr, req), []byte("\r\n"))
			want := dateHeader.ReplaceAll(exchange(t, twinAddr, req), []byte("\r\n"))
			if !bytes.HasPrefix(got, []byte("HTTP/1.1 304 ")) || !bytes.Equal(got, want) {
				t.Errorf("%q: want the same 304 both ways\nfast path on:\n%s\nfast path off:\n%s", req, got, want)
			}
		}
	}
	// The third path, a live stream that takes its connection over from
	// net/http: the same header and first event.
	onHead, onEvent := firstEvent(t, addr, "/api/news/stream")
	offHead, offEvent := firstEvent(t, twinAddr, "/api/news/stream")
	if onHead != offHead || onEvent != offEvent || onEvent.Type != "news" {
		t.Errorf("the news stream differs\nfast path on: %s %+v\nfast path off: %s %+v", onHead, onEvent, offHead, offEvent)
	}
}

// firstEvent opens the live stream at path on addr and returns its status
// and header, but the Date, and its first event.
func firstEvent(t *testing.T, addr, path string) (head string, first ssetest.Event) {
	t.Helper()
	conn := dial(t, addr)
	if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: example.org\r\nAccept: text/event-stream\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Header.Del("Date")
	first, err = ssetest.NewReader(res.Body, ssetest.SkipComments).Next()
	if err != nil {
		t.Fatalf("%s on %s: %v", path, addr, err)
	}
	first.At = time.Time{}
	return fmt.Sprint(res.Status, res.Header), first
}
