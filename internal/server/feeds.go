package server

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"net/url"
	"time"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/spec"
)

// feedItems is how many articles the RSS feed carries.
const feedItems = 50

type rss struct {
	XMLName xml.Name   `xml:"rss"`
	Version string     `xml:"version,attr"`
	Atom    string     `xml:"xmlns:atom,attr"`
	Channel rssChannel `xml:"channel"`
}

type rssChannel struct {
	Title         string    `xml:"title"`
	Link          string    `xml:"link"`
	Description   string    `xml:"description"`
	Language      string    `xml:"language"`
	LastBuildDate string    `xml:"lastBuildDate,omitempty"`
	Self          atomLink  `xml:"atom:link"`
	Items         []rssItem `xml:"item"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr"`
}

type rssItem struct {
	Title       string  `xml:"title"`
	Link        string  `xml:"link"`
	GUID        rssGUID `xml:"guid"`
	PubDate     string  `xml:"pubDate"`
	Description string  `xml:"description"`
}

type rssGUID struct {
	Value       string `xml:",chardata"`
	IsPermaLink bool   `xml:"isPermaLink,attr"`
}

func articleURL(base, id string) string {
	return base + "/news/" + url.PathEscape(id)
}

// xmlBody encodes v as an XML document.
func xmlBody(v any) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	_ = enc.Encode(v) // the feed's and sitemap's types always encode
	return b.Bytes()
}

// serveRSS is the news as an RSS 2.0 feed, newest first, with each article's
// rendered HTML as its description.
func (s *Server) serveRSS(w http.ResponseWriter, r *http.Request) {
	s.serveFromNews(w, r, "rss", "application/rss+xml; charset=utf-8", cacheFeed, s.rss)
}

func (s *Server) rss(snap news.Snapshot) []byte {
	base := s.siteURL()
	ch := rssChannel{
		Title:       spec.Product + " News",
		Link:        base + "/news",
		Description: spec.NewsDescription,
		Language:    "en-us",
		Self:        atomLink{Href: base + "/news.xml", Rel: "self", Type: "application/rss+xml"},
	}
	for i, a := range snap.Articles {
		if i == feedItems {
			break
		}
		if i == 0 {
			ch.LastBuildDate = a.Date.Format(time.RFC1123Z)
		}
		link := articleURL(base, a.ID)
		ch.Items = append(ch.Items, rssItem{
			Title:       a.Title,
			Link:        link,
			GUID:        rssGUID{Value: link, IsPermaLink: true},
			PubDate:     a.Date.Format(time.RFC1123Z),
			Description: a.HTML,
		})
	}
	return xmlBody(rss{Version: "2.0", Atom: "http://www.w3.org/2005/Atom", Channel: ch})
}

type urlset struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

// serveSitemap lists every route of the site and every article.
func (s *Server) serveSitemap(w http.ResponseWriter, r *http.Request) {
	s.serveFromNews(w, r, "sitemap", "application/xml; charset=utf-8", cacheFeed, s.sitemap)
}

func (s *Server) sitemap(snap news.Snapshot) []byte {
	base := s.siteURL()
	set := urlset{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	for _, route := range spec.Routes {
		set.URLs = append(set.URLs, sitemapURL{Loc: base + route.Path})
	}
	for _, a := range snap.Articles {
		set.URLs = append(set.URLs, sitemapURL{Loc: articleURL(base, a.ID), LastMod: a.Date.Format("2006-01-02")})
	}
	return xmlBody(set)
}

func (s *Server) serveRobots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write([]byte("User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: " + s.siteURL() + "/sitemap.xml\n"))
}
