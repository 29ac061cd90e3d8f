package news

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzValidateID: an id that passes is one the local store can name a file
// after or refuses with an error, and never a path out of its directory.
func FuzzValidateID(f *testing.F) {
	for _, s := range []string{"robot-wins", "..", "a/b", "__x__", "a\x00b", strings.Repeat("x", 300), "🤖", "."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if ValidateID(id) != nil {
			return
		}
		name, err := FileName(id)
		if err != nil {
			return
		}
		if strings.ContainsAny(name, "/\\\x00") || name == ".md" || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") {
			t.Fatalf("FileName(%q) = %q, not a plain file name", id, name)
		}
	})
}

// FuzzParseFile: any file either parses into a valid article that formats
// back to the same article, or is refused with an error; never a panic.
func FuzzParseFile(f *testing.F) {
	f.Add("---\ntitle: \"Hi\"\ndate: 2026-01-02T03:04:05Z\n---\nBody.\n")
	f.Add("---\ntitle: Hi\n---\n")
	f.Add("---\r\ntitle: \"\\u0000\"\r\ndate: 2026-01-02\r\n---\r\n")
	f.Add("no front matter")
	f.Fuzz(func(t *testing.T, data string) {
		a, err := ParseFile("fuzz", []byte(data))
		if err != nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("ParseFile accepted an invalid article %+v: %v", a, err)
		}
		b, err := ParseFile("fuzz", FormatFile(a))
		if err != nil {
			t.Fatalf("FormatFile of a parsed article does not parse: %v\n%s", err, FormatFile(a))
		}
		if b.Title != a.Title || !b.Date.Equal(a.Date) || b.Content != a.Content {
			t.Fatalf("round trip changed the article:\n%+v\n%+v", a, b)
		}
	})
}

// FuzzRender: whatever the markdown, the HTML has no live markup, no event
// handler attributes and no link or image of a scheme outside the allowed
// (checkSafeHTML).
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"# t\n\n**b** [x](https://a.example)", "<script>alert(1)</script>", "[x](javascript:alert(1))",
		"[x](&#106;avascript:1)", "<img src=x onerror=alert(1)>", "![a](ms-appx:x)", "<ms-msdt:x>",
		"| a |\n|:-:|\n| <b> |", "- [ ] <svg onload=x>", "[r]: vbscript:x\n\n[r]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			return
		}
		for _, render := range []func(string) (string, error){Render, Preview} {
			html, err := render(src)
			if err != nil {
				return
			}
			if err := checkSafeHTML(html); err != nil {
				t.Fatalf("%v in %q", err, html)
			}
		}
	})
}
