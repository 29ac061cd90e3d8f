// Command withemulator starts one Firestore emulator, runs a command with
// ROBOHORNETS_FIRESTORE_EMULATOR_HOST naming it, and stops the emulator
// once the command has ended. Under it, the Go packages of one `go test`
// run share that emulator instead of booting a JVM each (make test-go):
//
//	go run ./cmd/withemulator go test -tags emulator ./...
//
// Each test works in a project of its own, with its own security rules if
// it has any, so packages that share the emulator do not see each other's
// data; a package whose tests kill the emulator still starts its own
// (firestoretest.Emulator's Own).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/robohornets/robohornets/cmd/internal/cmdmain"
	"github.com/robohornets/robohornets/internal/testutil/firestoretest"
)

// interruptGrace is how long the command has to end after an interrupt is
// passed on to it, before it is killed.
const interruptGrace = 30 * time.Second

func main() { os.Exit(cmdmain.Run("withemulator", run)) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: withemulator COMMAND [ARG...]: runs COMMAND with " + firestoretest.SharedHostEnv + " naming a Firestore emulator")
	}
	var emulator firestoretest.Emulator
	host, err := emulator.Run()
	if err != nil {
		return fmt.Errorf("firestore emulator: %w", err)
	}
	defer emulator.Stop()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.Env = append(os.Environ(), firestoretest.SharedHostEnv+"="+host)
	// Interrupted, the command gets the interrupt too, so that go test
	// prints what it has and ends; the emulator is stopped after it.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = interruptGrace
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	return nil
}
