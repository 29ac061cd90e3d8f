package news

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/robohornets/robohornets/internal/spec"
)

// markdown renders articles: GitHub-flavoured markdown in safe mode. Raw
// HTML is shown escaped rather than silently dropped, links and images are
// allowed by scheme (linkPolicy), links leaving the site get
// rel="noopener noreferrer", and table alignment is a class. Its output
// always goes through sanitizer before anyone sees it.
var markdown = newMarkdown()

// previewMarkdown renders previews: the same, but headings become bold
// text, so a list of previews keeps one heading per article.
var previewMarkdown = newMarkdown(util.Prioritized(flattenHeadings{}, 200))

// newMarkdown is the one goldmark configuration of the site, with extra AST
// transformers for a variant.
func newMarkdown(transformers ...util.PrioritizedValue) goldmark.Markdown {
	return goldmark.New(
		// GitHub-flavoured markdown, with table alignment as classes: the
		// style="text-align: …" goldmark writes by default is dropped by the
		// site's Content-Security-Policy (style-src 'self').
		goldmark.WithExtensions(extension.Linkify, extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)), extension.Strikethrough, extension.TaskList),
		goldmark.WithParserOptions(parser.WithASTTransformers(append([]util.PrioritizedValue{util.Prioritized(linkPolicy{}, 100), util.Prioritized(alignmentClasses{}, 100)}, transformers...)...)),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(escapedHTML{}, 100))),
	)
}

// Render turns markdown into safe HTML.
func Render(src string) (string, error) {
	return convert(markdown, src)
}

// convert renders src with md and sanitizes the result: the renderer's own
// escaping and link checks decide how an article looks, the sanitizer is
// what guarantees that no markup outside its allow-list reaches a page.
func convert(md goldmark.Markdown, src string) (string, error) {
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		return "", fmt.Errorf("news: render markdown: %w", err)
	}
	return sanitize(&buf)
}

// sanitizer is the final pass over all rendered HTML: bluemonday's policy
// for user-generated content, plus exactly what the renderer writes beyond
// it, minus UGC's rel="nofollow" on every link (links keep today's rel).
var sanitizer = newSanitizer()

var (
	// alignClass is a table cell's alignment (alignmentClasses).
	alignClass = regexp.MustCompile(`^align-(left|center|right)$`)
	// languageClass is a fenced code block's language, as goldmark writes
	// it; an info string with other characters loses its class.
	languageClass = regexp.MustCompile(`^language-[\w+#.-]+$`)
	// rasterDataImage is the media type of a data: URL allowed as an image
	// (as goldmark's html.IsDangerousURL): no SVG, which can carry script.
	rasterDataImage = regexp.MustCompile(`(?i)^image/(png|gif|jpeg|webp)[;,]`)
)

func newSanitizer() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	// Links: UGC's schemes (http, https, mailto, relative URLs) and
	// parseable URLs, but the rel linkPolicy gives links leaving the site
	// rather than nofollow on every link.
	p.RequireNoFollowOnLinks(false)
	p.AllowAttrs("rel").Matching(regexp.MustCompile(`^noopener noreferrer$`)).OnElements("a")
	// Titles and alt text are whatever the author wrote (UGC allows only
	// letters, digits and a little punctuation); they are attribute values,
	// escaped on output.
	p.AllowAttrs("title").OnElements("a", "img")
	p.AllowAttrs("alt").OnElements("img")
	// data: URLs of raster images, as today. bluemonday's scheme policies
	// hold for every URL attribute, so this one lets a data: raster image
	// through an href too; linkPolicy never writes such a link, and a
	// raster image cannot run script.
	p.AllowURLSchemeWithCustomPolicy("data", func(u *url.URL) bool {
		return rasterDataImage.MatchString(u.Opaque)
	})
	// Ordered lists that do not start at 1.
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	// Table alignment as a class (the Content-Security-Policy drops inline
	// styles) and a code block's language.
	p.AllowAttrs("class").Matching(alignClass).OnElements("th", "td")
	p.AllowAttrs("class").Matching(languageClass).OnElements("code")
	// GFM task list boxes, as renderTaskCheckBox writes them. bluemonday
	// cannot require an attribute, so it cannot insist on disabled; each
	// attribute it lets through can only be that of a task box.
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^(|checked|disabled)$`)).OnElements("input")
	p.AllowAttrs("aria-label").Matching(regexp.MustCompile(`^(done|to do)$`)).OnElements("input")
	return p
}

// sameEscapes writes back the character references goldmark uses for
// what the sanitizer escapes differently (it re-serialises every token):
// the same text either way, but the HTML stays as before the sanitizer. A
// literal "&#34;" in an article is written as "&amp;#34;", so only the
// sanitizer's own escapes are rewritten.
var sameEscapes = strings.NewReplacer("&#34;", "&quot;", "&#39;", "'")

// sanitize is the last pass over rendered HTML.
func sanitize(h io.Reader) (string, error) {
	var out strings.Builder
	if err := sanitizer.SanitizeReaderToWriter(h, &out); err != nil {
		return "", fmt.Errorf("news: sanitize rendered markdown: %w", err)
	}
	return sameEscapes.Replace(out.String()), nil
}

// Preview renders the first spec.NewsPreviewLines non-blank lines of src,
// followed by an ellipsis paragraph when src has more. Headings in them are
// rendered as bold paragraphs.
func Preview(src string) (string, error) {
	lines := strings.Split(normalizeNewlines(src), "\n")
	kept, seen := 0, 0
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		seen++
		if seen == spec.NewsPreviewLines {
			kept = i + 1
			break
		}
	}
	if kept == 0 || !hasText(lines[kept:]) {
		return convert(previewMarkdown, src)
	}
	return convert(previewMarkdown, strings.Join(lines[:kept], "\n")+"\n\n…")
}

func hasText(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return true
		}
	}
	return false
}

// linkPolicy allows links by scheme rather than by a list of dangerous
// ones (goldmark's safe mode only drops javascript:, vbscript:, file: and
// most data:, so ms-msdt: or intent: would pass): a link or image whose
// target has a scheme other than http, https or mailto (images: http, https
// and data: images) is replaced by its text. Links to other sites are
// marked so they cannot reach back into this page (rel="noopener
// noreferrer").
//
// The sanitizer enforces the same schemes on its own; linkPolicy stays for
// what a policy cannot express: a forbidden image shows as its alt text
// (the sanitizer would leave an <img> without src), a forbidden link as
// its text even when it has a title, and data: URLs only as images (the
// sanitizer's schemes hold for every URL attribute).
type linkPolicy struct{}

func (linkPolicy) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var forbidden []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			if !allowedLink(l.Destination) {
				forbidden = append(forbidden, n)
			} else if isExternal(l.Destination) {
				n.SetAttributeString("rel", []byte("noopener noreferrer"))
			}
		case *ast.AutoLink:
			if l.AutoLinkType != ast.AutoLinkURL {
				return ast.WalkContinue, nil
			}
			if dest := l.URL(src); !allowedLink(dest) {
				forbidden = append(forbidden, n)
			} else if isExternal(dest) {
				n.SetAttributeString("rel", []byte("noopener noreferrer"))
			}
		case *ast.Image:
			if !allowedImage(l.Destination) {
				forbidden = append(forbidden, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range forbidden {
		parent := n.Parent()
		if a, ok := n.(*ast.AutoLink); ok {
			parent.ReplaceChild(parent, n, ast.NewString(a.Label(src)))
			continue
		}
		for c := n.FirstChild(); c != nil; c = n.FirstChild() {
			parent.InsertBefore(parent, n, c)
		}
		parent.RemoveChild(parent, n)
	}
}

// scheme returns the lower-cased scheme of a link target as a browser reads
// it (character references resolved; tabs and newlines inside, and spaces
// and control characters before, ignored), or "" for a relative one.
func scheme(dest []byte) string {
	// The renderer writes the target with its character references
	// resolved, so "&#106;avascript:" is javascript: to the browser.
	dest = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(dest)))
	d := bytes.TrimLeft(dest, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	var b strings.Builder
	for _, c := range d {
		switch {
		case c == '\t' || c == '\n' || c == '\r':
			continue
		case c == ':':
			return strings.ToLower(b.String())
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', b.Len() > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
			b.WriteByte(c)
		default:
			return "" // a path, query or fragment came first: relative
		}
	}
	return ""
}

func allowedLink(dest []byte) bool {
	switch scheme(dest) {
	case "", "http", "https", "mailto":
		return true
	}
	return false
}

func allowedImage(dest []byte) bool {
	switch scheme(dest) {
	case "", "http", "https":
		return true
	case "data":
		return !html.IsDangerousURL(bytes.TrimSpace(dest))
	}
	return false
}

func isExternal(dest []byte) bool {
	d := bytes.ToLower(dest)
	return bytes.HasPrefix(d, []byte("http://")) || bytes.HasPrefix(d, []byte("https://")) ||
		bytes.HasPrefix(d, []byte("//")) || bytes.HasPrefix(d, []byte("www."))
}

// alignmentClasses gives each aligned table cell the class align-left,
// align-center or align-right (styled in the frontend's news.css).
type alignmentClasses struct{}

func (alignmentClasses) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if cell, ok := n.(*east.TableCell); ok && entering && cell.Alignment != east.AlignNone {
			cell.SetAttributeString("class", []byte("align-"+cell.Alignment.String()))
		}
		return ast.WalkContinue, nil
	})
}

// flattenHeadings turns every heading into a paragraph of bold text.
type flattenHeadings struct{}

func (flattenHeadings) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var headings []*ast.Heading
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			headings = append(headings, h)
		}
		return ast.WalkContinue, nil
	})
	for _, h := range headings {
		strong := ast.NewEmphasis(2)
		for c := h.FirstChild(); c != nil; {
			next := c.NextSibling()
			strong.AppendChild(strong, c)
			c = next
		}
		p := ast.NewParagraph()
		p.AppendChild(p, strong)
		h.Parent().ReplaceChild(h.Parent(), h, p)
	}
}

// escapedHTML renders raw HTML in markdown as visible, escaped text, so an
// author sees what they wrote and a reader's browser never runs it. It also
// gives task list boxes an accessible name.
type escapedHTML struct{}

func (escapedHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(east.KindTaskCheckBox, renderTaskCheckBox)
}

// renderTaskCheckBox renders a task list item's box with an accessible name,
// which GFM's plain <input> lacks.
func renderTaskCheckBox(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	if n.(*east.TaskCheckBox).IsChecked {
		_, _ = w.WriteString(`<input checked="" disabled="" type="checkbox" aria-label="done"> `)
	} else {
		_, _ = w.WriteString(`<input disabled="" type="checkbox" aria-label="to do"> `)
	}
	return ast.WalkContinue, nil
}

func renderRawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	segs := n.(*ast.RawHTML).Segments
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		_, _ = w.Write(util.EscapeHTML(s.Value(src)))
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString("<p>")
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		_, _ = w.Write(util.EscapeHTML(s.Value(src)))
	}
	if b.HasClosure() {
		_, _ = w.Write(util.EscapeHTML(b.ClosureLine.Value(src)))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkContinue, nil
}

// render derives an article's HTML and preview.
func render(a Article) (Rendered, error) {
	r := Rendered{Article: a}
	var err error
	if r.HTML, err = Render(a.Content); err != nil {
		return r, fmt.Errorf("news: article %q: %w", a.ID, err)
	}
	if r.Preview, err = Preview(a.Content); err != nil {
		return r, fmt.Errorf("news: article %q: %w", a.ID, err)
	}
	return r, nil
}
