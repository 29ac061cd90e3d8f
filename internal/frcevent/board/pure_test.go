package board

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the import path prefix of this repository's packages.
const module = "github.com/robohornets/robohornets/"

// pureStd are the standard packages a pure package may import: they compute
// and parse, and reach no network, file, process or clock by themselves.
var pureStd = []string{
	"bytes", "cmp", "encoding/json", "errors", "fmt", "maps", "math", "math/rand/v2", "net/url",
	"slices", "sort", "strconv", "strings", "time", "unicode", "unicode/utf8",
}

// pureDeps are this repository's packages the board may import, by import
// path, with their folder from here: each is held to the same rule.
var pureDeps = map[string]string{
	module + "internal/frcevent/frcapi":   "../frcapi",
	module + "internal/frcstats":          "../../frcstats",
	module + "internal/frcstats/forecast": "../../frcstats/forecast",
}

// impure are the functions of pureStd packages that read the clock, wait,
// print or load files: time passes into the board as a value, never read.
var impure = map[string][]string{
	"time": {"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTimer", "NewTicker", "LoadLocation"},
	"fmt":  {"Print", "Printf", "Println", "Scan", "Scanf", "Scanln"},
	// The top-level functions draw from a source seeded at random when the
	// program starts; only a generator made from a seed (rand.New) is pure.
	"math/rand/v2": {"Int", "IntN", "Int32", "Int32N", "Int64", "Int64N", "Uint", "UintN", "Uint32", "Uint32N",
		"Uint64", "Uint64N", "Float32", "Float64", "NormFloat64", "ExpFloat64", "N", "Perm", "Shuffle"},
}

// TestBoardIsPure keeps package board, and the packages it imports from this
// repository, free of I/O, clocks and goroutines: only pureStd imports, no
// call of an impure function, no go statement, channel or builtin print.
// The same answers and time then always give the same board.
func TestBoardIsPure(t *testing.T) {
	dirs := map[string]string{module + "internal/frcevent/board": "."}
	for path, dir := range pureDeps {
		dirs[path] = dir
	}
	for path, dir := range dirs {
		for _, problem := range impurities(t, dir) {
			t.Errorf("%s is not pure: %s", path, problem)
		}
	}
}

// impurities parses the non-test Go files of dir and lists what breaks the rule.
func impurities(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var problems []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		local := map[string]string{} // import name in this file → path
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if _, ok := pureDeps[path]; !ok && !slices.Contains(pureStd, path) {
				problems = append(problems, fset.Position(imp.Pos()).String()+": imports "+path)
			}
			name := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			local[name] = path
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				problems = append(problems, fset.Position(n.Pos()).String()+": starts a goroutine")
			case *ast.ChanType:
				problems = append(problems, fset.Position(n.Pos()).String()+": uses a channel")
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
					problems = append(problems, fset.Position(n.Pos()).String()+": prints")
				}
			case *ast.SelectorExpr:
				if pkg, ok := n.X.(*ast.Ident); ok && slices.Contains(impure[local[pkg.Name]], n.Sel.Name) {
					problems = append(problems, fset.Position(n.Pos()).String()+": uses "+local[pkg.Name]+"."+n.Sel.Name)
				}
			}
			return true
		})
	}
	return problems
}
