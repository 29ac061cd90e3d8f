package server_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// dial connects to addr for the rest of the test, with a 10 s deadline for
// everything on the connection.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() }) // teardown: a close error changes nothing here
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	return conn
}

// rawRequest sends req exactly as written over a new connection to addr and
// returns the response with its body (at most 1 MB).
func rawRequest(t *testing.T, addr, req string) (*http.Response, string) {
	t.Helper()
	conn := dial(t, addr)
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no HTTP response to %.120q: %v", req, err)
	}
	defer func() { _ = res.Body.Close() }() // closing a read body cannot lose data
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res, string(body)
}

// TestBadHTTPInput sends malformed, hostile and unusual requests to a real
// listener (so the server's own limits apply) and checks that none gets a
// 5xx, a stack trace or a file from outside the embedded build, and that
// errors under /api/ are JSON.
func TestBadHTTPInput(t *testing.T) {
	e := newEnv(t, envConfig{webhookToken: "bad-input-token"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = e.handler.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = e.handler.Shutdown(ctx)
	})
	addr := ln.Addr().String()

	type tc struct {
		name, method, target string
		header, body         string // extra header lines ("K: v\r\n"), body
		want                 int    // 0: any status below 500
	}
	var cases []tc
	get := func(name, target string, want int) {
		cases = append(cases, tc{name: name, method: "GET", target: target, want: want})
	}
	// Article ids that are not ids, on the page and in the API.
	badIDs := map[string]string{
		"dot dot":             "..",
		"encoded dot dot":     "%2e%2e",
		"encoded slash":       "a%2Fb",
		"double-encoded":      "a%252Fb",
		"NUL":                 "a%00b",
		"3 KB":                strings.Repeat("x", 3000),
		"reserved __x__":      "__x__",
		"emoji":               "%F0%9F%A4%96",
		"backslash traversal": "..%5C..%5Cgo.mod",
		"invalid UTF-8":       "%ff%fe",
	}
	for name, id := range badIDs {
		get("article page, "+name, "/news/"+id, 0)
		get("article API, "+name, "/api/news/"+id, 0)
	}
	// Traversal out of the embedded build.
	for _, target := range []string{
		"/assets/../go.mod", "/assets/..%2fgo.mod", "/assets/%2e%2e/go.mod", "/assets/%252e%252e/go.mod",
		"/assets/..%5cgo.mod", "/../../etc/passwd", "/assets/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
		"/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/assets/", "/assets/.", "/assets//etc/passwd",
		"//etc/passwd", "/assets/app-abc123.js%00.html", "/index.html/../go.mod", "/./assets/../../go.mod",
	} {
		get("traversal "+target, target, 0)
	}
	for name, target := range map[string]string{
		"invalid UTF-8 path":     "/%ff%fe%fd",
		"raw invalid UTF-8 path": "/\xff\xfe",
		"invalid UTF-8 query":    "/news?q=%ff",
		"huge query":             "/news?q=" + strings.Repeat("a", 60_000),
		"huge API query":         "/api/news?" + strings.Repeat("a=1&", 15_000),
		"bad percent escape":     "/news/%zz",
		"absolute-form target":   "http://evil.example/news",
		"asterisk target":        "*",
	} {
		get(name, target, 0)
	}
	// Methods other than GET and HEAD, and bodies on GET.
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "FOO"} {
		for _, target := range []string{"/news", "/api/news"} {
			cases = append(cases, tc{name: m + " " + target, method: m, target: target, want: http.StatusMethodNotAllowed})
		}
	}
	cases = append(cases,
		tc{name: "GET with a body", method: "GET", target: "/api/news", header: "Content-Type: application/json\r\n", body: `{"x":1}`, want: http.StatusOK},
		tc{name: "GET page with a body", method: "GET", target: "/", body: strings.Repeat("b", 10_000), want: http.StatusOK},
		tc{name: "headers over the limit", method: "GET", target: "/", header: "X-Big: " + strings.Repeat("h", 70_000) + "\r\n", want: http.StatusRequestHeaderFieldsTooLarge},
		tc{name: "many headers over the limit", method: "GET", target: "/api/news", header: strings.Repeat("X-A: "+strings.Repeat("h", 900)+"\r\n", 80), want: http.StatusRequestHeaderFieldsTooLarge},
		tc{name: "webhook without a token", method: "POST", target: "/api/nexus/webhook", header: "Content-Type: application/json\r\n", body: "{}", want: http.StatusUnauthorized},
		tc{name: "webhook with a wrong token", method: "POST", target: "/api/nexus/webhook", header: "Nexus-Token: nope\r\n", body: "{}", want: http.StatusUnauthorized},
		tc{name: "webhook with a broken body", method: "POST", target: "/api/nexus/webhook", header: "Nexus-Token: bad-input-token\r\n", body: "{not json", want: 0},
		tc{name: "webhook with an oversized body", method: "POST", target: "/api/nexus/webhook", header: "Nexus-Token: bad-input-token\r\n", body: `{"x":"` + strings.Repeat("a", 3<<20) + `"}`, want: 0},
		tc{name: "webhook GET", method: "GET", target: "/api/nexus/webhook", want: 0},
		tc{name: "unknown API", method: "GET", target: "/api/../api/nope", want: 0},
	)
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: test\r\n%sContent-Length: %d\r\nConnection: close\r\n\r\n%s", c.method, c.target, c.header, len(c.body), c.body)
			if c.body == "" {
				req = fmt.Sprintf("%s %s HTTP/1.1\r\nHost: test\r\n%sConnection: close\r\n\r\n", c.method, c.target, c.header)
			}
			res, body := rawRequest(t, addr, req)
			if res.StatusCode >= 500 {
				t.Fatalf("status %d:\n%.300s", res.StatusCode, body)
			}
			if c.want != 0 && res.StatusCode != c.want {
				t.Errorf("status %d, want %d:\n%.300s", res.StatusCode, c.want, body)
			}
			for _, leak := range []string{"goroutine ", "panic", "runtime error", "module github.com/robohornets", "root:x:0:0"} {
				if strings.Contains(body, leak) {
					t.Errorf("the response shows %q:\n%.300s", leak, body)
				}
			}
			// Errors the handlers write under /api/ are JSON; net/http's own
			// answers to a request it could not read (400, 431) come first.
			if strings.HasPrefix(c.target, "/api/") && res.StatusCode >= 400 && res.StatusCode != http.StatusRequestHeaderFieldsTooLarge && res.StatusCode != http.StatusBadRequest {
				if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("status %d with Content-Type %q, want a JSON error:\n%.300s", res.StatusCode, ct, body)
				}
			}
		})
	}
}
