package doclinks

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// moduleRoot is the repository's root, from this package's directory.
const moduleRoot = "../.."

// TestDocLinksResolve checks every doc link of the module's doc comments.
// Files of every build tag are read, test files too; a link is resolved
// against the names of its package (all its files) or of the package it
// names, which is the package's own, one it imports, a package of this
// module or of the standard library, or a full import path.
func TestDocLinksResolve(t *testing.T) {
	mod, err := readModule(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	var broken []string
	for _, pkg := range mod.pkgs {
		broken = append(broken, mod.check(pkg)...)
	}
	for _, b := range broken {
		t.Error(b)
	}
	if len(broken) > 0 {
		t.Logf("%d broken doc links: rename them, or write the name as text (no brackets)", len(broken))
	}
}

// TestFindsBrokenLinks checks the checker itself on a package written for
// it: the links that resolve pass and the broken ones are reported.
func TestFindsBrokenLinks(t *testing.T) {
	dir := t.TempDir()
	src := `// Package sample links to [Thing], [Thing.Do], [Thing.Size], [Other],
// [Thing.Gone], [json.Marshal], [json.Marshall], [encoding/json.Valid],
// [strings.Builder.Len], [time.Duration], [*Thing] and [other.Thing];
// [not a link], [lowercase] and [other] are text.
package sample

import "encoding/json"

// Thing is a thing; [Missing] is not.
type Thing struct {
	// Size is [Thing.Size]; [Thing.Sise] is not.
	Size int
}

// Do does; see [fmt.Println] and [fmt.Printline].
func (*Thing) Do() { _ = json.Valid }
`
	if err := os.WriteFile(filepath.Join(dir, "sample.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/sample\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other", "other.go"), []byte("// Package other is imported by nobody.\npackage other\n\n// Thing is [Thing].\ntype Thing int\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mod, err := readModule(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pkg := range mod.pkgs {
		got = append(got, mod.check(pkg)...)
	}
	want := []string{
		"sample.go:1: [Other]: no Other in example.com/sample",
		"sample.go:2: [Thing.Gone]: no Thing.Gone in example.com/sample",
		"sample.go:2: [json.Marshall]: no Marshall in encoding/json",
		"sample.go:3: [other.Thing]: the package other is not imported here: import it or write its full path",
		"sample.go:9: [Missing]: no Missing in example.com/sample",
		"sample.go:11: [Thing.Sise]: no Thing.Sise in example.com/sample",
		"sample.go:15: [fmt.Printline]: no Printline in fmt",
	}
	if !slices.Equal(got, want) {
		t.Errorf("broken links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// module is the Go packages of one module, read from its files.
type module struct {
	root, path string
	pkgs       []*pkg
	byPath     map[string]*pkg // the module's own packages
	names      map[string]bool // the names of the module's own packages
	other      map[string]*pkg // packages outside the module, read on first use
}

// pkg is one package: its files and the names a doc link may give.
type pkg struct {
	path, name string
	fset       *token.FileSet
	files      []*ast.File
	syms       map[string]bool // Name and Type.Member
	imports    map[string]string
}

// readModule reads every package of the module at root, with its test
// files, skipping the frontend (npm's own Go files live there) and
// testdata.
func readModule(root string) (*module, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	modulePath, ok := modulePath(string(data))
	if !ok {
		return nil, fmt.Errorf("%s: no module line", filepath.Join(root, "go.mod"))
	}
	m := &module{root: root, path: modulePath, byPath: map[string]*pkg{}, names: map[string]bool{}, other: map[string]*pkg{}}
	err = filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if dir != root && (d.Name() == "frontend" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return err
		}
		importPath := path.Join(m.path, filepath.ToSlash(rel))
		pkgs, err := readDir(dir, importPath, true)
		if err != nil {
			return err
		}
		for _, p := range pkgs {
			m.pkgs = append(m.pkgs, p)
			if !strings.HasSuffix(p.name, "_test") {
				m.byPath[p.path] = p
				m.names[p.name] = true
			}
		}
		return nil
	})
	return m, err
}

// modulePath returns the path on go.mod's module line.
func modulePath(gomod string) (string, bool) {
	for line := range strings.Lines(gomod) {
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), true
		}
	}
	return "", false
}

// readDir reads the Go files of dir, every build tag's, as the package
// importPath and, with tests, its external test package.
func readDir(dir, importPath string, tests bool) ([]*pkg, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	byName := map[string]*pkg{}
	var order []*pkg
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || (!tests && strings.HasSuffix(name, "_test.go")) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p := byName[f.Name.Name]
		if p == nil {
			p = &pkg{path: importPath, name: f.Name.Name, fset: fset, syms: map[string]bool{}, imports: map[string]string{}}
			if strings.HasSuffix(p.name, "_test") {
				p.path += "_test"
			}
			byName[p.name] = p
			order = append(order, p)
		}
		p.files = append(p.files, f)
		p.addSyms(f)
	}
	return order, nil
}

// addSyms adds f's top-level names, methods, fields and interface methods
// to p's names, and its imports to p's.
func (p *pkg) addSyms(f *ast.File) {
	for _, imp := range f.Imports {
		importPath, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := importName(importPath)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		p.imports[name] = importPath
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				p.syms[d.Name.Name] = true
				continue
			}
			p.syms[recvName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						p.syms[n.Name] = true
					}
				case *ast.TypeSpec:
					p.syms[s.Name.Name] = true
					var fields *ast.FieldList
					switch ty := s.Type.(type) {
					case *ast.StructType:
						fields = ty.Fields
					case *ast.InterfaceType:
						fields = ty.Methods
					}
					if fields == nil {
						continue
					}
					for _, field := range fields.List {
						for _, n := range field.Names {
							p.syms[s.Name.Name+"."+n.Name] = true
						}
						if len(field.Names) == 0 { // embedded: its name is the field's
							p.syms[s.Name.Name+"."+recvName(field.Type)] = true
						}
					}
				}
			}
		}
	}
}

// recvName returns the type's name in a receiver or an embedded field:
// T of T, *T, T[K], pkg.T.
func recvName(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.SelectorExpr:
			return e.Sel.Name
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// importName is the name a package is imported as when the import does not
// name it: the last element of its path that is not a major version.
func importName(importPath string) string {
	elems := strings.Split(importPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	return strings.TrimSuffix(strings.TrimPrefix(name, "go-"), ".go")
}

// notImported marks, as a doc link's import path, a package of the module
// that the link's file does not import: go doc shows such a link as text.
const notImported = "not imported: "

// check returns p's broken doc links, each as "file:line: [link]: why".
func (m *module) check(p *pkg) []string {
	var broken []string
	parser := &comment.Parser{
		LookupPackage: func(name string) (string, bool) {
			if name == p.name {
				return "", true
			}
			if importPath, ok := p.imports[name]; ok {
				return importPath, true
			}
			if m.names[name] {
				return notImported + name, true // reported when the link names something in it
			}
			return "", false // not a package: [words like these] are text
		},
		LookupSym: func(string, string) bool { return true }, // every candidate, checked below
	}
	for _, f := range p.files {
		for _, group := range docComments(f) {
			doc := parser.Parse(group.Text())
			for _, link := range docLinks(doc) {
				if why := m.resolve(p, link); why != "" {
					pos := p.fset.Position(linkPos(group, link))
					broken = append(broken, fmt.Sprintf("%s:%d: [%s]: %s", m.rel(pos.Filename), pos.Line, linkText(link), why))
				}
			}
		}
	}
	return broken
}

// resolve returns why link names nothing, or "" when it names something.
func (m *module) resolve(p *pkg, link *comment.DocLink) string {
	name := link.Name
	if link.Recv != "" {
		name = link.Recv + "." + link.Name
	}
	target := p
	switch {
	case strings.HasPrefix(link.ImportPath, notImported):
		if name == "" {
			return "" // [clock] alone is a word more often than a link
		}
		return "the package " + strings.TrimPrefix(link.ImportPath, notImported) + " is not imported here: import it or write its full path"
	case link.ImportPath == "" || link.ImportPath == p.path:
	default:
		var err error
		if target, err = m.lookup(link.ImportPath); err != nil {
			return err.Error()
		}
	}
	if name == "" { // [pkg]: the package itself
		return ""
	}
	if !target.syms[name] {
		return "no " + name + " in " + target.path
	}
	return ""
}

// lookup returns the package importPath: one of the module's, or one read
// from the directory go list gives (the standard library, a dependency).
func (m *module) lookup(importPath string) (*pkg, error) {
	if p, ok := m.byPath[importPath]; ok {
		return p, nil
	}
	if p, ok := m.other[importPath]; ok {
		return p, nil
	}
	cmd := exec.Command("go", "list", "-find", "-f", "{{.Dir}}", importPath)
	cmd.Dir = m.root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("no package %s (go list: %v)", importPath, err)
	}
	pkgs, err := readDir(strings.TrimSpace(string(out)), importPath, false)
	if err != nil || len(pkgs) == 0 {
		return nil, fmt.Errorf("no Go files for %s (%v)", importPath, err)
	}
	m.other[importPath] = pkgs[0]
	return pkgs[0], nil
}

// rel returns file relative to the module's root.
func (m *module) rel(file string) string {
	if r, err := filepath.Rel(m.root, file); err == nil {
		return filepath.ToSlash(r)
	}
	return file
}

// docComments returns f's doc comments: the package's, and those of its
// declarations, specs, fields and interface methods.
func docComments(f *ast.File) []*ast.CommentGroup {
	var groups []*ast.CommentGroup
	add := func(g *ast.CommentGroup) {
		if g != nil {
			groups = append(groups, g)
		}
	}
	add(f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			add(n.Doc)
		case *ast.FuncDecl:
			add(n.Doc)
		case *ast.TypeSpec:
			add(n.Doc)
		case *ast.ValueSpec:
			add(n.Doc)
		case *ast.Field:
			add(n.Doc)
		}
		return true
	})
	return groups
}

// docLinks returns the doc links of a parsed comment.
func docLinks(doc *comment.Doc) []*comment.DocLink {
	var links []*comment.DocLink
	var walk func([]comment.Text)
	walk = func(texts []comment.Text) {
		for _, t := range texts {
			switch t := t.(type) {
			case *comment.DocLink:
				links = append(links, t)
			case *comment.Link:
				walk(t.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	for _, block := range doc.Content {
		switch b := block.(type) {
		case *comment.Paragraph:
			walk(b.Text)
		case *comment.Heading:
			walk(b.Text)
		case *comment.List:
			for _, item := range b.Items {
				for _, c := range item.Content {
					if para, ok := c.(*comment.Paragraph); ok {
						walk(para.Text)
					}
				}
			}
		}
	}
	return links
}

// linkPos returns where link is written in group: the line that holds it,
// or the group's first when the link is broken across lines.
func linkPos(group *ast.CommentGroup, link *comment.DocLink) token.Pos {
	for _, c := range group.List {
		if strings.Contains(strings.ReplaceAll(c.Text, "[*", "["), "["+linkText(link)+"]") {
			return c.Pos()
		}
	}
	return group.Pos()
}

// linkText is a doc link as it was written, without its brackets.
func linkText(link *comment.DocLink) string {
	var b strings.Builder
	for _, t := range link.Text {
		if plain, ok := t.(comment.Plain); ok {
			b.WriteString(string(plain))
		}
	}
	return strings.TrimPrefix(b.String(), "*")
}
