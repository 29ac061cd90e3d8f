package console

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// TestCollectionsListsEveryCollection holds Collections to the coll
// constants of console.go, read from its source, so that a collection
// added there without a line in Collections fails here, not in
// production with the security rules' test blind to it.
func TestCollectionsListsEveryCollection(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "console.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts, listed []string
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gen.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for i, name := range vs.Names {
				switch {
				case gen.Tok == token.CONST && strings.HasPrefix(name.Name, "coll"):
					consts = append(consts, name.Name)
				case gen.Tok == token.VAR && name.Name == "Collections":
					lit, ok := vs.Values[i].(*ast.CompositeLit)
					if !ok {
						t.Fatalf("Collections is %T, want a composite literal", vs.Values[i])
					}
					for _, elt := range lit.Elts {
						id, ok := elt.(*ast.Ident)
						if !ok {
							t.Fatalf("Collections holds %T, want only coll constants", elt)
						}
						listed = append(listed, id.Name)
					}
				}
			}
		}
	}
	if len(consts) == 0 {
		t.Fatal("console.go declares no coll constants: this test reads the wrong file")
	}
	for _, c := range consts {
		if !slices.Contains(listed, c) {
			t.Errorf("%s is not in Collections", c)
		}
	}
	slices.Sort(listed)
	if len(slices.Compact(listed)) != len(Collections) {
		t.Errorf("Collections %v lists a collection twice", Collections)
	}
}
