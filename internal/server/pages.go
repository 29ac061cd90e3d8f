package server

import (
	"bytes"
	"html/template"
	"net/http"
	"regexp"
	"strings"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/spec"
)

// head is what a link preview needs of one page.
type head struct {
	Title       string
	Description string
	URL         string
	Type        string // Open Graph type: "website" or "article"
	Published   string // RFC 3339, articles only
	SiteName    string // spec.SiteName
}

var headTemplate = template.Must(template.New("head").Parse(`<title>{{.Title}}</title>
    <meta name="description" content="{{.Description}}" />
    <link rel="canonical" href="{{.URL}}" />
    <meta property="og:site_name" content="{{.SiteName}}" />
    <meta property="og:title" content="{{.Title}}" />
    <meta property="og:description" content="{{.Description}}" />
    <meta property="og:type" content="{{.Type}}" />
    <meta property="og:url" content="{{.URL}}" />
    {{- if .Published}}
    <meta property="article:published_time" content="{{.Published}}" />{{end}}
    <meta name="twitter:card" content="summary" />`))

// pageTemplate is index.html split around the <!--app-head--> marker, with
// its static <title> removed, and its image preload taken out: only pages
// with the banner get it.
type pageTemplate struct{ before, after, bannerPreload []byte }

var (
	staticTitle  = regexp.MustCompile(`(?s)\s*<title>.*?</title>`)
	imagePreload = regexp.MustCompile(`\s*<link\s+rel="preload"\s+as="image"[^>]*>`)
)

func newPageTemplate(index []byte) *pageTemplate {
	index = staticTitle.ReplaceAll(index, nil)
	preload := imagePreload.Find(index)
	index = imagePreload.ReplaceAll(index, nil)
	before, after, ok := bytes.Cut(index, []byte("<!--app-head-->"))
	if !ok {
		before, after, _ = bytes.Cut(index, []byte("</head>"))
		after = append([]byte("</head>"), after...)
	}
	return &pageTemplate{before: before, after: after, bannerPreload: bytes.TrimSpace(preload)}
}

// page is what index.html gets for one route: its head, and the data its
// first render needs, so the first paint is the final layout.
type page struct {
	head
	// initialID and initialJSON are the id and text of an inline JSON script
	// (a news snapshot, an article or the event status, exactly as the API
	// sends it); "" means none.
	initialID   string
	initialJSON []byte
	// banner: the page opens with the banner (spec.Route.Banner).
	banner bool
}

func (p *pageTemplate) render(pg page) []byte {
	var b bytes.Buffer
	b.Write(p.before)
	if pg.banner {
		b.Write(p.bannerPreload)
		b.WriteString("\n    ")
	}
	_ = headTemplate.Execute(&b, pg.head) // only fails on a writer error; bytes.Buffer has none
	if pg.initialID != "" {
		// The JSON comes from encoding/json, which escapes <, > and &, so it
		// cannot end the script element; a JSON script never runs, so the
		// Content-Security-Policy allows it.
		b.WriteString("\n    <script type=\"application/json\" id=\"")
		b.WriteString(pg.initialID)
		b.WriteString("\">")
		b.Write(pg.initialJSON)
		b.WriteString("</script>")
	}
	b.Write(p.after)
	return b.Bytes()
}

// pageFor returns what the page at path shows first: the article's own
// title, opening words and data for /news/{id}, the news list's data on
// /news, the event status (event, as GET /api/event answers it) on the
// event pages, and the route's title otherwise.
func (s *Server) pageFor(path string, snap news.Snapshot, event []byte) page {
	pg := page{head: head{Title: spec.Product, Description: spec.SiteDescription, URL: s.siteURL() + path, Type: "website", SiteName: spec.SiteName}}
	if route, ok := spec.RouteByPath(path); ok {
		pg.Title, pg.Description, pg.banner = route.Title, route.Description, route.Banner
	}
	if path == "/news" {
		pg.initialID, pg.initialJSON = "initial-news", snap.JSON
	}
	if eventPage(path) && event != nil {
		pg.initialID, pg.initialJSON = "initial-event", event
	}
	if id, ok := strings.CutPrefix(path, "/news/"); ok {
		// Until the article is known (or when it does not exist) the page
		// is the news list's, as the browser shows it.
		list, _ := spec.RouteByPath("/news")
		pg.Title, pg.Description = list.Title, list.Description
		if a, found := snap.Article(id); found {
			pg.Title = spec.ArticleTitle(a.Title)
			pg.Description = news.Excerpt(a.Content, 160)
			pg.Type = "article"
			pg.Published = a.Date.Format("2006-01-02T15:04:05Z07:00")
			pg.initialID, pg.initialJSON = "initial-article", snap.ArticleJSON(id)
		}
	}
	return pg
}

// siteURL is the absolute base of links in feeds and previews, from the
// configuration only: a request's Host and X-Forwarded-Proto are anyone's
// to set, and these responses are cached. Without one, links are
// root-relative.
func (s *Server) siteURL() string {
	return strings.TrimSuffix(s.opts.SiteURL, "/")
}

// eventPage reports whether the page at path opens with the event status:
// the pit display and the follow page.
func eventPage(path string) bool {
	return path == "/pit" || path == "/follow"
}

// rootFileCache is the Cache-Control of a root file of the build: the
// service worker's script must be checked at every registration, as a
// browser keeps a worker that a cached script does not replace; the rest
// (favicon, icons, manifest) may be kept an hour.
func rootFileCache(name string) []string {
	if name == "sw.js" {
		return cacheRevalidate
	}
	return cacheShort
}

// servePage serves a root file (favicon, images) when one exists, and
// otherwise index.html with the route's head and initial data filled in.
// The pages of known routes and existing articles are made once per news
// version, the event pages once per event version (bodyCache).
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	if f, ok := s.assets.files[name]; ok && name != "index.html" {
		f.serve(w, r, rootFileCache(name))
		return
	}
	if s.assets.index == nil {
		serveNotBuilt(w)
		return
	}
	snap := s.opts.Hub.Current()
	if page, ok := s.knownPage(r.URL.Path, snap); ok {
		page.serve(w, r, cacheRevalidate)
		return
	}
	s.renderPage(r.URL.Path, snap, nil).serve(w, r, cacheRevalidate)
}

// knownPage is the page of a known route or an existing article, made once
// per news version, or for an event page once per event version (the
// event pages show no news data), so that neither path ever serves a page
// with data older than the API's; ok is false for any other path.
func (s *Server) knownPage(path string, snap news.Snapshot) (*asset, bool) {
	if !s.known(path, snap) {
		return nil, false
	}
	if eventPage(path) {
		event, version := s.opts.Event.JSON()
		return s.eventBodies.get(version, "page "+path, func() *asset { return s.renderPage(path, snap, event) }), true
	}
	return s.bodies.get(snap.Version, "page "+path, func() *asset { return s.renderPage(path, snap, nil) }), true
}

// renderPage makes index.html with the head and initial data of path;
// event is the event status for an event page.
func (s *Server) renderPage(path string, snap news.Snapshot, event []byte) *asset {
	return newBody(s.assets.index.render(s.pageFor(path, snap, event)), "text/html; charset=utf-8")
}

// serveNotBuilt answers a page of a binary built without the frontend.
func serveNotBuilt(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write([]byte("The website's frontend is not built into this binary: run `make build`.\n"))
}

// known reports whether path is a route of the site or an existing article.
func (s *Server) known(path string, snap news.Snapshot) bool {
	if _, ok := spec.RouteByPath(path); ok {
		return true
	}
	id, ok := strings.CutPrefix(path, "/news/")
	if !ok {
		return false
	}
	_, found := snap.Article(id)
	return found
}
