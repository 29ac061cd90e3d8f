package console

import (
	"net/http"

	"github.com/robohornets/robohornets/internal/news"
)

// servePreview answers POST /admin/api/preview {"content": "..."}: the
// markdown rendered by news.Render, the path publishing takes (goldmark,
// then the bluemonday policy), so the editor sees what visitors will. The
// body is bounded by readJSON; the content by the limit of a post.
func (c *Console) servePreview(w http.ResponseWriter, r *http.Request, _ Member) {
	var f PostFields
	if err := readJSON(w, r, &f); err != nil {
		writeBodyError(w, err)
		return
	}
	f = normalize(f)
	if len(f.Content) > MaxContentBytes {
		writeError(w, http.StatusRequestEntityTooLarge, "The text is longer than a post may be.")
		return
	}
	html, err := news.Render(f.Content)
	if err != nil {
		c.opts.Logger.Error("console: preview", "err", err)
		writeError(w, http.StatusInternalServerError, "The preview could not be rendered.")
		return
	}
	writeJSON(w, http.StatusOK, Preview{HTML: html})
}
