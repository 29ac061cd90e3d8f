// Package cmdmain is the main function of the tools under cmd/ that run
// until they are done or interrupted.
package cmdmain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Run calls run with the command line's arguments, standard output and
// error, and a context that ends at SIGINT or SIGTERM. It returns the exit
// code: 0 when run returns nil or one of the errors in quiet (flag.ErrHelp,
// say), else 1 after printing "name: error" to standard error.
func Run(name string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error, quiet ...error) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err == nil {
		return 0
	}
	for _, q := range quiet {
		if errors.Is(err, q) {
			return 0
		}
	}
	fmt.Fprintln(os.Stderr, name+":", err)
	return 1
}
