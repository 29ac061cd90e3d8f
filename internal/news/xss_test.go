package news

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// xssPayload is one entry of testdata/xss/corpus.json, which the browser
// test (frontend/e2e/xss.test.mjs) reads too.
type xssPayload struct {
	Name     string `json:"name"`
	Category string `json:"category"`
	// Markdown is stored as an article's content.
	Markdown string `json:"markdown"`
	// Title, when set, is stored as the article's title.
	Title string `json:"title"`
	// Text must show as plain text outside any link: the words of a link
	// or image whose scheme is forbidden.
	Text []string `json:"text"`
}

func loadXSSCorpus(t *testing.T) []xssPayload {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "xss", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Payloads []xssPayload `json:"payloads"`
	}
	if err := json.Unmarshal(data, &corpus); err != nil {
		t.Fatalf("testdata/xss/corpus.json: %v", err)
	}
	return corpus.Payloads
}

// TestXSSCorpusCoverage keeps the corpus from shrinking below what is
// required: 30 payloads or more, with names unique (they become article
// ids), covering every kind of vector.
func TestXSSCorpusCoverage(t *testing.T) {
	corpus := loadXSSCorpus(t)
	if len(corpus) < 30 {
		t.Errorf("the corpus has %d payloads, want at least 30", len(corpus))
	}
	seen := map[string]bool{}
	categories := map[string]bool{}
	titles := 0
	for _, p := range corpus {
		if p.Name == "" || p.Markdown == "" || seen[p.Name] {
			t.Errorf("payload %q: a name must be unique and a payload non-empty", p.Name)
		}
		seen[p.Name] = true
		categories[p.Category] = true
		if p.Title != "" {
			titles++
		}
	}
	for _, c := range []string{"script", "event-handler", "javascript-link", "vbscript-link", "data-link", "other-scheme",
		"image", "reference", "autolink", "svg", "frame-object", "math-style", "form-meta", "entity", "raw-anchor", "table", "list"} {
		if !categories[c] {
			t.Errorf("no payload of category %q", c)
		}
	}
	if titles < 3 {
		t.Errorf("%d payloads are used as titles, want a few (3 or more)", titles)
	}
}

// TestXSSCorpusThroughTheLocalStore stores every payload as an article in
// the local store (a temporary directory), reads it back and renders it as
// the Hub does; TestXSSCorpusThroughFirestore (emulator tag) does the same
// through Firestore on the emulator.
func TestXSSCorpusThroughTheLocalStore(t *testing.T) {
	s, err := OpenLocal(t.TempDir(), nil) // an existing directory: no sample articles
	if err != nil {
		t.Fatal(err)
	}
	checkXSSCorpusThrough(t, s)
}

// checkXSSCorpusThrough stores every payload as an article in store, reads
// it back and renders it as the Hub does: the article comes back unchanged,
// its HTML and preview hold no live markup, and a link of a forbidden
// scheme is left as its text.
func checkXSSCorpusThrough(t *testing.T, store Store) {
	t.Helper()
	corpus := loadXSSCorpus(t)
	base := time.Date(2031, 1, 1, 12, 0, 0, 0, time.UTC)
	ctx := context.Background()
	want := make(map[string]Article, len(corpus))
	for i, p := range corpus {
		a := Article{ID: "xss-" + p.Name, Title: cmp.Or(p.Title, "Payload "+p.Name), Date: base.Add(time.Duration(i) * time.Minute), Content: p.Markdown}
		if err := store.Put(ctx, a); err != nil {
			t.Fatalf("Put %s: %v", a.ID, err)
		}
		want[a.ID] = a
	}
	list, err := store.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]Article, len(list))
	for _, a := range list {
		got[a.ID] = a
	}
	for _, p := range corpus {
		t.Run(p.Name, func(t *testing.T) {
			w := want["xss-"+p.Name]
			a, ok := got[w.ID]
			if !ok {
				t.Fatalf("%s is not in the store's list", w.ID)
			}
			if a.Title != w.Title || a.Content != w.Content {
				t.Fatalf("the store changed the article:\ngot  %q %q\nwant %q %q", a.Title, a.Content, w.Title, w.Content)
			}
			r, err := render(a)
			if err != nil {
				t.Fatal(err)
			}
			for what, h := range map[string]string{"HTML": r.HTML, "preview": r.Preview} {
				if err := checkSafeHTML(h); err != nil {
					t.Errorf("%s of %q: %v\n%s", what, p.Markdown, err, h)
				}
			}
			text := unlinkedText(t, r.HTML)
			for _, words := range p.Text {
				if !strings.Contains(text, words) {
					t.Errorf("%q is not plain text in the HTML of %q (its text outside links: %q)\n%s", words, p.Markdown, text, r.HTML)
				}
			}
		})
	}
}

// safeElements are the elements the renderer writes, each with the
// attributes it may carry. Rendered HTML holding anything else has live
// markup in it.
var safeElements = map[atom.Atom][]string{
	atom.P: nil, atom.Br: nil, atom.Hr: nil, atom.Blockquote: nil, atom.Pre: nil,
	atom.H1: nil, atom.H2: nil, atom.H3: nil, atom.H4: nil, atom.H5: nil, atom.H6: nil,
	atom.Strong: nil, atom.Em: nil, atom.Del: nil,
	atom.Ul: nil, atom.Ol: {"start"}, atom.Li: nil,
	atom.Table: nil, atom.Thead: nil, atom.Tbody: nil, atom.Tr: nil, atom.Th: {"class"}, atom.Td: {"class"},
	atom.Code: {"class"},
	atom.A:    {"href", "rel", "title"},
	atom.Img:  {"src", "alt", "title"},
	// Task list boxes, which checkSafeHTML also requires to be disabled checkboxes.
	atom.Input: {"checked", "disabled", "type", "aria-label"},
}

// checkSafeHTML parses rendered HTML as a browser does when the page sets
// it as an element's innerHTML, and reports the first live thing in it: an
// element or attribute outside safeElements (so any script, iframe, object,
// embed, svg, math, style, form, any on* handler and any style attribute),
// a link whose scheme is not http, https or mailto, or an image whose scheme
// is not http, https or a data: image of a raster type. Relative targets
// are allowed.
func checkSafeHTML(s string) error {
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return fmt.Errorf("parse: %w", err)
	}
	var check func(n *html.Node) error
	check = func(n *html.Node) error {
		if n.Type == html.ElementNode {
			allowed, ok := safeElements[n.DataAtom]
			if !ok || n.Namespace != "" {
				return fmt.Errorf("element <%s> (namespace %q)", n.Data, n.Namespace)
			}
			for _, a := range n.Attr {
				if a.Namespace != "" || !slices.Contains(allowed, a.Key) {
					return fmt.Errorf("attribute %s=%q on <%s>", a.Key, a.Val, n.Data)
				}
				switch scheme := browserScheme(a.Val); {
				case a.Key == "href" && scheme != "" && scheme != "http" && scheme != "https" && scheme != "mailto":
					return fmt.Errorf("a %s: link %q", scheme, a.Val)
				case a.Key == "src" && scheme != "" && scheme != "http" && scheme != "https" && !safeDataImage(a.Val):
					return fmt.Errorf("a %s: image %q", scheme, a.Val)
				}
			}
			if n.DataAtom == atom.Input && (attr(n, "type") != "checkbox" || !slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "disabled" })) {
				return fmt.Errorf("an <input> that is not a disabled checkbox: %v", n.Attr)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if err := check(c); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range nodes {
		if err := check(n); err != nil {
			return err
		}
	}
	return nil
}

// browserScheme returns the lower-cased scheme of a URL attribute's value
// the way the URL standard reads it (tabs and newlines anywhere, and C0
// controls and spaces around it, ignored), or "" for a relative URL.
func browserScheme(v string) string {
	v = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, v)
	v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	for i, r := range v {
		switch {
		case r == ':' && i > 0:
			return strings.ToLower(v[:i])
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case i > 0 && ('0' <= r && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return ""
		}
	}
	return ""
}

// safeDataImage reports whether v is a data: URL of a raster image, which
// cannot carry script the way an SVG or HTML document can.
func safeDataImage(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	for _, t := range []string{"png", "gif", "jpeg", "webp"} {
		if strings.HasPrefix(v, "data:image/"+t+";") || strings.HasPrefix(v, "data:image/"+t+",") {
			return true
		}
	}
	return false
}

// unlinkedText returns the text of rendered HTML outside any link, its
// whitespace collapsed.
func unlinkedText(t *testing.T, s string) string {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.ElementNode && n.DataAtom == atom.A:
			return
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestCheckSafeHTML: the checker itself finds live markup in the forms a
// browser runs, so a corpus that passes it proves something.
func TestCheckSafeHTML(t *testing.T) {
	tests := []struct {
		name string
		html string
		live bool
	}{
		{"what the renderer writes", `<h1>t</h1><p><a href="/news/a:b">x</a> <a href="mailto:a@b.org">m</a> <img src="data:image/png;base64,iVBO" alt="d"></p><ul><li><input checked="" disabled="" type="checkbox" aria-label="done"> x</li></ul><table><tbody><tr><td class="align-left">1</td></tr></tbody></table>`, false},
		{"escaped markup is text", `<p>&lt;script&gt;alert(1)&lt;/script&gt; javascript:alert(1)</p>`, false},
		{"script", `<p><script>alert(1)</script></p>`, true},
		{"handler without quotes", `<img src=x onerror=alert(1)>`, true},
		{"svg", `<svg/onload=alert(1)>`, true},
		{"math", `<math><mi>x</mi></math>`, true},
		{"style attribute", `<p style="color:red">x</p>`, true},
		{"javascript link", `<a href="javascript:alert(1)">x</a>`, true},
		{"entity-encoded scheme", `<a href="&#106;avascript:alert(1)">x</a>`, true},
		{"tab in the scheme", "<a href=\"java\tscript:alert(1)\">x</a>", true},
		{"leading control", "<a href=\"\x01 javascript:alert(1)\">x</a>", true},
		{"ms-msdt link", `<a href="ms-msdt:/id PCWDiagnostic">x</a>`, true},
		{"svg data image", `<img src="data:image/svg+xml;base64,PHN2Zz4=">`, true},
		{"input that is not a task box", `<input type="text" disabled="">`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkSafeHTML(tt.html); (err != nil) != tt.live {
				t.Errorf("checkSafeHTML(%q) = %v, want live %v", tt.html, err, tt.live)
			}
		})
	}
}
