package console

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/docstore"
)

// unreachableBlobs is a store whose blobs cannot be read.
type unreachableBlobs struct{ docstore.DB }

func (unreachableBlobs) GetBlob(context.Context, string) ([]byte, error) {
	return nil, errors.New("dial tcp: connection refused at /secret/path")
}

func TestMediaHandler(t *testing.T) {
	f := newContentFixture(t)
	const name = "0123456789abcdef0123456789abcdef.png"
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	if err := f.db.PutBlob(t.Context(), name, png); err != nil {
		t.Fatal(err)
	}
	if err := f.db.PutBlob(t.Context(), "0123456789ABCDEF0123456789ABCDEF.png", png); err != nil {
		t.Fatal(err)
	}
	h := MediaHandler(f.db)
	get := func(path string, header ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}

	w := get("/media/" + name)
	want := map[string]string{
		"Content-Type":           "image/png",
		"Cache-Control":          "public, max-age=31536000, immutable",
		"X-Content-Type-Options": "nosniff",
		"Etag":                   `"` + name + `"`,
	}
	if w.Code != http.StatusOK || w.Body.String() != string(png) {
		t.Errorf("GET: %d %q", w.Code, w.Body)
	}
	for k, v := range want {
		if got := w.Header().Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if w := get("/media/"+name, "If-None-Match", `"`+name+`"`); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d, %d bytes; want 304, none", w.Code, w.Body.Len())
	}
	if w := get("/media/"+name, "If-None-Match", `"other"`); w.Code != http.StatusOK {
		t.Errorf("other If-None-Match: %d, want 200", w.Code)
	}

	for _, bad := range []string{
		"0123456789ABCDEF0123456789ABCDEF.png", // stored, but not a name the console makes
		"0123456789abcdef0123456789abcde.png",
		"0123456789abcdef0123456789abcdef0.png",
		"0123456789abcdef0123456789abcdef.gif",
		"0123456789abcdef0123456789abcdef.png.html",
		"0123456789abcdef0123456789abcdef",
		"..%2f..%2fetc%2fpasswd",
		"ffffffffffffffffffffffffffffffff.jpg", // well formed, not stored
	} {
		if w := get("/media/" + bad); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, w.Code)
		}
	}
	r := httptest.NewRequest("POST", "/media/"+name, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", rec.Code)
	}

	rec = httptest.NewRecorder()
	MediaHandler(unreachableBlobs{f.db}).ServeHTTP(rec, httptest.NewRequest("GET", "/media/"+name, nil))
	if rec.Code != http.StatusServiceUnavailable || strings.Contains(rec.Body.String(), "secret") || rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("store down: %d %q cache %q", rec.Code, rec.Body, rec.Header().Get("Cache-Control"))
	}
}
