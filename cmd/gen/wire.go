// The wire types: wire.gen.ts holds the TypeScript types of what crosses the
// wire (the JSON of /api/news, /api/event and their streams, the console's
// API) and the Wails bridge (the window's settings, the page's reports),
// written from the Go types that encode it, with their doc comments, so that
// the page and the server cannot drift.
//
// A Go field becomes a TypeScript property named by its json tag: strings,
// numbers and booleans as such, time.Time as an RFC 3339 string (the zero
// time, "0001-01-01T00:00:00Z", means none), a pointer or a slice as
// "T | null" (nil encodes as null), an embedded struct as its fields.
//
// A string type with constants (type Phase string; const PhaseX Phase =
// "x") becomes the union of their values, each with its doc comment. A
// struct with a field tagged wire:"tag" becomes a discriminated union: one
// variant per value of that field's type, each with the fields tagged with
// that value (wire:"a b" for a field of two variants) and the untagged ones.

package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/robohornets/robohornets/internal/console"
	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/photo"
)

// wireType is one Go type that crosses the wire, and its TypeScript name.
type wireType struct {
	dir, goName, tsName string
}

// wireTypes are the types generated, in the order written. A type named in
// a field must be among them.
var wireTypes = []wireType{
	{"internal/news", "Rendered", "Article"},
	{"internal/news", "Snapshot", "NewsSnapshot"},
	{"internal/frcevent/board", "Status", "EventStatus"},
	{"internal/frcevent/board", "Phase", "Phase"},
	{"internal/frcevent/board", "Match", "Match"},
	{"internal/frcevent/board", "Colour", "Colour"},
	{"internal/frcevent/board", "Result", "Result"},
	{"internal/frcevent/board", "MatchTimes", "MatchTimes"},
	{"internal/frcevent/board", "When", "When"},
	{"internal/frcevent/board", "TimeKind", "TimeKind"},
	{"internal/frcevent/board", "Turnaround", "Turnaround"},
	{"internal/frcevent/board", "Rank", "Rank"},
	// Not Record, which would hide TypeScript's Record<K, V>.
	{"internal/frcevent/board", "Record", "WinLossRecord"},
	{"internal/frcevent/board", "Announcement", "Announcement"},
	{"internal/frcevent/board", "PartsRequest", "PartsRequest"},
	{"internal/frcevent/board", "Webcast", "Webcast"},
	{"internal/frcevent/board", "Source", "Source"},
	{"internal/frcevent/board", "SourceState", "SourceState"},
	{"internal/frcevent/board", "Criterion", "Criterion"},
	{"internal/frcevent/board", "Playoffs", "Playoffs"},
	{"internal/frcevent/board", "AllianceState", "AllianceState"},
	{"internal/frcevent/board", "Outcome", "Outcome"},
	{"internal/frcevent/board", "Alliance", "Alliance"},
	{"internal/frcevent/board", "OurAlliance", "OurAlliance"},
	{"internal/frcevent/board", "BracketMatch", "BracketMatch"},
	{"internal/frcevent/board", "BracketSide", "BracketSide"},
	{"internal/frcevent/board", "BracketSource", "BracketSource"},
	{"internal/frcevent/board", "PlayoffNext", "PlayoffNext"},
	{"internal/frcevent/board", "Route", "Route"},
	{"internal/frcevent/board", "Series", "Series"},
	{"internal/frcevent/board", "TeamCard", "TeamCard"},
	{"internal/frcevent/board", "Prediction", "Prediction"},
	{"internal/frcevent/board", "RankForecast", "RankForecast"},
	{"internal/frcevent/board", "SeasonEvent", "SeasonEvent"},
	{"internal/frcevent/board", "SeasonPlayoff", "SeasonPlayoff"},
	{"internal/frcevent/board", "SeasonPlayoffKind", "SeasonPlayoffKind"},
	{"internal/frcevent/board", "PlayoffLevel", "PlayoffLevel"},
	{"internal/desktop", "PageSettings", "WindowSettings"},
	{"internal/desktop", "PageState", "PageState"},
	{"internal/desktop", "Violation", "Violation"},
	{"internal/notice", "Notice", "Notice"},
	{"internal/console", "Member", "Member"},
	{"internal/console", "Passkey", "Passkey"},
	{"internal/console", "Me", "Me"},
	{"internal/console", "Ceremony", "Ceremony"},
	{"internal/console", "Invitation", "Invitation"},
	{"internal/console", "OpenInvitation", "OpenInvitation"},
	{"internal/console", "RoleChange", "RoleChange"},
	{"internal/console", "Refusal", "Refusal"},
	{"internal/console", "PostFields", "PostFields"},
	{"internal/console", "Post", "Post"},
	{"internal/console", "Save", "Save"},
	{"internal/console", "Conflict", "Conflict"},
	{"internal/console", "Revision", "Revision"},
	{"internal/console", "Preview", "Preview"},
	{"internal/console", "Photo", "Photo"},
	{"internal/console", "AuditEntry", "AuditEntry"},
}

// wireConsts are the values that wire fields take, by their Go names.
var wireConsts = []struct {
	name, doc string
	value     any
}{
	{"StepNone", "Match.step: not queuing yet, or Nexus does not say.", board.StepNone},
	{"StepQueuing", "Match.step: Nexus says \"Now queuing\".", board.StepQueuing},
	{"StepOnDeck", "Match.step: Nexus says \"On deck\".", board.StepOnDeck},
	{"StepOnField", "Match.step: Nexus says \"On field\".", board.StepOnField},
	{"PlayoffDoubleElim8", "Playoffs.type: double elimination of 8 alliances.", board.PlayoffDoubleElim8},
	{"PlayoffDoubleElim4", "Playoffs.type: double elimination of 4 alliances.", board.PlayoffDoubleElim4},
	{"RoleEditor", "Member.role: writes news and pit notices.", console.RoleEditor},
	{"RoleAdmin", "Member.role: also invites and revokes members and reads the audit log.", console.RoleAdmin},
	{"CodeVerify", "Refusal.code: the action needs the passkey again (POST /admin/api/verify/begin and finish), then the same request.", console.CodeVerify},
	{"StatusDraft", "Post.status: the site does not show it.", console.StatusDraft},
	{"StatusScheduled", "Post.status: the site shows it from its date, still to come.", console.StatusScheduled},
	{"StatusPublished", "Post.status: the site shows it.", console.StatusPublished},
	{"MaxPhotoBytes", "The largest photo upload the console takes, in bytes.", photo.MaxInputBytes},
}

// parsed is a package's struct and string types by name, with their doc
// comments, and the constants of each string type in source order.
type parsed struct {
	types  map[string]*ast.TypeSpec
	consts map[string][]enumConst
}

// enumConst is one constant of a string type: its Go name, its value and
// its doc comment.
type enumConst struct {
	name, value, doc string
}

// wireTypeScript returns the source of wire.gen.ts, from the Go packages
// under root (the repository's root).
func wireTypeScript(root string) (string, error) {
	pkgs := map[string]parsed{}
	names := map[string]string{} // "dir.GoName" → TypeScript name
	for _, w := range wireTypes {
		names[w.dir+"."+w.goName] = w.tsName
		if _, ok := pkgs[w.dir]; !ok {
			p, err := parseDir(filepath.Join(root, w.dir))
			if err != nil {
				return "", err
			}
			pkgs[w.dir] = p
		}
	}
	var b strings.Builder
	b.WriteString("// The JSON the server and the window send the page, from the Go types that encode it.\n")
	b.WriteString("\n")
	for _, c := range wireConsts {
		value := fmt.Sprint(c.value)
		if v, ok := c.value.(string); ok {
			value = strconv.Quote(v)
		}
		fmt.Fprintf(&b, "/** %s */\nexport const %s = %s;\n", c.doc, c.name, value)
	}
	for _, w := range wireTypes {
		pkg := pkgs[w.dir]
		spec, ok := pkg.types[w.goName]
		if !ok {
			return "", fmt.Errorf("%s: no struct or string type %s", w.dir, w.goName)
		}
		b.WriteString("\n")
		writeDoc(&b, "", docText(spec), w.goName, w.tsName)
		var err error
		switch st, _ := spec.Type.(*ast.StructType); {
		case st == nil:
			err = writeEnum(&b, pkg.consts[w.goName], w.tsName)
		case tagField(st) != nil:
			err = writeUnion(&b, pkg, w.dir, st, w.tsName, names)
		default:
			fmt.Fprintf(&b, "export interface %s {\n", w.tsName)
			err = writeFields(&b, pkg, w.dir, st, names, "")
			b.WriteString("}\n")
		}
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", w.dir, w.goName, err)
		}
	}
	return b.String(), nil
}

// writeEnum writes a string type as the union of its constants' values.
func writeEnum(b *strings.Builder, consts []enumConst, tsName string) error {
	if len(consts) == 0 {
		return fmt.Errorf("no constants")
	}
	fmt.Fprintf(b, "export type %s =\n", tsName)
	for i, c := range consts {
		writeDoc(b, "  ", c.doc, "", "")
		end := ""
		if i == len(consts)-1 {
			end = ";"
		}
		fmt.Fprintf(b, "  | %s%s\n", strconv.Quote(c.value), end)
	}
	return nil
}

// tagField is the field of st tagged wire:"tag", or nil.
func tagField(st *ast.StructType) *ast.Field {
	for _, f := range st.Fields.List {
		if wireTag(f) == "tag" {
			return f
		}
	}
	return nil
}

// wireTag is the wire tag of a field: "tag", the values of its tag field
// it belongs to, or "".
func wireTag(f *ast.Field) string {
	if f.Tag == nil {
		return ""
	}
	return reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Get("wire")
}

// writeUnion writes a struct with a tag field as a discriminated union: a
// variant per constant of the tag field's type.
func writeUnion(b *strings.Builder, pkg parsed, dir string, st *ast.StructType, tsName string, names map[string]string) error {
	tag := tagField(st)
	kind, ok := tag.Type.(*ast.Ident)
	if !ok || len(pkg.consts[kind.Name]) == 0 || len(tag.Names) != 1 {
		return fmt.Errorf("tag field %s: want one field of a string type with constants", exprString(tag.Type))
	}
	consts := pkg.consts[kind.Name]
	for _, f := range st.Fields.List {
		for _, v := range strings.Fields(wireTag(f)) {
			if v != "tag" && !slices.ContainsFunc(consts, func(c enumConst) bool { return c.value == v }) {
				return fmt.Errorf("wire tag %q is no value of %s", v, kind.Name)
			}
		}
	}
	fmt.Fprintf(b, "export type %s =\n", tsName)
	for i, c := range consts {
		writeDoc(b, "  ", c.doc, "", "")
		fmt.Fprintf(b, "  | {\n")
		if err := writeFields(b, pkg, dir, st, names, c.value); err != nil {
			return err
		}
		end := ""
		if i == len(consts)-1 {
			end = ";"
		}
		fmt.Fprintf(b, "    }%s\n", end)
	}
	return nil
}

// parseDir reads the struct types of the Go package in dir, tests left out.
func parseDir(dir string) (parsed, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return parsed{}, err
	}
	p := parsed{types: map[string]*ast.TypeSpec{}, consts: map[string][]enumConst{}}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return parsed{}, err
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			switch gen.Tok {
			case token.TYPE:
				for _, s := range gen.Specs {
					ts := s.(*ast.TypeSpec)
					_, isStruct := ts.Type.(*ast.StructType)
					if id, ok := ts.Type.(*ast.Ident); !isStruct && (!ok || id.Name != "string") {
						continue
					}
					if ts.Doc == nil && len(gen.Specs) == 1 {
						ts.Doc = gen.Doc
					}
					p.types[ts.Name.Name] = ts
				}
			case token.CONST:
				for _, s := range gen.Specs {
					addConsts(p, s.(*ast.ValueSpec))
				}
			}
		}
	}
	return p, nil
}

// addConsts adds the constants of vs that have a named type and a string
// literal for a value to p.
func addConsts(p parsed, vs *ast.ValueSpec) {
	typ, ok := vs.Type.(*ast.Ident)
	if !ok {
		return
	}
	for i, n := range vs.Names {
		if i >= len(vs.Values) {
			return
		}
		lit, ok := vs.Values[i].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		value, err := strconv.Unquote(lit.Value)
		if err != nil {
			continue
		}
		doc := ""
		if vs.Doc != nil {
			doc = vs.Doc.Text()
		}
		p.consts[typ.Name] = append(p.consts[typ.Name], enumConst{name: n.Name, value: value, doc: doc})
	}
}

// writeFields writes the properties of st; embedded structs of the same
// package give their fields. With a variant (a value of st's tag field),
// it writes that variant's: the tag field as the value, the fields tagged
// with it, and the untagged ones.
func writeFields(b *strings.Builder, pkg parsed, dir string, st *ast.StructType, names map[string]string, variant string) error {
	indent := "  "
	if variant != "" {
		indent = "      "
	}
	for _, f := range st.Fields.List {
		tag := ""
		if f.Tag != nil {
			tag = reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Get("json")
		}
		if len(f.Names) == 0 { // embedded
			var embedded *ast.StructType
			if id, ok := f.Type.(*ast.Ident); ok && pkg.types[id.Name] != nil {
				embedded, _ = pkg.types[id.Name].Type.(*ast.StructType)
			}
			if embedded == nil || variant != "" {
				return fmt.Errorf("embedded %s: only a struct of the same package, outside unions, is supported", exprString(f.Type))
			}
			if err := writeFields(b, pkg, dir, embedded, names, ""); err != nil {
				return err
			}
			continue
		}
		in := strings.Fields(wireTag(f))
		if variant != "" && len(in) > 0 && !slices.Contains(in, "tag") && !slices.Contains(in, variant) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		for _, n := range f.Names {
			if !n.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				return fmt.Errorf("field %s has no json name", n.Name)
			}
			if variant != "" && slices.Contains(in, "tag") {
				fmt.Fprintf(b, "%s%s: %s;\n", indent, name, strconv.Quote(variant))
				continue
			}
			ts, err := tsType(f.Type, dir, names)
			if err != nil {
				return fmt.Errorf("field %s: %w", n.Name, err)
			}
			if f.Doc != nil && n == f.Names[0] {
				writeDoc(b, indent, f.Doc.Text(), "", "")
			}
			optional := ""
			if len(in) == 0 && (strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")) {
				optional = "?"
			}
			fmt.Fprintf(b, "%s%s%s: %s;\n", indent, name, optional, ts)
		}
	}
	return nil
}

// tsType is the TypeScript type of the JSON of a Go type written in dir.
func tsType(e ast.Expr, dir string, names map[string]string) (string, error) {
	switch t := e.(type) {
	case *ast.Ident:
		switch t.Name {
		case "string":
			return "string", nil
		case "bool":
			return "boolean", nil
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
			return "number", nil
		}
		if ts, ok := names[dir+"."+t.Name]; ok {
			return ts, nil
		}
		return "", fmt.Errorf("type %s is not among wireTypes", t.Name)
	case *ast.SelectorExpr:
		switch exprString(t) {
		case "time.Time":
			return "string", nil
		case "json.RawMessage":
			return "unknown", nil // JSON passed through as is
		}
	case *ast.StarExpr:
		inner, err := tsType(t.X, dir, names)
		return inner + " | null", err
	case *ast.ArrayType:
		if t.Len == nil {
			inner, err := tsType(t.Elt, dir, names)
			if strings.Contains(inner, "|") {
				inner = "(" + inner + ")"
			}
			return inner + "[] | null", err
		}
	case *ast.MapType:
		k, err := tsType(t.Key, dir, names)
		if err != nil {
			return "", err
		}
		v, err := tsType(t.Value, dir, names)
		return "Record<" + k + ", " + v + "> | null", err
	}
	return "", fmt.Errorf("type %s has no TypeScript form here", exprString(e))
}

// exprString writes a type expression as Go source.
func exprString(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return exprString(t.X) + "." + t.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(t.X)
	}
	return fmt.Sprintf("%T", e)
}

// docText is a type's doc comment.
func docText(spec *ast.TypeSpec) string {
	if spec.Doc == nil {
		return ""
	}
	return spec.Doc.Text()
}

// writeDoc writes a Go doc comment as a JSDoc block. A type's comment
// starts with its Go name, which becomes the TypeScript one.
func writeDoc(b *strings.Builder, indent, text, goName, tsName string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if goName != "" && strings.HasPrefix(text, goName+" ") {
		text = tsName + text[len(goName):]
	}
	var p doc.Package
	lines := strings.Split(strings.TrimSpace(string(p.Text(text))), "\n")
	if len(lines) == 1 {
		fmt.Fprintf(b, "%s/** %s */\n", indent, strings.ReplaceAll(lines[0], "*/", "*\\/"))
		return
	}
	fmt.Fprintf(b, "%s/**\n", indent)
	for _, l := range lines {
		fmt.Fprintf(b, "%s * %s\n", indent, strings.ReplaceAll(l, "*/", "*\\/"))
	}
	fmt.Fprintf(b, "%s */\n", indent)
}
