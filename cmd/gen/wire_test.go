package main

import (
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unionSource is a package with a string type and a tagged struct.
const unionSource = `package p

// Kind says which.
type Kind string

const (
	// KindA: the first.
	KindA Kind = "a"
	// KindB: the second.
	KindB Kind = "b"
)

// Shape is one of two.
type Shape struct {
	Kind  Kind   ` + "`json:\"kind\" wire:\"tag\"`" + `
	N     int    ` + "`json:\"n,omitempty\" wire:\"a\"`" + `
	Name  string ` + "`json:\"name\"`" + `
}
`

// parseSource parses src as the only file of a package.
func parseSource(t *testing.T, src string) parsed {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := parseDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEnumsAndUnions(t *testing.T) {
	p := parseSource(t, unionSource)
	var b strings.Builder
	if err := writeEnum(&b, p.consts["Kind"], "Kind"); err != nil {
		t.Fatal(err)
	}
	if err := writeUnion(&b, p, "p", p.types["Shape"].Type.(*ast.StructType), "Shape", nil); err != nil {
		t.Fatal(err)
	}
	want := `export type Kind =
  /** KindA: the first. */
  | "a"
  /** KindB: the second. */
  | "b";
export type Shape =
  /** KindA: the first. */
  | {
      kind: "a";
      n: number;
      name: string;
    }
  /** KindB: the second. */
  | {
      kind: "b";
      name: string;
    };
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestUnionTagOfNoValue(t *testing.T) {
	p := parseSource(t, strings.Replace(unionSource, `wire:"a"`, `wire:"c"`, 1))
	var b strings.Builder
	err := writeUnion(&b, p, "p", p.types["Shape"].Type.(*ast.StructType), "Shape", nil)
	if err == nil || !strings.Contains(err.Error(), `"c" is no value of Kind`) {
		t.Errorf("err = %v, want the unknown variant named", err)
	}
}
