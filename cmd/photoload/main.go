// Command photoload measures serve's peak memory while members upload, at
// once, the largest photos the team console accepts. It starts the serve
// binary it is given on a local store of its own, enrols an editor with
// `admin invite` and a virtual passkey (the console's real WebAuthn
// ceremony), uploads -n copies of one photo at the same moment, checks
// that every one was accepted, and reads serve's peak resident memory
// (VmHWM of /proc/PID/status).
//
//	photoload -bin build/bin/robohornets-server -n 4 -markdown
//
// The photo is an 8-bit RGB PNG of 6600×4400 (29 MP, 4 bytes a pixel decoded): its header
// says it takes 131,544,834 bytes to decode, scale and encode, just under
// photo.MaxDecodeBytes (134,217,728), more than any JPEG of phone
// resolution; its top rows are noise so the file weighs about 18 MB, near
// the 20 MB an upload may weigh. Serve runs with GOMEMLIMIT as it sets it
// itself in Cloud Run's 512 MiB instance (docs/DEPLOY.md), unless
// -gomemlimit says otherwise. It exits 1 when an upload was refused or
// the peak missed the goal.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/robohornets/robohornets/bench/part"
	"github.com/robohornets/robohornets/cmd/internal/cmdmain"
	"github.com/robohornets/robohornets/internal/testutil/passkeytest"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
)

// main exits 0 after -h, flag's usage being the answer asked for.
func main() { os.Exit(cmdmain.Run("photoload", run, flag.ErrHelp)) }

// The photo's size: see the package comment.
const (
	photoWidth, photoHeight = 6600, 4400
	noiseRows               = 900
)

// cloudRunGoMemLimit is the GOMEMLIMIT serve sets itself in a container
// of 512 MiB (internal/cli goMemoryLimit: 90 %).
const cloudRunGoMemLimit = "483183821"

// config is the command line.
type config struct {
	bin        string
	n          int
	goalMB     float64
	goMemLimit string
	markdown   bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c config
	fs := flag.NewFlagSet("photoload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.bin, "bin", "", "the serve `BINARY` (build/bin/robohornets-server)")
	fs.IntVar(&c.n, "n", 4, "photos uploaded at once")
	fs.Float64Var(&c.goalMB, "goal-mb", 400, "the most serve's peak resident memory may be, in MB of 10^6 bytes")
	fs.StringVar(&c.goMemLimit, "gomemlimit", cloudRunGoMemLimit, "GOMEMLIMIT for serve (default: what serve sets itself in a 512 MiB container; \"\" leaves it unset)")
	fs.BoolVar(&c.markdown, "markdown", false, "print a markdown section for docs/BENCHMARKS.md")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.bin == "" || c.n < 1 || fs.NArg() != 0 {
		return fmt.Errorf("usage: photoload -bin SERVER [-n 4] [-goal-mb 400] [-gomemlimit BYTES] [-markdown]")
	}

	_, _ = fmt.Fprintf(stderr, "photoload: making a %d×%d PNG\n", photoWidth, photoHeight) // progress: a lost line changes nothing
	photo, err := largestPhoto()
	if err != nil {
		return err
	}
	body, ctype, err := multipartPhoto(photo)
	if err != nil {
		return err
	}

	dir, err := os.MkdirTemp("", "photoload-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }() // a temporary directory: nothing to lose
	port, err := freePort()
	if err != nil {
		return err
	}
	site := fmt.Sprintf("http://localhost:%d", port)
	srv, err := startServe(c, dir, port, site)
	if err != nil {
		return err
	}
	defer func() {
		if _, err := srv.Stop(15 * time.Second); err != nil {
			_, _ = fmt.Fprintln(stderr, "photoload: stop serve:", err) // the report is written already; nothing else to tell
		}
	}()

	cl := &client{base: site, cookies: map[string]string{}}
	if err := cl.enrol(ctx, c.bin, dir, site); err != nil {
		return fmt.Errorf("%w; serve's log ends:\n%s", err, servetest.LastLines(srv.Log(), 10))
	}
	idle, _, err := srv.Memory()
	if err != nil {
		return err
	}

	_, _ = fmt.Fprintf(stderr, "photoload: %d uploads of %.1f MB at once\n", c.n, float64(len(photo))/1e6) // progress
	start := time.Now()
	errs := make([]error, c.n)
	var wg sync.WaitGroup
	for i := range c.n {
		wg.Go(func() { errs[i] = cl.upload(ctx, body, ctype) })
	}
	wg.Wait()
	took := time.Since(start)
	_, peak, err := srv.Memory()
	if err != nil {
		return err
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("upload: %w; serve's log ends:\n%s", err, servetest.LastLines(srv.Log(), 10))
	}

	peakMB := float64(peak) / 1e6
	met := peakMB <= c.goalMB
	verdict := "met"
	if !met {
		verdict = "**not met**"
	}
	limit := c.goMemLimit
	if limit == "" {
		limit = "unset"
	}
	row := fmt.Sprintf("| %d × %d RGB PNG, %.1f MB | %d | %s | %.0f MB | %.0f MB | %.1f s | ≤ %.0f MB | %s |",
		photoWidth, photoHeight, float64(len(photo))/1e6, c.n, limit, float64(idle)/1e6, peakMB, took.Seconds(), c.goalMB, verdict)
	p := part.Part{
		Section: fmt.Sprintf("Photos: serve's peak memory while %d of the largest accepted photos upload at once", c.n),
		Command: "go run ./cmd/photoload -bin build/bin/robohornets-server -markdown",
		Goals: []part.Goal{{
			What:   fmt.Sprintf("serve's peak memory, %d of the largest accepted photos uploaded at once", c.n),
			Figure: fmt.Sprintf("%.0f MB", peakMB), Goal: fmt.Sprintf("≤ %.0f MB", c.goalMB), Met: met,
		}},
		Body: fmt.Sprintf(`It starts `+"`serve`"+` on a local store, enrols an editor (`+"`admin invite`"+` and a virtual passkey),
then uploads %d copies of the largest photo the console accepts at the same moment: an 8-bit RGB
PNG of %d × %d (its header says 131,544,834 bytes to process, the budget of one photo being
134,217,728; no JPEG of phone resolution comes as close), about 18 MB of file, near the 20 MB an
upload may weigh. Every upload must be accepted (201). Memory = serve's VmRSS once signed in, and
its VmHWM (peak resident memory) after the uploads, in MB of 10^6 bytes. GOMEMLIMIT is what serve
sets itself in Cloud Run's 512 MiB instance. Goal: ≤ %.0f MB.

| photo | at once | GOMEMLIMIT | serve signed in | serve's peak | uploads took | goal | goal met |
|---|---|---|---|---|---|---|---|
%s
`, c.n, photoWidth, photoHeight, c.goalMB, row),
	}
	if err := part.Write("photos", p); err != nil {
		return err
	}
	if c.markdown {
		_, err = fmt.Fprintln(stdout, p.Markdown())
	} else {
		_, err = fmt.Fprintln(stdout, row)
	}
	if err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	if !met {
		return fmt.Errorf("serve's peak memory %.0f MB is over the goal of %.0f MB", peakMB, c.goalMB)
	}
	return nil
}

// largestPhoto returns the PNG of the package comment: noise on top, a
// gradient below, every pixel opaque.
func largestPhoto() ([]byte, error) {
	img := image.NewNRGBA(image.Rect(0, 0, photoWidth, photoHeight))
	r := rand.New(rand.NewPCG(1209, 2026))
	for y := range photoHeight {
		row := img.Pix[y*img.Stride : y*img.Stride+4*photoWidth]
		for x := range photoWidth {
			p := row[4*x : 4*x+4]
			if y < noiseRows {
				v := r.Uint32()
				p[0], p[1], p[2] = byte(v), byte(v>>8), byte(v>>16)
			} else {
				p[0], p[1], p[2] = byte(x*255/photoWidth), byte(y*255/photoHeight), 128
			}
			p[3] = 255
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode the photo: %w", err)
	}
	return buf.Bytes(), nil
}

// multipartPhoto returns an upload's body, the photo in the field
// "photo", and its Content-Type.
func multipartPhoto(photo []byte) ([]byte, string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("photo", "largest.png")
	if err != nil {
		return nil, "", err
	}
	if _, err := fw.Write(photo); err != nil {
		return nil, "", err
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return body.Bytes(), mw.FormDataContentType(), nil
}

// freePort returns a loopback port no socket uses now. serve needs it
// before it starts: the site's address, which passkeys are bound to,
// names it.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	return port, ln.Close()
}

// startServe starts serve on port with its store in dir, and returns once
// it logs that it serves.
func startServe(c config, dir string, port int, site string) (*servetest.Logged, error) {
	cmd := exec.Command(c.bin, "serve", "--data", dir, "--listen", fmt.Sprintf("127.0.0.1:%d", port),
		"--site-url", site, "--event", "off")
	cmd.Env = os.Environ()
	if c.goMemLimit != "" {
		cmd.Env = append(cmd.Env, "GOMEMLIMIT="+c.goMemLimit)
	}
	serving := func(line []byte) bool {
		var rec struct{ Message string }
		return json.Unmarshal(line, &rec) == nil && rec.Message == "serving"
	}
	srv, err := servetest.Launch(cmd, servetest.LaunchOptions{Ready: serving, Timeout: 60 * time.Second})
	if err != nil {
		if srv != nil {
			return nil, fmt.Errorf("serve: %w; its log ends:\n%s", err, servetest.LastLines(srv.Log(), 10))
		}
		return nil, err
	}
	return srv, nil
}

// client is a browser of the console: it keeps the cookies serve sets
// (the session's is Secure, which Go's cookie jar keeps off plain HTTP,
// where serve allows it on localhost).
type client struct {
	base string
	mu   sync.Mutex
	// cookies are the cookies set so far, by name.
	cookies map[string]string
}

// do sends a request and returns the answer's body, failing unless its
// status is want.
func (cl *client) do(ctx context.Context, path, ctype string, body []byte, want int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cl.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", ctype)
	cl.mu.Lock()
	for name, value := range cl.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	cl.mu.Unlock()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", path, err)
	}
	defer func() { _ = res.Body.Close() }() // a read body: nothing to lose
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", path, err)
	}
	if res.StatusCode != want {
		return nil, fmt.Errorf("POST %s: %s %s, want %d", path, res.Status, bytes.TrimSpace(answer), want)
	}
	cl.mu.Lock()
	for _, ck := range res.Cookies() {
		cl.cookies[ck.Name] = ck.Value
	}
	cl.mu.Unlock()
	return answer, nil
}

// enrol invites an editor with `admin invite` and enrols a virtual passkey
// with the link, which signs the client in.
func (cl *client) enrol(ctx context.Context, bin, dir, site string) error {
	out, err := exec.CommandContext(ctx, bin, "admin", "--data", dir, "invite", "--role", "editor", "--name", "Bench", "--site-url", site).Output()
	if err != nil {
		return fmt.Errorf("admin invite: %w", err)
	}
	var token string
	for line := range strings.SplitSeq(string(out), "\n") {
		if u, err := url.Parse(strings.TrimSpace(line)); err == nil && u.Fragment != "" {
			token = u.Fragment
		}
	}
	if token == "" {
		return fmt.Errorf("admin invite printed no link: %q", out)
	}
	begin, err := json.Marshal(map[string]string{"token": token})
	if err != nil {
		return err
	}
	answer, err := cl.do(ctx, "/admin/api/enrol/begin", "application/json", begin, http.StatusOK)
	if err != nil {
		return err
	}
	var cer struct {
		ID      string          `json:"id"`
		Options json.RawMessage `json:"options"`
	}
	if err := json.Unmarshal(answer, &cer); err != nil {
		return fmt.Errorf("enrol begin: %w", err)
	}
	cred, err := passkeytest.New(site).Create(cer.Options)
	if err != nil {
		return err
	}
	finish, err := json.Marshal(map[string]any{"ceremony": cer.ID, "credential": json.RawMessage(cred), "name": "bench"})
	if err != nil {
		return err
	}
	_, err = cl.do(ctx, "/admin/api/enrol/finish", "application/json", finish, http.StatusOK)
	return err
}

// upload posts the photo's multipart body; serve must accept it.
func (cl *client) upload(ctx context.Context, body []byte, ctype string) error {
	_, err := cl.do(ctx, "/admin/api/photos", ctype, body, http.StatusCreated)
	return err
}
