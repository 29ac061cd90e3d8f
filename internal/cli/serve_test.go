package cli

import "testing"

func TestServeRefusesBadFlags(t *testing.T) {
	data := t.TempDir()
	// With a flag accepted by mistake, serve fails at this address (exit
	// 1) rather than serving until the test times out.
	const noServe = "127.0.0.1:no-port"
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"negative overall cap", []string{"serve", "--data", data, "--listen", noServe, "--max-streams", "-1"}, "--max-streams -1"},
		{"negative per-client cap", []string{"serve", "--data", data, "--listen", noServe, "--max-streams-per-client", "-5"}, "--max-streams-per-client -5"},
		{"not a number", []string{"serve", "--data", data, "--listen", noServe, "--max-streams", "many"}, ""},
		{"fast path neither on nor off", []string{"serve", "--data", data, "--listen", noServe, "--fast-path", "false"}, `--fast-path "false": want on or off`},
		{"fast path without a value", []string{"serve", "--data", data, "--listen", noServe, "--fast-path"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, tt.args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\nstderr: %s", r.code, r.stderr)
			}
			if tt.wantErr != "" {
				checkOneLineError(t, r.stderr, tt.wantErr)
			}
		})
	}
}

func TestStreamCap(t *testing.T) {
	for in, want := range map[int]int{0: -1, 1: 1, 32: 32, 20000: 20000} {
		if got := streamCap(in); got != want {
			t.Errorf("streamCap(%d) = %d, want %d", in, got, want)
		}
	}
}
