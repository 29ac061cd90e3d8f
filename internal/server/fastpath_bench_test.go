package server_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/server"
)

// benchmarkServe measures one request and its answer on a kept-alive
// loopback connection to a served website: the client writes the same
// bytes each time and reads the answer's known length into one buffer, so
// that allocs/op counts the server's allocations. connection is the
// request's Connection header: "keep-alive" keeps it on the fast path,
// "keep-alive, x-net-http" sends it to net/http.
func benchmarkServe(b *testing.B, opts server.Options, path, connection string) {
	site := benchmarkServer(b, opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = site.Serve(ln) }()
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = site.Shutdown(ctx)
	})
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = conn.Close() }() // the benchmark is over
	req := []byte("GET " + path + " HTTP/1.1\r\nHost: example.org\r\nUser-Agent: bench\r\nAccept-Encoding: gzip, br\r\nConnection: " + connection + "\r\n\r\n")
	// The first answer tells the length of each: its Date has a fixed
	// length and nothing else changes.
	var first strings.Builder
	if _, err := conn.Write(req); err != nil {
		b.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(io.TeeReader(conn, &first)), nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
	}
	answer := make([]byte, first.Len())
	for b.Loop() {
		if _, err := conn.Write(req); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(conn, answer); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFastPathNewsList(b *testing.B) {
	benchmarkServe(b, server.Options{}, "/api/news", "keep-alive")
}

func BenchmarkFastPathPage(b *testing.B) {
	benchmarkServe(b, server.Options{}, "/news/build-season-by-the-numbers", "keep-alive")
}

func BenchmarkNetHTTPNewsList(b *testing.B) {
	benchmarkServe(b, server.Options{}, "/api/news", "keep-alive, x-net-http")
}

func BenchmarkFastPathOffNewsList(b *testing.B) {
	benchmarkServe(b, server.Options{FastPathOff: true}, "/api/news", "keep-alive")
}
