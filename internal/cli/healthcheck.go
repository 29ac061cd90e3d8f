package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
	"unicode"
)

const healthcheckUsage = `Usage: robohornets healthcheck [flags] [URL]

Asks a running serve whether it is ready: GET URL, exit status 0 when it
answers 200 and 1 otherwise, with the reason on one line of stderr (2 for
a mistake in the command line). For a container's HEALTHCHECK (the image
has no shell or curl) or a monitor.
URL defaults to http://127.0.0.1:$PORT/readyz (PORT: 8080 when unset).
`

// healthcheckTimeout bounds the whole request of the healthcheck command.
const healthcheckTimeout = 5 * time.Second

// maxHealthBody is how much of an answer's body the healthcheck reads for
// its reason.
const maxHealthBody = 64 << 10

// runHealthcheck runs the healthcheck command; timeout is its default
// --timeout (tests pass a short one).
func (p Program) runHealthcheck(args []string, timeout time.Duration) error {
	fs := newFlagSet("healthcheck", healthcheckUsage, p.Stderr)
	fs.DurationVar(&timeout, "timeout", timeout, "how long to wait for the whole answer")
	urls, err := parseArgs(fs, args, 1, "takes at most one URL")
	if err != nil {
		return err
	}
	target := "http://127.0.0.1:" + defaultPort() + "/readyz"
	if len(urls) == 1 {
		target = urls[0]
	}
	if u, err := url.Parse(target); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: healthcheck: %q: want an absolute http or https URL", errUsage, target)
	}
	if timeout <= 0 {
		return fmt.Errorf("%w: healthcheck: --timeout %v: want more than 0", errUsage, timeout)
	}
	// No proxy from the environment: the check is of this machine's serve.
	client := &http.Client{Timeout: timeout, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	res, err := client.Get(target)
	if err != nil {
		var netErr interface{ Timeout() bool }
		if errors.As(err, &netErr) && netErr.Timeout() {
			return fmt.Errorf("healthcheck: %s: no answer within %v", target, timeout)
		}
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer func() { _ = res.Body.Close() }() // a read body: closing it loses nothing
	body, err := io.ReadAll(io.LimitReader(res.Body, maxHealthBody))
	if res.StatusCode == http.StatusOK {
		return nil // the status is the answer; a body cut short does not change it
	}
	reason := res.Status
	if err == nil {
		if msg := answerMessage(body); msg != "" {
			reason += ": " + msg
		}
	}
	return fmt.Errorf("healthcheck: %s: %s", target, reason)
}

// defaultPort is $PORT, as serve listens on it, or 8080.
func defaultPort() string {
	if port := os.Getenv("PORT"); port != "" {
		return port
	}
	return "8080"
}

// answerMessage is the "message" or "error" of a JSON answer, on one line
// of printable text and at most 200 bytes; "" when there is none.
func answerMessage(body []byte) string {
	var v struct{ Message, Error string }
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	msg := strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, v.Message+v.Error)
	if len(msg) > 200 {
		msg = strings.ToValidUTF8(msg[:200], "") + "…"
	}
	return msg
}
