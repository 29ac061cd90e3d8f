package server

import (
	"bufio"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/server/fastpath"
)

// chainOptions are the options of a server with every middleware on.
var chainOptions = Options{Logger: slog.New(slog.DiscardHandler), Clock: clock.Real{}, NexusWebhookToken: "token", SiteURL: "https://robohornets.example"}

// TestMiddlewareChain lists the middleware in front of the mux with what
// the fast path, which answers without them, does about each. A middleware
// added, removed or moved fails it until this list says what the fast path
// does about it: mirror its work, be left alone by it (checked below), or
// turn the fast path off.
func TestMiddlewareChain(t *testing.T) {
	type decided struct{ name, fastPath string }
	want := []decided{
		{"access log", "mirrors"},
		{"security headers", "mirrors"},
		{"one meaning per path", "untouched"},
		{"API methods", "untouched"},
	}
	treatments := map[fastPathTreatment]string{fastPathUndecided: "undecided", fastPathMirrors: "mirrors", fastPathUntouched: "untouched", fastPathOff: "off"}
	var got []decided
	for _, m := range middlewareChain(chainOptions, securityHeaders(chainOptions.SiteURL)) {
		got = append(got, decided{m.name, treatments[m.fastPath]})
	}
	if !slices.Equal(got, want) {
		t.Errorf("the middleware chain is\n%v\nthis test knows\n%v\ndecide what the fast path does about the new one (fastPathTreatment), then list it here", got, want)
	}
}

// TestUntouchedMiddlewarePassesFastRequests holds every middleware that
// says the fast path may answer without it (fastPathUntouched) to that:
// each request the fast path reads goes to the next handler as it is, with
// the same response writer, and the middleware writes nothing.
func TestUntouchedMiddlewarePassesFastRequests(t *testing.T) {
	var raws []string
	for _, method := range []string{"GET", "HEAD"} {
		for _, path := range []string{"/", "/news/first-match.2026", "/api/news", "/api/nope", "/api/nexus/webhook", "/admin/api/members", "/assets/app-abc123.js", "/assets/console/x.js"} {
			raws = append(raws, method+" "+path+" HTTP/1.1\r\nHost: example.org\r\nAccept-Encoding: gzip\r\n\r\n")
		}
	}
	for _, m := range middlewareChain(chainOptions, securityHeaders(chainOptions.SiteURL)) {
		if m.fastPath != fastPathUntouched {
			continue
		}
		for _, raw := range raws {
			t.Run(m.name+" "+strings.Fields(raw)[0]+" "+strings.Fields(raw)[1], func(t *testing.T) {
				if _, ok := fastpath.Parse([]byte(raw)); !ok {
					t.Fatalf("the fast path does not read %q: it tests nothing", raw)
				}
				r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
				if err != nil {
					t.Fatal(err)
				}
				rec := httptest.NewRecorder()
				var w http.ResponseWriter = rec
				passed := false
				m.wrap(http.HandlerFunc(func(gotW http.ResponseWriter, gotR *http.Request) {
					passed = gotW == w && gotR == r
				})).ServeHTTP(w, r)
				if !passed || len(rec.Header()) != 0 || rec.Body.Len() != 0 {
					t.Errorf("%s did not pass the request and its writer on as they were (%v), or wrote %v %q: the fast path would skip that", m.name, passed, rec.Header(), rec.Body)
				}
			})
		}
	}
}

// TestFastPathOn: the fast path answers unless it is turned off or a
// middleware says it cannot do its work; a middleware that says nothing
// is a programmer's error, refused at start.
func TestFastPathOn(t *testing.T) {
	wrap := func(next http.Handler) http.Handler { return next }
	chain := middlewareChain(chainOptions, securityHeaders(chainOptions.SiteURL))
	tests := []struct {
		name  string
		off   bool
		chain []middleware
		want  bool
	}{
		{"the chain", false, chain, true},
		{"the chain, turned off", true, chain, false},
		{"a rate limit the fast path cannot do", false, append(slices.Clip(chain), middleware{"rate limit", fastPathOff, wrap}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fastPathOn(tt.off, tt.chain); got != tt.want {
				t.Errorf("fastPathOn = %v, want %v", got, tt.want)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("a middleware without a fast path treatment was taken")
		}
	}()
	fastPathOn(false, append(slices.Clip(chain), middleware{name: "metric", wrap: wrap}))
}
