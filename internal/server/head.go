package server

import (
	"bytes"
	"html/template"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/spec"
)

// head is what a link preview needs of one page.
type head struct {
	Title       string
	Description string
	URL         string
	Type        string // Open Graph type: "website" or "article"
	Published   string // RFC 3339, articles only
}

var headTemplate = template.Must(template.New("head").Parse(`<title>{{.Title}}</title>
    <meta name="description" content="{{.Description}}" />
    <link rel="canonical" href="{{.URL}}" />
    <meta property="og:site_name" content="RoboHornets · FRC Team 1209" />
    <meta property="og:title" content="{{.Title}}" />
    <meta property="og:description" content="{{.Description}}" />
    <meta property="og:type" content="{{.Type}}" />
    <meta property="og:url" content="{{.URL}}" />
    {{- if .Published}}
    <meta property="article:published_time" content="{{.Published}}" />{{end}}
    <meta name="twitter:card" content="summary" />`))

// pageTemplate is index.html split around the <!--app-head--> marker, with
// its static <title> removed.
type pageTemplate struct{ before, after []byte }

var staticTitle = regexp.MustCompile(`(?s)\s*<title>.*?</title>`)

func newPageTemplate(index []byte) *pageTemplate {
	index = staticTitle.ReplaceAll(index, nil)
	before, after, ok := bytes.Cut(index, []byte("<!--app-head-->"))
	if !ok {
		before, after, _ = bytes.Cut(index, []byte("</head>"))
		after = append([]byte("</head>"), after...)
	}
	return &pageTemplate{before: before, after: after}
}

func (p *pageTemplate) render(h head) []byte {
	var b bytes.Buffer
	b.Write(p.before)
	_ = headTemplate.Execute(&b, h) // only fails on a writer error; bytes.Buffer has none
	b.Write(p.after)
	return b.Bytes()
}

// headFor returns the head of the page at r's path: the article's own title
// and opening words for /news/{id}, the route's title otherwise.
func (s *Server) headFor(r *http.Request) head {
	h := head{Title: spec.Product, Description: spec.SiteDescription, URL: s.siteURL(r) + r.URL.Path, Type: "website"}
	if route, ok := spec.RouteByPath(r.URL.Path); ok {
		h.Title, h.Description = route.Title, route.Description
	}
	if id, ok := strings.CutPrefix(r.URL.Path, "/news/"); ok {
		// Until the article is known (or when it does not exist) the page
		// is the news list's, as the browser shows it.
		news, _ := spec.RouteByPath("/news")
		h.Title, h.Description = news.Title, news.Description
		if a, found := s.opts.Hub.Current().Article(id); found {
			h.Title = spec.ArticleTitle(a.Title)
			h.Description = excerpt(a.Content, 160)
			h.Type = "article"
			h.Published = a.Date.Format("2006-01-02T15:04:05Z07:00")
		}
	}
	return h
}

var markdownNoise = regexp.MustCompile("[#*_`>|~\\[\\]]+|\\((?:https?:)?/[^)]*\\)|-{3,}")

// excerpt returns about the first max characters of markdown as plain text,
// cut at a word boundary with an ellipsis.
func excerpt(md string, max int) string {
	text := strings.Join(strings.Fields(markdownNoise.ReplaceAllString(md, " ")), " ")
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	runes := []rune(text)[:max]
	cut := string(runes)
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// siteURL is the absolute base of links in feeds and previews.
func (s *Server) siteURL(r *http.Request) string {
	if s.opts.SiteURL != "" {
		return strings.TrimSuffix(s.opts.SiteURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
