//go:build slow

package cli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/testutil/chantest"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
)

// TestServeFastPathFlag runs serve with the fast path on (the default) and
// off: it says which as it starts, answers the news list either way, and
// stops cleanly on SIGTERM when the test ends.
func TestServeFastPathFlag(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"default", nil, "on"},
		{"--fast-path off", []string{"--fast-path", "off"}, "off"},
		{"--fast-path=on", []string{"--fast-path=on"}, "on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"serve", "--data", t.TempDir(), "--listen", "127.0.0.1:0", "--event", "off", "--site-url", "http://127.0.0.1"}, tt.args...)
			// The serving line is read as it is kept: Log may not hold it
			// yet when StartServe returns.
			said := make(chan string, 1)
			srv := servetest.StartServe(t, programCmd(t, args...), servetest.ServeOptions{Keep: func(line []byte) bool {
				var rec struct {
					Message  string
					FastPath string `json:"fast_path"`
				}
				if json.Unmarshal(line, &rec) == nil && rec.Message == "serving" {
					said <- rec.FastPath
				}
				return true
			}})
			if got := chantest.Receive(t, said, "the serving line", 10*time.Second); got != tt.want {
				t.Errorf("the serving line says the fast path is %q, want %q; the log:\n%s", got, tt.want, srv.Log())
			}
			if res, body := servetest.Get(t, srv.URL+"/api/news", nil); res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"articles"`) {
				t.Errorf("GET /api/news: %d %.200q", res.StatusCode, body)
			}
		})
	}
}
