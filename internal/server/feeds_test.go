package server_test

import (
	"encoding/xml"
	"html"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/spec"
)

type rssFeed struct {
	XMLName xml.Name `xml:"rss"`
	Version string   `xml:"version,attr"`
	Channel struct {
		Title string `xml:"title"`
		// Links holds <link> and <atom:link>, which encoding/xml matches alike.
		Links []struct {
			XMLName xml.Name
			Value   string `xml:",chardata"`
			Href    string `xml:"href,attr"`
			Rel     string `xml:"rel,attr"`
		} `xml:"link"`
		Description string `xml:"description"`
		Items       []struct {
			Title       string `xml:"title"`
			Link        string `xml:"link"`
			GUID        string `xml:"guid"`
			PubDate     string `xml:"pubDate"`
			Description string `xml:"description"`
		} `xml:"item"`
	} `xml:"channel"`
}

func TestRSS(t *testing.T) {
	tests := []struct {
		name, siteURL, wantBase string
	}{
		{"site URL", "", testSiteURL},
		{"site URL with a trailing slash", testSiteURL + "/", testSiteURL},
		{"no site URL: root-relative, whatever the request says its host is", "-", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envConfig{siteURL: tt.siteURL})
			e.put(t, testArticle)
			// A UTC date must still get a numeric zone: "UTC" is not RFC 822.
			e.put(t, news.Article{ID: "utc-story", Title: "UTC story", Date: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), Content: "Text."})
			res, body := e.get(t, "/news.xml")
			checkAnswer(t, res, body, http.StatusOK, "application/rss+xml")
			var feed rssFeed
			if err := xml.Unmarshal([]byte(body), &feed); err != nil {
				t.Fatalf("the feed is not XML: %v\n%s", err, body)
			}
			if feed.Version != "2.0" {
				t.Errorf("version = %q, want 2.0", feed.Version)
			}
			if feed.Channel.Title == "" || feed.Channel.Description == "" {
				t.Errorf("channel title %q description %q", feed.Channel.Title, feed.Channel.Description)
			}
			var link, self string
			for _, l := range feed.Channel.Links {
				switch l.XMLName.Space {
				case "":
					link = l.Value
				case "http://www.w3.org/2005/Atom":
					if l.Rel == "self" {
						self = l.Href
					}
				}
			}
			if link != tt.wantBase+"/news" || self != tt.wantBase+"/news.xml" {
				t.Errorf("channel link %q, atom self link %q; want %q and %q", link, self, tt.wantBase+"/news", tt.wantBase+"/news.xml")
			}
			want := e.list(t)
			if len(feed.Channel.Items) != len(want) {
				t.Fatalf("%d items, want one per article (%d)", len(feed.Channel.Items), len(want))
			}
			snap := e.hub.Current()
			for i, item := range feed.Channel.Items {
				a := want[i]
				link := tt.wantBase + "/news/" + url.PathEscape(a.ID)
				if item.Title != a.Title {
					t.Errorf("item %d title = %q, want %q", i, item.Title, a.Title)
				}
				if item.Link != link || item.GUID != link {
					t.Errorf("item %d link %q guid %q, want %q", i, item.Link, item.GUID, link)
				}
				pub, err := time.Parse(time.RFC1123Z, item.PubDate)
				if err != nil || !pub.Equal(a.Date.Truncate(time.Second)) {
					t.Errorf("item %d pubDate = %q (%v), want %v in RFC 1123", i, item.PubDate, err, a.Date)
				}
				rendered, _ := snap.Article(a.ID)
				if item.Description != rendered.HTML {
					t.Errorf("item %d description = %q, want the article's HTML %q", i, item.Description, rendered.HTML)
				}
			}
		})
	}
}

type sitemap struct {
	URLs []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	} `xml:"url"`
}

func TestSitemap(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.put(t, testArticle)
	res, body := e.get(t, "/sitemap.xml")
	checkAnswer(t, res, body, http.StatusOK, "application/xml")
	var sm sitemap
	if err := xml.Unmarshal([]byte(body), &sm); err != nil {
		t.Fatalf("the sitemap is not XML: %v\n%s", err, body)
	}
	got := map[string]string{}
	for _, u := range sm.URLs {
		if _, dup := got[u.Loc]; dup {
			t.Errorf("%s is listed twice", u.Loc)
		}
		got[u.Loc] = u.LastMod
	}
	// The routes of the spec's route list that have a page, the pit display and the follow page.
	routes := []string{"/", "/about", "/contact", "/news", "/outreach", "/sponsors", "/donate", "/reefscape", "/crescendo", "/whattimeisit", "/rebuilt", "/pit", "/follow"}
	for _, r := range routes {
		if _, ok := got[testSiteURL+r]; !ok {
			t.Errorf("route %s is missing", r)
		}
	}
	articles := e.list(t)
	for _, a := range articles {
		loc := testSiteURL + "/news/" + a.ID
		lastmod, ok := got[loc]
		if !ok {
			t.Errorf("article %s is missing", a.ID)
			continue
		}
		if want := a.Date.Format("2006-01-02"); lastmod != want {
			t.Errorf("article %s lastmod = %q, want %q", a.ID, lastmod, want)
		}
	}
	if len(got) != len(routes)+len(articles) {
		t.Errorf("%d URLs, want %d routes and %d articles", len(got), len(routes), len(articles))
	}
}

func TestRobots(t *testing.T) {
	e := newEnv(t, envConfig{noRun: true})
	res, body := e.get(t, "/robots.txt")
	checkAnswer(t, res, body, http.StatusOK, "text/plain")
	lines := strings.Split(body, "\n")
	if !slices.Contains(lines, "Sitemap: "+testSiteURL+"/sitemap.xml") {
		t.Errorf("robots.txt does not name the sitemap:\n%s", body)
	}
	if !slices.Contains(lines, "User-agent: *") || !slices.Contains(lines, "Disallow: /api/") {
		t.Errorf("robots.txt lacks the user agent or the API rule:\n%s", body)
	}
}

func TestPageHead(t *testing.T) {
	e := newEnv(t, envConfig{})
	long := news.Article{
		ID:      "a-long-story",
		Title:   "A long story",
		Date:    time.Date(2026, 2, 1, 9, 30, 0, 0, time.UTC),
		Content: "## The build\n\n" + strings.Repeat("The robot drove over the bump again and again. ", 20),
	}
	evil := news.Article{
		ID:      "evil",
		Title:   `</title><script>alert(1)</script>`,
		Date:    time.Date(2026, 2, 2, 9, 30, 0, 0, time.UTC),
		Content: `A "quoted" <b>word</b> & more`,
	}
	for _, a := range []news.Article{testArticle, long, evil} {
		e.put(t, a)
	}

	tests := []struct {
		name, path      string
		wantTitle       string
		wantDescription string // a prefix
		wantType        string
		wantPublished   string
	}{
		{name: "home", path: "/", wantTitle: "RoboHornets - Home", wantDescription: "FIRST Robotics Competition Team 1209", wantType: "website"},
		{name: "news list", path: "/news", wantTitle: "RoboHornets - News", wantDescription: "The latest news and updates from the team.", wantType: "website"},
		{name: "about", path: "/about", wantTitle: "RoboHornets - About", wantDescription: "FIRST Robotics Competition Team 1209", wantType: "website"},
		{
			name: "article", path: "/news/" + testArticle.ID,
			wantTitle:       testArticle.Title + " - RoboHornets",
			wantDescription: "Java the Hutt took first place at the Tulsa regional. Thanks to every sponsor.",
			wantType:        "article",
			wantPublished:   testArticle.Date.Format(time.RFC3339),
		},
		{name: "long article", path: "/news/" + long.ID, wantTitle: long.Title + " - RoboHornets", wantDescription: "The build The robot drove over the bump", wantType: "article", wantPublished: "2026-02-01T09:30:00Z"},
		{name: "markup in the title", path: "/news/evil", wantTitle: evil.Title + " - RoboHornets", wantDescription: `A "quoted"`, wantType: "article", wantPublished: "2026-02-02T09:30:00Z"},
		{name: "missing article", path: "/news/nope", wantTitle: "RoboHornets - News", wantDescription: "The latest news and updates from the team.", wantType: "website"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := e.get(t, tt.path)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status = %d", res.StatusCode)
			}
			if strings.Contains(body, "<script>alert(1)") || strings.Contains(body, "<b>word") {
				t.Fatalf("article text reached the page unescaped:\n%s", body)
			}
			h := parseHead(t, body)
			if got := html.UnescapeString(h.Title); got != tt.wantTitle {
				t.Errorf("title = %q, want %q", got, tt.wantTitle)
			}
			desc := html.UnescapeString(h.Meta["description"])
			if !strings.HasPrefix(desc, tt.wantDescription) {
				t.Errorf("description = %q, want it to start with %q", desc, tt.wantDescription)
			}
			if n := utf8.RuneCountInString(desc); n > 161 {
				t.Errorf("description has %d characters, want at most 160 and an ellipsis", n)
			}
			if strings.ContainsAny(desc, "#*[]") {
				t.Errorf("description %q keeps markdown syntax", desc)
			}
			if got := html.UnescapeString(h.Meta["og:title"]); got != tt.wantTitle {
				t.Errorf("og:title = %q, want %q", got, tt.wantTitle)
			}
			if got := html.UnescapeString(h.Meta["og:description"]); got != desc {
				t.Errorf("og:description = %q, want the description %q", got, desc)
			}
			if got := h.Meta["og:type"]; got != tt.wantType {
				t.Errorf("og:type = %q, want %q", got, tt.wantType)
			}
			if got := h.Meta["article:published_time"]; got != tt.wantPublished {
				t.Errorf("article:published_time = %q, want %q", got, tt.wantPublished)
			}
			if want := testSiteURL + tt.path; h.Meta["og:url"] != want || h.Link["canonical"] != want {
				t.Errorf("og:url %q canonical %q, want %q", h.Meta["og:url"], h.Link["canonical"], want)
			}
		})
	}

	t.Run("the banner picture is preloaded on the pages with the banner only", func(t *testing.T) {
		const preload = `<link rel="preload" as="image" href="/assets/banner-1-abc.svg" fetchpriority="high" />`
		paths := []string{"/news/" + testArticle.ID, "/news/nope", "/no-such-page"}
		for _, r := range spec.Routes {
			paths = append(paths, r.Path)
		}
		for _, path := range paths {
			_, body := e.get(t, path)
			route, _ := spec.RouteByPath(path)
			if got := strings.Count(body, preload); got != map[bool]int{true: 1}[route.Banner] {
				t.Errorf("%s (banner %t): the preload %d times in\n%s", path, route.Banner, got, body)
			}
		}
	})

	t.Run("long description is cut at a word with an ellipsis", func(t *testing.T) {
		_, body := e.get(t, "/news/"+long.ID)
		desc := html.UnescapeString(parseHead(t, body).Meta["description"])
		if !strings.HasSuffix(desc, "…") {
			t.Errorf("description %q does not end with an ellipsis", desc)
		}
		words := strings.Fields(strings.TrimSuffix(desc, "…"))
		if last := words[len(words)-1]; !strings.Contains(long.Content, last+" ") && !strings.Contains(long.Content, last+".") {
			t.Errorf("description ends inside a word: %q", last)
		}
	})

	t.Run("the title follows an edit", func(t *testing.T) {
		edited := testArticle
		edited.Title = "Robot wins the regional again"
		e.put(t, edited)
		_, body := e.get(t, "/news/"+testArticle.ID)
		if got := html.UnescapeString(parseHead(t, body).Title); got != edited.Title+" - RoboHornets" {
			t.Errorf("title = %q after the edit", got)
		}
	})
}

// TestLinksComeFromConfigurationOnly: the feed, the sitemap, robots.txt and
// the pages' canonical and Open Graph links are kept by caches, so a request
// naming another host or scheme must not change them.
func TestLinksComeFromConfigurationOnly(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.put(t, testArticle)
	hostile := http.Header{
		"X-Forwarded-Host":  {"evil.example"},
		"X-Forwarded-Proto": {"gopher"},
		"Forwarded":         {"host=evil.example;proto=gopher"},
	}
	for _, target := range []string{"/news.xml", "/sitemap.xml", "/robots.txt", "/", "/news", "/news/" + testArticle.ID} {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Host = "evil.example"
		maps.Copy(req.Header, hostile)
		w := httptest.NewRecorder()
		e.handler.ServeHTTP(w, req)
		body := w.Body.String()
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d", target, w.Code)
		}
		if strings.Contains(body, "evil.example") || strings.Contains(body, "gopher") {
			t.Errorf("%s takes its links from the request:\n%.400s", target, body)
		}
		if !strings.Contains(body, testSiteURL) {
			t.Errorf("%s has no link to %s:\n%.400s", target, testSiteURL, body)
		}
	}
}
