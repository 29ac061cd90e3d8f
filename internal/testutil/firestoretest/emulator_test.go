package firestoretest

import (
	"net"
	"strings"
	"testing"
)

// TestSharedEmulator checks which emulator an Emulator takes when the run
// names a shared one: the shared one, unless it is Own, and
// a clear error when the shared one does not answer. No JVM starts: the
// shared "emulator" is a bare listener, and a missing jar stops an
// emulator that tries to start its own.
func TestSharedEmulator(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() }) // teardown
	gone, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	goneHost := gone.Addr().String()
	if err := gone.Close(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FIRESTORE_EMULATOR_JAR", t.TempDir()+"/missing.jar")

	tests := []struct {
		name     string
		shared   string
		emulator *Emulator
		wantHost string // the host Run returns, or "" when it fails
		wantErr  string // in Run's error
	}{
		{name: "the shared one", shared: l.Addr().String(), emulator: &Emulator{}, wantHost: l.Addr().String()},
		{name: "own despite a shared one", shared: l.Addr().String(), emulator: &Emulator{Own: true}, wantErr: "install the Debian package"},
		{name: "no shared one", shared: "", emulator: &Emulator{}, wantErr: "install the Debian package"},
		{name: "a shared one that is gone", shared: goneHost, emulator: &Emulator{}, wantErr: "the shared emulator ROBOHORNETS_FIRESTORE_EMULATOR_HOST=" + goneHost + " does not answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(SharedHostEnv, tt.shared)
			host, err := tt.emulator.Run()
			if tt.wantErr == "" && (err != nil || host != tt.wantHost) {
				t.Fatalf("Run() = %q, %v; want %q", host, err, tt.wantHost)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Run() = %q, %v; want an error with %q", host, err, tt.wantErr)
			}
			tt.emulator.Stop() // leaves the shared one alone, and stops nothing that did not start
		})
	}
}

// TestKillSharedPanics checks that a test cannot kill the run's shared
// emulator, which the other packages of the run are using.
func TestKillSharedPanics(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() }) // teardown
	t.Setenv(SharedHostEnv, l.Addr().String())
	var e Emulator
	e.Start(t)
	defer func() {
		if recover() == nil {
			t.Error("Kill on the shared emulator did not panic")
		}
	}()
	e.Kill()
}
