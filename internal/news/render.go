package news

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/robohornets/robohornets/internal/spec"
)

// markdown renders articles: GitHub-flavoured markdown in safe mode.
// Goldmark's safe mode already drops dangerous link targets (javascript:,
// vbscript:, file:, data: except images); on top of that raw HTML is shown
// escaped rather than silently dropped, and links leaving the site get
// rel="noopener noreferrer".
var markdown = newMarkdown()

// previewMarkdown renders previews: the same, but headings become bold
// text, so a list of previews keeps one heading per article.
var previewMarkdown = newMarkdown(util.Prioritized(flattenHeadings{}, 200))

// newMarkdown is the one goldmark configuration of the site, with extra AST
// transformers for a variant.
func newMarkdown(transformers ...util.PrioritizedValue) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithASTTransformers(append([]util.PrioritizedValue{util.Prioritized(externalLinks{}, 100)}, transformers...)...)),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(escapedHTML{}, 100))),
	)
}

// Render turns markdown into safe HTML.
func Render(src string) (string, error) {
	return convert(markdown, src)
}

func convert(md goldmark.Markdown, src string) (string, error) {
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		return "", fmt.Errorf("news: render markdown: %w", err)
	}
	return buf.String(), nil
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

// externalLinks marks links to other sites so they cannot reach back into
// this page (rel="noopener noreferrer").
type externalLinks struct{}

func (externalLinks) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		switch l := n.(type) {
		case *ast.Link:
			dest = l.Destination
		case *ast.AutoLink:
			if l.AutoLinkType != ast.AutoLinkURL {
				return ast.WalkContinue, nil
			}
			dest = l.URL(src)
		default:
			return ast.WalkContinue, nil
		}
		if isExternal(dest) {
			n.SetAttributeString("rel", []byte("noopener noreferrer"))
		}
		return ast.WalkContinue, nil
	})
}

func isExternal(dest []byte) bool {
	d := bytes.ToLower(dest)
	return bytes.HasPrefix(d, []byte("http://")) || bytes.HasPrefix(d, []byte("https://")) ||
		bytes.HasPrefix(d, []byte("//")) || bytes.HasPrefix(d, []byte("www."))
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
