package news

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []string // substrings the HTML must contain
		notWant []string // substrings it must not contain
	}{
		{"heading and emphasis", "# Kickoff\n\nWe **won**.", []string{"<h1>Kickoff</h1>", "<strong>won</strong>"}, nil},
		{"raw inline HTML is shown escaped", "Hi <script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script>"}},
		{"raw HTML block is shown escaped", "<div onclick=\"x()\">box</div>\n", []string{"&lt;div onclick=&quot;x()&quot;&gt;"}, []string{"<div"}},
		{"javascript link becomes its text", "[click](javascript:alert(1))", []string{`<p>click</p>`}, []string{"javascript:", "<a"}},
		{"ms-msdt link becomes its text", "[help](ms-msdt:/id%20PCWDiagnostic)", []string{`<p>help</p>`}, []string{"ms-msdt", "<a"}},
		{"intent link becomes its text", "[app](intent://scan/#Intent;scheme=zxing;end)", []string{`<p>app</p>`}, []string{"intent:", "<a"}},
		{"mixed-case scheme with a tab becomes its text", "[x](<JaVa\tScRiPt:alert(1)>)", []string{`<p>x</p>`}, []string{"<a"}},
		{"entity-encoded scheme becomes its text", "[x](&#106;avascript:alert(1))", []string{`<p>x</p>`}, []string{"<a"}},
		{"autolink with another scheme becomes its text", "<ms-msdt:x>", []string{`<p>ms-msdt:x</p>`}, []string{"<a"}},
		{"image with another scheme becomes its alt text", "![alt text](ms-appx:x.png)", []string{`<p>alt text</p>`}, []string{"<img"}},
		{"emphasis inside a forbidden link is kept", "[**bold**](vbscript:x)", []string{`<p><strong>bold</strong></p>`}, []string{"<a"}},
		{"mailto allowed", "[mail](mailto:team@example.org)", []string{`<a href="mailto:team@example.org">mail</a>`}, nil},
		{"relative path with a colon later is a link", "[r](/news/a:b)", []string{`<a href="/news/a:b">r</a>`}, nil},
		{"table alignment as classes", "| l | c | r |\n|:--|:-:|--:|\n| 1 | 2 | 3 |", []string{`<td class="align-left">1</td>`, `<td class="align-center">2</td>`, `<td class="align-right">3</td>`}, []string{"style="}},
		{"vbscript link dropped", "[click](vbscript:msgbox)", nil, []string{"vbscript:"}},
		{"data URL link dropped", "[x](data:text/html;base64,PHNjcmlwdD4=)", nil, []string{"data:text/html"}},
		{"data image allowed", "![dot](data:image/png;base64,iVBORw0KGgo=)", []string{`src="data:image/png;base64,iVBORw0KGgo="`}, nil},
		{"external link gets rel", "[FIRST](https://www.firstinspires.org)", []string{`href="https://www.firstinspires.org" rel="noopener noreferrer"`}, nil},
		{"internal link has no rel", "[About](/about)", []string{`<a href="/about">About</a>`}, []string{"rel="}},
		{"autolink gets rel", "See https://example.org now", []string{`<a href="https://example.org" rel="noopener noreferrer">`}, nil},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>", "<td>1</td>"}, nil},
		{"strikethrough", "~~old~~", []string{"<del>old</del>"}, nil},
		{"task list", "- [x] done\n- [ ] todo", []string{`<input checked="" disabled="" type="checkbox" aria-label="done">`, `aria-label="to do"`}, nil},
		{"ordered list start", "3. c\n4. d", []string{`<ol start="3">`}, nil},
		{"code block language", "```go\nx := 1\n```", []string{`<pre><code class="language-go">x := 1`}, nil},
		{"quotes escaped as goldmark writes them", "We're \"here\" & <there>", []string{`We're &quot;here&quot; &amp; &lt;there&gt;`}, []string{"&#39;", "&#34;"}},
		{"link title and image alt keep their punctuation", "[t](/a \"Why? Because: it's\") ![a: b?](/x.png)", []string{`title="Why? Because: it's"`, `alt="a: b?"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Render(%q) = %q, want it to contain %q", tt.src, got, w)
				}
			}
			for _, nw := range tt.notWant {
				if strings.Contains(got, nw) {
					t.Errorf("Render(%q) = %q, must not contain %q", tt.src, got, nw)
				}
			}
		})
	}
}

func TestPreview(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		wantEllipsis bool
		want, absent string
	}{
		{"short article is whole", "one\n\ntwo", false, "<p>two</p>", ""},
		{"exactly three lines", "one\n\ntwo\n\nthree\n", false, "<p>three</p>", ""},
		{"fourth line is cut", "one\n\ntwo\n\nthree\n\nfour", true, "<p>three</p>", "four"},
		{"blank lines do not count", "\n\n\none\n\n\n\ntwo", false, "<p>two</p>", ""},
		{"list items count as lines", "- a\n- b\n- c\n- d", true, "<li>c</li>", "<li>d</li>"},
		{"windows line ends", "one\r\ntwo\r\nthree\r\nfour", true, "three", "four"},
		{"headings become bold text", "## Week 1\n\nWe built.", false, "<p><strong>Week 1</strong></p>", "<h2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Preview(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(got, "…"); has != tt.wantEllipsis {
				t.Errorf("Preview(%q) = %q; ellipsis %v, want %v", tt.src, got, has, tt.wantEllipsis)
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("Preview(%q) = %q, want it to contain %q", tt.src, got, tt.want)
			}
			if tt.absent != "" && strings.Contains(got, tt.absent) {
				t.Errorf("Preview(%q) = %q, must not contain %q", tt.src, got, tt.absent)
			}
		})
	}
}

// TestSanitize feeds the final pass HTML the renderer never writes and
// checks the policy strips it: the sanitizer is a defence of its own, not a
// pass that only ever sees goldmark's safe output.
func TestSanitize(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"script", `<p>a<script>alert(1)</script>b</p>`, `<p>ab</p>`},
		{"event handler", `<img src="/x.png" onerror="alert(1)">`, `<img src="/x.png">`},
		{"javascript link becomes its text", `<a href="javascript:alert(1)">x</a>`, `x`},
		{"entity-encoded javascript link", `<a href="&#106;avascript:alert(1)">x</a>`, `x`},
		{"tab in the scheme", "<a href=\"java\tscript:alert(1)\">x</a>", `x`},
		{"other scheme", `<a href="ms-msdt:/id PCWDiagnostic">x</a>`, `x`},
		{"data html link", `<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>`, `x`},
		{"svg data image", `<img src="data:image/svg+xml;base64,PHN2Zz4=">`, ``},
		{"raster data image kept", `<img src="data:image/png;base64,iVBO" alt="d">`, `<img src="data:image/png;base64,iVBO" alt="d">`},
		{"rel other than ours, target, style", `<a href="https://e.org" rel="opener" target="_top" style="x">e</a>`, `<a href="https://e.org">e</a>`},
		{"our rel, title with punctuation", `<a href="https://e.org" rel="noopener noreferrer" title="What? Yes: it's &quot;ok&quot;">e</a>`, `<a href="https://e.org" rel="noopener noreferrer" title="What? Yes: it's &quot;ok&quot;">e</a>`},
		{"iframe, object, embed", `<iframe srcdoc="<script>alert(1)</script>"></iframe><object data="x"></object><embed src="x">`, ``},
		{"svg and math", `<svg onload="alert(1)"><a xlink:href="javascript:alert(1)">s</a></svg><math href="javascript:alert(1)">m</math>`, `sm`},
		{"style element and attribute", `<style>@import "x";</style><p style="background:url(javascript:alert(1))" class="cover">p</p>`, `<p>p</p>`},
		{"form, button, meta, base", `<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">b</button></form><meta http-equiv="refresh" content="0"><base href="javascript:x//">`, `b`},
		{"input that is not a task box", `<input type="text" autofocus onfocus="alert(1)" value="v">`, ``},
		{"task box kept", `<input checked="" disabled="" type="checkbox" aria-label="done">`, `<input checked="" disabled="" type="checkbox" aria-label="done">`},
		{"task box with another label", `<input disabled="" type="checkbox" aria-label="click me">`, `<input disabled="" type="checkbox">`},
		{"alignment class kept, others dropped", `<td class="align-left">1</td><td class="evil">2</td><th class="align-center x">3</th>`, `<td class="align-left">1</td><td>2</td><th>3</th>`},
		{"code language kept, breakout dropped", `<code class="language-go">a</code><code class="language-js&quot; onmouseover=&quot;x">b</code>`, `<code class="language-go">a</code><code>b</code>`},
		{"ordered list start", `<ol start="3" reversed onclick="x"><li>a</li></ol>`, `<ol start="3"><li>a</li></ol>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sanitize(strings.NewReader(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("sanitize(%q) = %q, want %q", tt.html, got, tt.want)
			}
			if err := checkSafeHTML(got); err != nil {
				t.Errorf("sanitize(%q) = %q: %v", tt.html, got, err)
			}
		})
	}
}

// TestSanitizeUnsafeRenderer renders the XSS corpus with goldmark in its
// unsafe mode (raw HTML written as it is, no link policy, no escaping of
// ours) through the same final pass as the site's renderer: the sanitizer
// alone must leave no live markup.
func TestSanitizeUnsafeRenderer(t *testing.T) {
	unsafe := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(gmhtml.WithUnsafe()),
	)
	live := 0
	corpus := loadXSSCorpus(t)
	for _, p := range corpus {
		var raw bytes.Buffer
		if err := unsafe.Convert([]byte(p.Markdown), &raw); err != nil {
			t.Fatal(err)
		}
		if checkSafeHTML(raw.String()) != nil {
			live++
		}
		got, err := convert(unsafe, p.Markdown)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkSafeHTML(withoutInertUGC(t, got)); err != nil {
			t.Errorf("%s: %v\nunsafe: %s\nsanitized: %s", p.Name, err, raw.String(), got)
		}
	}
	// The test means something only if the unsafe mode writes live markup
	// for most of the corpus.
	if live < len(corpus)*3/4 {
		t.Errorf("goldmark's unsafe mode wrote live markup for only %d of %d payloads", live, len(corpus))
	}
	t.Logf("live markup in goldmark's unsafe output: %d of %d payloads; none after the sanitizer", live, len(corpus))
}

// inertUGC is what bluemonday's UGC policy lets through beyond what our
// renderer writes, as far as the XSS corpus reaches it in goldmark's unsafe
// mode: elements and attributes without script, which checkSafeHTML (the
// renderer's own allow-list) reports only because the renderer never
// writes them.
var inertUGC = map[atom.Atom][]string{
	atom.Div: nil, atom.Span: nil, atom.Details: {"open"}, atom.Summary: nil,
}

// withoutInertUGC unwraps the inertUGC elements of s and drops their
// allowed attributes, leaving the rest for checkSafeHTML.
func withoutInertUGC(t *testing.T, s string) string {
	t.Helper()
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		attrs, inert := inertUGC[n.DataAtom]
		if n.Type != html.ElementNode || !inert {
			if err := html.Render(&b, n); err != nil {
				t.Fatal(err)
			}
			return
		}
		for _, a := range n.Attr {
			if !slices.Contains(attrs, a.Key) {
				// Left for checkSafeHTML to report.
				b.WriteString("<" + n.Data + " " + a.Key + ">")
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return b.String()
}
