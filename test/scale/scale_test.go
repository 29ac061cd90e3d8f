//go:build scale

package scale

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
	"github.com/robohornets/robohornets/internal/testutil/ssetest"
)

const (
	// backends is how many serve processes share the one Firestore project.
	backends = 3
	// minViewers and maxViewers bound the viewers opened through nginx:
	// at least minViewers, more until every backend has one.
	minViewers = 12
	maxViewers = 30
	// goal is the requirement: one write reaches every viewer within it.
	goal = time.Second
	// startTimeout bounds each process's start (the emulator has its own).
	startTimeout = 30 * time.Second
	// waitAtMost is how long the test waits for the write before it gives a
	// viewer up, so that a slow run still reports its figure.
	waitAtMost = 10 * time.Second
)

var emulator firestoretest.Emulator

func TestMain(m *testing.M) {
	code := m.Run()
	emulator.Stop()
	servetest.Cleanup()
	os.Exit(code)
}

// TestOneWriteReachesEveryServersViewers runs three `serve --store
// firestore` processes on one emulator behind nginx, opens live news
// streams through nginx until each backend serves some (and one straight to
// each backend), writes one article with the Go client and checks that
// every viewer has it within a second of the write.
func TestOneWriteReachesEveryServersViewers(t *testing.T) {
	host := emulator.Start(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := firestoretest.FreshProject(t)
	bin := servetest.Binary(t)

	servers := make([]*backend, backends)
	for i := range servers {
		servers[i] = startBackend(t, bin, host, project)
	}
	for _, b := range servers {
		b.waitLive(t)
	}
	lb := startNginx(t, servers)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The first write warms the emulator's and the servers' paths up (a cold
	// JVM is slower than any Firestore in production); the second is measured.
	ids := []string{"warm-up", "scale-out"}
	var viewers []*viewer
	for _, b := range servers {
		viewers = append(viewers, openViewer(ctx, t, b.url, "direct", ids))
	}
	perBackend := map[string]int{}
	for len(viewers)-backends < minViewers || len(perBackend) < backends {
		if len(viewers)-backends == maxViewers {
			t.Fatalf("%d viewers through nginx reached only backends %v; want all of %v", maxViewers, perBackend, addrs(servers))
		}
		v := openViewer(ctx, t, lb, "nginx", ids)
		if !slices.Contains(addrs(servers), v.upstream) {
			t.Fatalf("nginx says it sent a viewer to %q, which is none of %v", v.upstream, addrs(servers))
		}
		perBackend[v.upstream]++
		viewers = append(viewers, v)
	}
	for _, v := range viewers {
		select {
		case <-v.subscribed:
		case err := <-v.failed:
			t.Fatalf("viewer via %s (%s): %v", v.via, v.upstream, err)
		case <-time.After(startTimeout):
			t.Fatalf("viewer via %s (%s) had no first news event within %v", v.via, v.upstream, startTimeout)
		}
	}

	store, err := news.OpenFirestore(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = store.Close() }() // teardown: a close error changes nothing here
	var took []time.Duration
	for i, id := range ids {
		written := time.Now()
		if err := store.Put(ctx, news.Article{ID: id, Title: "Three servers, one write", Date: written.UTC(), Content: "Stateless servers, **Firestore** as the shared store."}); err != nil {
			t.Fatal(err)
		}
		took = took[:0]
		var missing []string
		giveUp := written.Add(waitAtMost)
		for _, v := range viewers {
			at, err := v.wait(i, giveUp)
			if err != nil {
				missing = append(missing, fmt.Sprintf("via %s (%s): %v", v.via, v.upstream, err))
				continue
			}
			took = append(took, at.Sub(written))
		}
		slices.Sort(took)
		if len(took) > 0 {
			t.Logf("write %q reached %d of %d viewers (%d through nginx: %v; 1 straight to each backend): p50 %v, max %v (goal %v)",
				id, len(took), len(viewers), len(viewers)-backends, perBackend,
				took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond), goal)
		}
		if len(missing) > 0 {
			t.Fatalf("%d viewers never had write %q:\n%s", len(missing), id, strings.Join(missing, "\n"))
		}
	}
	if worst := took[len(took)-1]; worst > goal {
		t.Errorf("the slowest viewer had the write %v after it; the goal is %v", worst.Round(time.Millisecond), goal)
	}

	// The servers run without their per-client cap, so nginx must hold one
	// client to its 32 streams (docs/deploy).
	for range 32 - (len(viewers) - backends) {
		v := openViewer(ctx, t, lb, "nginx", nil)
		perBackend[v.upstream]++
	}
	if code := streamStatus(ctx, t, lb); code != http.StatusServiceUnavailable {
		t.Errorf("a 33rd stream of one client through nginx: %d, want 503", code)
	}

	// Each backend's own access log confirms the streams nginx says it sent
	// there: a stream is logged when it ends.
	cancel()
	for _, b := range servers {
		want := perBackend[b.addr] + 1
		b.waitStreamsLogged(t, want)
	}
}

// backend is one `serve` process.
type backend struct {
	addr string // 127.0.0.1:port
	url  string
	proc *servetest.Server // its log: the JSON log with the access log
}

func addrs(bs []*backend) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.addr
	}
	return out
}

// startBackend starts `serve --store firestore` the way the systemd unit
// docs/deploy/robohornets@.service does: its port from PORT, no per-client
// cap (nginx has it). PORT=0 lets it take a free port, which it logs: a port
// chosen beforehand may be taken by then on a busy machine.
func startBackend(t *testing.T, bin, emulatorHost, project string) *backend {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--store", "firestore", "--project", project, "--data", filepath.Join(t.TempDir(), "data"),
		"--max-streams-per-client", "0", // nginx caps clients (docs/deploy)
		"--event", "off") // no internet here
	cmd.Env = append(os.Environ(), "PORT=0", "FIRESTORE_EMULATOR_HOST="+emulatorHost)
	s := servetest.StartServe(t, cmd, servetest.ServeOptions{Ready: startTimeout})
	// serve logs its address as http://[::]:port when it listens on every
	// address: the backend is reached on the loopback one.
	_, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		t.Fatalf("serve's address %q: %v", s.Addr, err)
	}
	b := &backend{addr: "127.0.0.1:" + port, proc: s}
	b.url = "http://" + b.addr
	s.URL, s.Addr = b.url, b.addr
	return b
}

// waitLive waits until the backend's /healthz says its store is live.
func (b *backend) waitLive(t *testing.T) {
	t.Helper()
	b.proc.WaitLive(t, startTimeout)
}

// waitStreamsLogged waits until the backend's access log shows at least n
// ended news streams.
func (b *backend) waitStreamsLogged(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(startTimeout)
	got := 0
	for time.Now().Before(deadline) {
		got = strings.Count(b.proc.Log(), `"requestUrl":"/api/news/stream"`)
		if got >= n {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("serve on %s logged %d news streams, want at least %d (the viewers nginx sent it and one direct)", b.addr, got, n)
}

// deployedConf is the nginx configuration the README deploys; the test
// runs it with its own ports.
const deployedConf = "../../docs/deploy/nginx-robohornets.conf"

var (
	upstreamServer = regexp.MustCompile(`(?m)^[ \t]*server[ \t]+[^ \t{;]+:[0-9]+[^;{]*;.*\n`)
	listenLine     = regexp.MustCompile(`(?m)^[ \t]*listen[ \t][^;]*;.*\n`)
	serverName     = regexp.MustCompile(`(?m)^[ \t]*server_name[ \t][^;]*;.*\n`)
)

// testSite returns the deployed configuration with the test's backends as
// its upstream, listening on port of 127.0.0.1, and naming the backend of
// each response in an X-Upstream header, which the test checks.
func testSite(t *testing.T, port int, bs []*backend) []byte {
	t.Helper()
	conf, err := os.ReadFile(deployedConf)
	if err != nil {
		t.Fatal(err)
	}
	replaceAll := func(re *regexp.Regexp, with string) {
		t.Helper()
		n := 0
		conf = re.ReplaceAllFunc(conf, func([]byte) []byte {
			if n++; n > 1 {
				return nil
			}
			return []byte(with)
		})
		if n == 0 {
			t.Fatalf("%s has no line matching %s: update testSite with it", deployedConf, re)
		}
	}
	var servers strings.Builder
	for _, b := range bs {
		fmt.Fprintf(&servers, "    server %s max_fails=3 fail_timeout=10s;\n", b.addr)
	}
	replaceAll(upstreamServer, servers.String())
	replaceAll(listenLine, fmt.Sprintf("    listen 127.0.0.1:%d;\n", port))
	replaceAll(serverName, "    server_name localhost;\n    add_header X-Upstream $upstream_addr always;\n")
	return conf
}

// nginxConf runs nginx as the current user with every path in dir, around
// the site configuration.
var nginxConf = template.Must(template.New("nginx.conf").Parse(`
{{if .User}}user {{.User}} {{.Group}};
{{end}}worker_processes 1;
daemon off;
pid {{.Dir}}/nginx.pid;
error_log {{.Dir}}/error.log info;
events { worker_connections 1024; }
http {
	access_log {{.Dir}}/access.log;
	client_body_temp_path {{.Dir}}/client_body;
	proxy_temp_path {{.Dir}}/proxy;
	fastcgi_temp_path {{.Dir}}/fastcgi;
	uwsgi_temp_path {{.Dir}}/uwsgi;
	scgi_temp_path {{.Dir}}/scgi;
	include {{.Dir}}/robohornets.conf;
}
`))

// startNginx starts nginx in front of the backends and returns its URL.
func startNginx(t *testing.T, bs []*backend) string {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		bin = "/usr/sbin/nginx" // Debian's, outside a non-root PATH
		if _, err := os.Stat(bin); err != nil {
			t.Fatal("nginx not found: install the Debian package nginx (make deps does)")
		}
	}
	dir := t.TempDir()
	data := struct{ User, Group, Dir string }{Dir: dir}
	if os.Geteuid() == 0 {
		// A master running as root hands its workers to nobody, who cannot
		// open this test's directory.
		u, err := user.Current()
		if err != nil {
			t.Fatal(err)
		}
		g, err := user.LookupGroupId(u.Gid)
		if err != nil {
			t.Fatal(err)
		}
		data.User, data.Group = u.Username, g.Name
	}
	conf := filepath.Join(dir, "nginx.conf")
	var buf bytes.Buffer
	if err := nginxConf.Execute(&buf, data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// nginx cannot pick a free port itself: choose one, and choose again
	// when something took it meanwhile.
	for attempt := 1; ; attempt++ {
		port, err := firestoretest.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "robohornets.conf"), testSite(t, port, bs), 0o644); err != nil {
			t.Fatal(err)
		}
		errLog := filepath.Join(dir, "error.log")
		_ = os.Remove(errLog)
		var out bytes.Buffer
		cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", errLog)
		cmd.Stdout, cmd.Stderr = &out, &out
		proc := servetest.Start(t, cmd, 10*time.Second)
		url := fmt.Sprintf("http://127.0.0.1:%d", port)
		deadline := time.Now().Add(startTimeout)
		for {
			resp, err := http.Get(url + "/healthz")
			if err == nil {
				_ = resp.Body.Close() // closing a read body cannot lose data
				if resp.StatusCode == http.StatusOK {
					return url
				}
			}
			if proc.Ended() || time.Now().After(deadline) {
				log, _ := os.ReadFile(errLog)
				if proc.Ended() && bytes.Contains(log, []byte("Address already in use")) && attempt < 5 {
					break
				}
				t.Fatalf("nginx not answering /healthz within %v (%v):\n%s\n%s", startTimeout, err, out.String(), log)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// streamStatus opens a news stream on base and returns its status code.
func streamStatus(ctx context.Context, t *testing.T, base string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/news/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close() // closing a read body cannot lose data
	return resp.StatusCode
}

// viewer is one open /api/news/stream, read the way EventSource reads it.
type viewer struct {
	via      string // "nginx" or "direct"
	upstream string // the backend's address
	// subscribed is closed at the first news event: the viewer is live.
	subscribed chan struct{}
	// got[i] receives when a news event first has the article ids[i].
	got    []chan time.Time
	failed chan error
}

// openViewer opens a news stream on base and reads it until ctx ends,
// noting when each of ids first appears.
func openViewer(ctx context.Context, t *testing.T, base, via string, ids []string) *viewer {
	t.Helper()
	stream := ssetest.Open(t, http.DefaultClient, base+"/api/news/stream", ssetest.SkipComments, startTimeout)
	context.AfterFunc(ctx, stream.Close)
	resp := stream.Response
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("viewer via %s: %s, Content-Type %q", via, resp.Status, resp.Header.Get("Content-Type"))
	}
	v := &viewer{via: via, upstream: resp.Header.Get("X-Upstream"), subscribed: make(chan struct{}), failed: make(chan error, 1)}
	for range ids {
		v.got = append(v.got, make(chan time.Time, 1))
	}
	if via == "direct" {
		v.upstream = strings.TrimPrefix(base, "http://")
	}
	go v.read(ctx, stream, ids)
	return v
}

// wait returns when the viewer had the article ids[i], or an error when
// its stream failed or giveUp passed first.
func (v *viewer) wait(i int, giveUp time.Time) (time.Time, error) {
	timer := time.NewTimer(time.Until(giveUp))
	defer timer.Stop()
	select {
	case at := <-v.got[i]:
		return at, nil
	case err := <-v.failed:
		return time.Time{}, err
	case <-timer.C:
	}
	select { // it may have come just as the time ran out
	case at := <-v.got[i]:
		return at, nil
	default:
		return time.Time{}, fmt.Errorf("nothing by %s", giveUp.Format("15:04:05.000"))
	}
}

// read reads stream until it ends: ctx's end closes it.
func (v *viewer) read(ctx context.Context, stream *ssetest.Stream, ids []string) {
	first := true
	has := make([]bool, len(ids))
	for ev := range stream.Events() {
		if ev.Type != "news" {
			continue
		}
		var snap struct {
			Articles []struct{ ID, Title string }
		}
		if err := json.Unmarshal([]byte(ev.Data), &snap); err != nil {
			v.failed <- fmt.Errorf("news event: %w", err)
			return
		}
		if first {
			close(v.subscribed)
			first = false
		}
		for i, id := range ids {
			if !has[i] && slices.ContainsFunc(snap.Articles, func(a struct{ ID, Title string }) bool { return a.ID == id }) {
				v.got[i] <- ev.At
				has[i] = true
			}
		}
	}
	if ctx.Err() == nil {
		v.failed <- fmt.Errorf("stream ended: %v", stream.Err())
	}
}
