package console

import (
	"net/http"

	"github.com/robohornets/robohornets/internal/news"
)

// servePreview answers POST /admin/api/preview {"content": "..."}: the
// markdown rendered by news.Render, the path publishing takes (goldmark,
// then the bluemonday policy), so the editor sees what visitors will. The
// body is bounded by readJSON (withBody); the content by the limit of a post.
func (c *Console) servePreview(w http.ResponseWriter, r *http.Request, _ Member, f PostFields) error {
	f = normalize(f)
	if len(f.Content) > MaxContentBytes {
		return &apiError{http.StatusRequestEntityTooLarge, "The text is longer than a post may be."}
	}
	html, err := news.Render(f.Content)
	if err != nil {
		c.opts.Logger.Error("console: preview", "err", err)
		return &apiError{http.StatusInternalServerError, "The preview could not be rendered."}
	}
	writeJSON(w, http.StatusOK, Preview{HTML: html})
	return nil
}
