package console

import (
	"net/http"
	"strings"
	"testing"
)

func TestPreviewRendersLikeTheSiteAndEscapesHTML(t *testing.T) {
	f := newContentFixture(t)
	var got Preview
	f.must(http.StatusOK, &got, alice, "POST", "/admin/api/preview",
		[]byte(`{"content":"# Hello\r\n\r\n<script>alert(1)</script>\n\n[x](javascript:alert(2)) ![p](/media/0123456789abcdef0123456789abcdef.jpg)"}`))
	for _, want := range []string{"<h1>Hello</h1>", "&lt;script&gt;alert(1)&lt;/script&gt;", `<img src="/media/0123456789abcdef0123456789abcdef.jpg" alt="p">`} {
		if !strings.Contains(got.HTML, want) {
			t.Errorf("preview %q lacks %q", got.HTML, want)
		}
	}
	for _, bad := range []string{"<script", "javascript:"} {
		if strings.Contains(got.HTML, bad) {
			t.Errorf("preview %q contains %q", got.HTML, bad)
		}
	}
	big := `{"content":"` + strings.Repeat("a", MaxBodyBytes) + `"}`
	if w := f.do(alice, "POST", "/admin/api/preview", []byte(big)); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("huge preview: %d, want 413", w.Code)
	}
	long := `{"content":"` + strings.Repeat("a", MaxContentBytes+1) + `"}`
	if w := f.do(alice, "POST", "/admin/api/preview", []byte(long)); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("preview longer than a post: %d, want 413", w.Code)
	}
}
