package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/robohornets/robohornets/internal/docstore"
)

// errNoRevision means a post has no revision with the requested number.
var errNoRevision = errors.New("no such revision")

// revisionReaders bounds the revisions read at once for a list: a post
// saved every few seconds by autosave has hundreds, and each is one read.
const revisionReaders = 8

// revisionID is the id of revision n of post id in collRevisions; six
// digits keep a post's revisions in order by id.
func revisionID(id string, n int) string {
	return fmt.Sprintf("%s.%06d", id, n)
}

// revision returns revision n of the post d. The latest one is also in d
// itself, which stands in for it where an older version of the console
// failed to keep it.
func (c *Console) revision(ctx context.Context, d postDoc, n int) (Revision, error) {
	if n < 1 || n > d.N {
		return Revision{}, fmt.Errorf("%w: %d of post %q", errNoRevision, n, d.ID)
	}
	var rev Revision
	err := readDoc(ctx, c.opts.DB, collRevisions, revisionID(d.ID, n), fmt.Sprintf("revision %d of post %q", n, d.ID), &rev)
	switch {
	case errors.Is(err, docstore.ErrNotFound) && n == d.N:
		return d.Revision, nil
	case errors.Is(err, docstore.ErrNotFound):
		return Revision{}, fmt.Errorf("%w: %d of post %q is missing from the store", errNoRevision, n, d.ID)
	case err != nil:
		return Revision{}, err
	}
	return rev, nil
}

// serveListRevisions answers GET /admin/api/posts/{id}/revisions: every
// revision, newest first, without content. An article the console has not
// edited yet has none.
func (c *Console) serveListRevisions(w http.ResponseWriter, r *http.Request, _ Member) error {
	d, _, err := c.loadPost(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	revs := make([]Revision, d.N)
	errs := make([]error, d.N)
	sem := make(chan struct{}, revisionReaders)
	var wg sync.WaitGroup
	for i := range revs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			revs[i], errs[i] = c.revision(r.Context(), d, d.N-i)
			revs[i].Content = ""
		})
	}
	wg.Wait()
	kept := revs[:0]
	for i, rev := range revs {
		switch {
		case errors.Is(errs[i], errNoRevision):
			c.opts.Logger.Error("console: list revisions", "err", errs[i])
		case errs[i] != nil:
			return errs[i]
		default:
			kept = append(kept, rev)
		}
	}
	writeJSON(w, http.StatusOK, kept)
	return nil
}

// requestedRevision returns the revision {n} of the post {id} of the
// request's path.
func (c *Console) requestedRevision(r *http.Request) (Revision, error) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		return Revision{}, fmt.Errorf("%w: %q is not a revision number", errNoRevision, r.PathValue("n"))
	}
	d, _, err := c.loadPost(r.Context(), r.PathValue("id"))
	if err != nil {
		return Revision{}, err
	}
	return c.revision(r.Context(), d, n)
}

// serveGetRevision answers GET /admin/api/posts/{id}/revisions/{n}: the
// revision with its content.
func (c *Console) serveGetRevision(w http.ResponseWriter, r *http.Request, _ Member) error {
	rev, err := c.requestedRevision(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, rev)
	return nil
}

// serveRestore answers POST /admin/api/posts/{id}/revisions/{n}/restore: a
// new revision with the fields of revision n ("restored from n"); none is
// lost. It does not publish: a published post then shows as changed.
func (c *Console) serveRestore(w http.ResponseWriter, r *http.Request, m Member, s Save) error {
	old, err := c.requestedRevision(r)
	if err != nil {
		return err
	}
	s.PostFields = old.PostFields // what a conflict shows as the editor's own
	id := r.PathValue("id")
	d, err := c.change(r, id, s, m, func(Revision) (Revision, error) {
		return Revision{PostFields: old.PostFields, Note: fmt.Sprintf("restored from %d", old.N)}, nil
	}, func(d postDoc) (string, string) {
		return "restore post", fmt.Sprintf("%s v%d from v%d", id, d.N, old.N)
	})
	if err != nil {
		return err
	}
	return c.answerPost(w, r, d)
}
