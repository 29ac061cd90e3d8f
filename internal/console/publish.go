package console

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/robohornets/robohornets/internal/news"
)

// servePublish answers POST /admin/api/posts/{id}/publish: the post's
// latest revision goes to the news store dated Save.At, or now when At is
// zero. A date to come schedules it: the news hub of every instance shows
// it from that moment, with no one in the console. Publishing makes a
// revision ("published" or "scheduled") with that date, and its audit
// entry in the same transaction, before the news store is written (a
// store apart): when that write fails, the editor is asked to publish
// again, which writes the news store without a second revision or entry.
func (c *Console) servePublish(w http.ResponseWriter, r *http.Request, m Member, s Save) error {
	now := c.opts.Clock.Now()
	at := s.At
	if at.IsZero() {
		at = now
	}
	note, action := "published", "publish post"
	if at.Truncate(time.Second).After(now) {
		note, action = "scheduled", "schedule post"
	}
	id := r.PathValue("id")
	d, err := c.change(r, id, s, m, func(cur Revision) (Revision, error) {
		f := cur.PostFields
		f.Date = at
		return Revision{PostFields: f, Note: note}, nil
	}, func(d postDoc) (string, string) {
		return action, fmt.Sprintf("%s v%d at %s", id, d.N, d.Date.Format(time.RFC3339))
	})
	if err != nil {
		return err
	}
	if err := c.opts.News.Put(r.Context(), news.Article{ID: d.ID, Title: d.Title, Date: d.Date, Content: d.Content}); err != nil {
		return c.unavailable(fmt.Sprintf("Version %d is saved, but the news store could not be written, so it is not on the site yet; publish again in a moment.", d.N),
			"console: publish", "post", id, "err", err)
	}
	return c.answerPost(w, r, d)
}

// serveUnpublish answers POST /admin/api/posts/{id}/unpublish: the article
// leaves the news store (and every screen); the post stays, a draft, with
// a revision "unpublished".
func (c *Console) serveUnpublish(w http.ResponseWriter, r *http.Request, m Member, s Save) error {
	id := r.PathValue("id")
	d, err := c.change(r, id, s, m, func(cur Revision) (Revision, error) {
		return Revision{PostFields: cur.PostFields, Note: "unpublished"}, nil
	}, func(postDoc) (string, string) { return "unpublish post", id })
	if err != nil {
		return err
	}
	if err := c.opts.News.Delete(r.Context(), id); err != nil && !errors.Is(err, news.ErrNotFound) {
		return c.unavailable("The news store could not be written, so the post is still on the site; unpublish again in a moment.",
			"console: unpublish", "post", id, "err", err)
	}
	return c.answerPost(w, r, d)
}
