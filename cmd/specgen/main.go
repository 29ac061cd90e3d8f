// Command specgen writes the TypeScript mirror of package spec's constants.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/robohornets/robohornets/internal/spec"
)

func main() {
	out := flag.String("o", "", "output file (default: standard output)")
	flag.Parse()
	src := spec.TypeScript()
	if *out == "" {
		fmt.Print(src)
		return
	}
	if err := os.WriteFile(*out, []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}
}
