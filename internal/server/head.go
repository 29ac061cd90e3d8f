package server

import (
	"bytes"
	"html/template"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Product is the site's name as page titles show it ("{product} - Home").
const Product = "RoboHornets"

const siteDescription = "FIRST Robotics Competition Team 1209, the RoboHornets of Tulsa: who we are, how to join, when we meet, our sponsors, seasons and news."

// pageTitles are the titles of the routes with fixed content; the pages set
// the same ones in the browser.
var pageTitles = map[string]string{
	"/":             Product + " - Home",
	"/about":        Product + " - About",
	"/contact":      Product + " - Contact",
	"/news":         Product + " - News",
	"/outreach":     Product + " - Outreach",
	"/sponsors":     Product + " - Sponsors",
	"/donate":       Product + " - Donate",
	"/reefscape":    Product + " - Reefscape",
	"/crescendo":    Product + " - Crescendo",
	"/rebuilt":      Product + " - Rebuilt",
	"/whattimeisit": Product + " - What time is it?",
}

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
func (s *server) headFor(r *http.Request) head {
	h := head{Title: Product, Description: siteDescription, URL: s.siteURL(r) + r.URL.Path, Type: "website"}
	if t, ok := pageTitles[r.URL.Path]; ok {
		h.Title = t
	}
	if r.URL.Path == "/news" {
		h.Description = "The latest news and updates from the team."
	}
	if id, ok := strings.CutPrefix(r.URL.Path, "/news/"); ok {
		if a, found := s.opts.Hub.Current().Article(id); found {
			h.Title = a.Title + " - " + Product
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
func (s *server) siteURL(r *http.Request) string {
	if s.opts.SiteURL != "" {
		return strings.TrimSuffix(s.opts.SiteURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
