package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// serve runs replayd with args on a free port until the test ends and
// returns the base URL it prints.
func serve(t *testing.T, args ...string) (base string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"-listen", "127.0.0.1:0", "-tba-key", "k"}, args...), w, io.Discard)
		// A run that fails before its first line must end the read below,
		// not leave it waiting for ever.
		w.CloseWithError(fmt.Errorf("run returned: %v", err))
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		http.DefaultClient.CloseIdleConnections()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on http://127.0.0.1:") {
		t.Fatalf("first line = %q, %v", line, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
}

// tbaGet asks the replayd at base for a TBA path with the key serve gives it.
func tbaGet(base, path string) (code int, body string, err error) {
	req, err := http.NewRequest(http.MethodGet, base+"/tba/api/v3"+path, nil)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("X-TBA-Auth-Key", "k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close() // closing a read body cannot lose data
	return resp.StatusCode, string(b), err
}

func TestReplaydServesAndTakesControl(t *testing.T) {
	base := serve(t, "-timeline", "demo", "-loop", "-flap-every", "1h", "-flap-fault", "403")
	get := func() int {
		code, _, _ := tbaGet(base, "/event/2026demo")
		return code
	}
	control := func(body string) {
		resp, err := http.Post(base+"/control", "application/json", strings.NewReader(body))
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("control %s: %v", body, err)
		}
		_ = resp.Body.Close() // closing a read body cannot lose data
	}
	if code := get(); code != 200 {
		t.Fatalf("event = %d", code)
	}
	control(`{"fault":"down"}`)
	if code := get(); code != 0 {
		t.Fatalf("event while down = %d, want no answer", code)
	}
	control(`{"fault":""}`)
	if code := get(); code != 200 {
		t.Fatalf("event after recovery = %d", code)
	}
	// The flap's first spell is the flag's fault, and lasts the flag's hour.
	control(`{"fault":"flap","api":"tba"}`)
	if code := get(); code != 403 {
		t.Fatalf("event in a flap of 403 = %d", code)
	}
	control(`{"fault":""}`)
}

func TestReplaydRejectsBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"missing timeline", []string{"-timeline", "/does/not/exist.json"}},
		{"flap of flaps", []string{"-flap-fault", "flap"}},
		{"flap of nothing", []string{"-flap-fault", ""}},
		{"unknown flap fault", []string{"-flap-fault", "explode"}},
		{"flap every zero", []string{"-flap-every", "0s"}},
		{"real event missing", []string{"-real", "/does/not/exist", "-team", "20"}},
		{"real event without team", []string{"-real", "../../internal/testutil/realevent/testdata/2024nytr"}},
		{"real event, unknown moment", []string{"-real", "../../internal/testutil/realevent/testdata/2024nytr", "-team", "20", "-at", "teatime"}},
	}
	// Cancelled: a run that took its flags serves not at all and returns nil.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := run(ctx, append([]string{"-listen", "127.0.0.1:0"}, tt.args...), io.Discard, io.Discard); err == nil {
				t.Fatalf("run %v: no error", tt.args)
			}
		})
	}
}

func TestReplaydPlaysARealEvent(t *testing.T) {
	base := serve(t, "-real", "../../internal/testutil/realevent/testdata/2024nytr", "-team", "20", "-at", "eliminated")
	code, body, err := tbaGet(base, "/team/frc20/event/2024nytr/status")
	if err != nil {
		t.Fatal(err)
	}
	if code != 200 || !strings.Contains(body, `"status":"eliminated"`) || !strings.Contains(body, `"pick":1`) {
		t.Fatalf("team 20 just after its elimination: %d %s", code, body)
	}
}
