package server_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/news"
)

var initialScript = regexp.MustCompile(`<script type="application/json" id="(initial-[a-z]+)">([^<]*)</script>`)

// initialData returns the id and text of the page's inline JSON script.
func initialData(t *testing.T, page string) (id, data string) {
	t.Helper()
	m := initialScript.FindAllStringSubmatch(page, -1)
	if len(m) != 1 {
		t.Fatalf("%d inline JSON scripts in the page, want 1:\n%s", len(m), page)
	}
	return m[0][1], m[0][2]
}

func TestPagesCarryTheirInitialData(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.put(t, testArticle)
	hostile := news.Article{ID: "hostile", Title: `</script><script>alert(1)</script>`, Date: testArticle.Date, Content: "<!-- </script> -->"}
	e.put(t, hostile)

	_, list := e.get(t, "/api/news")
	_, page := e.get(t, "/news")
	if id, data := initialData(t, page); id != "initial-news" || data != strings.TrimSpace(list) {
		t.Errorf("/news carries %s %.80q…, want initial-news with the body of /api/news", id, data)
	}
	for _, id := range []string{testArticle.ID, hostile.ID} {
		_, article := e.get(t, "/api/news/"+id)
		_, page := e.get(t, "/news/"+id)
		if got, data := initialData(t, page); got != "initial-article" || data != strings.TrimSpace(article) {
			t.Errorf("/news/%s carries %s %.80q…, want initial-article with the body of /api/news/%s", id, got, data, id)
		}
	}
	for _, path := range []string{"/", "/about", "/news/nope"} {
		if _, page := e.get(t, path); initialScript.MatchString(page) {
			t.Errorf("%s carries inline data; only the news pages have any", path)
		}
	}
}

func TestPagesFollowTheNews(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.put(t, testArticle)
	path := "/news/" + testArticle.ID
	_, before := e.get(t, path)
	_, beforeList := e.get(t, "/news.xml")

	edited := testArticle
	edited.Title = "Robot wins the regional again"
	e.put(t, edited)
	_, after := e.get(t, path)
	_, data, _ := strings.Cut(after, `id="initial-article">`)
	if before == after || !strings.Contains(after, "<title>"+edited.Title) || !strings.Contains(data, edited.Title) {
		t.Errorf("after the edit the page still shows the old article:\n%s", after)
	}
	if _, feed := e.get(t, "/news.xml"); feed == beforeList || !strings.Contains(feed, edited.Title) {
		t.Errorf("after the edit the feed still shows the old article:\n%s", feed)
	}
	if _, list := e.get(t, "/api/news"); !strings.Contains(list, edited.Title) {
		t.Errorf("after the edit /api/news still shows the old article:\n%s", list)
	}
}

func TestMadeResponsesAreCompressed(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.put(t, testArticle)
	for _, path := range []string{"/", "/news", "/news/" + testArticle.ID, "/api/news", "/api/news/" + testArticle.ID, "/news.xml", "/sitemap.xml"} {
		t.Run(path, func(t *testing.T) {
			plainRes, plain := e.get(t, path)
			res, body := e.request(t, http.MethodGet, path, http.Header{"Accept-Encoding": {"br, gzip"}})
			if res.Header.Get("Content-Encoding") != "gzip" {
				if len(plain) >= 512 {
					t.Fatalf("Content-Encoding = %q for a %d-byte body, want gzip", res.Header.Get("Content-Encoding"), len(plain))
				}
				return
			}
			if gunzip(t, body) != plain {
				t.Error("the gzip body is not the plain one")
			}
			if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("Vary = %q, want Accept-Encoding", res.Header.Get("Vary"))
			}
			etag, plainTag := res.Header.Get("ETag"), plainRes.Header.Get("ETag")
			if etag == "" || etag == plainTag {
				t.Errorf("ETag gzip %q, plain %q: want two different tags", etag, plainTag)
			}
			again, _ := e.request(t, http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip"}, "If-None-Match": {etag}})
			if again.StatusCode != http.StatusNotModified {
				t.Errorf("If-None-Match with its ETag: status %d, want 304", again.StatusCode)
			}
		})
	}
}
