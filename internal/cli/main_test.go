package cli

import (
	"os"
	"testing"
)

// programEnv, set to 1 in the environment of this test binary, makes it run
// the program on its command line instead of the tests, as main.main does:
// the binary stands in for robohornets, so a test can kill or signal a real
// process running a real command.
const programEnv = "ROBOHORNETS_CLI_TEST_PROGRAM"

func TestMain(m *testing.M) {
	if os.Getenv(programEnv) == "1" {
		// Like the static serve-only build: no desktop window, and no
		// embedded frontend, which none of these tests reads.
		os.Exit(Program{Version: testVersion, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}.Run(os.Args[1:]))
	}
	os.Exit(m.Run())
}
