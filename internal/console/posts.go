package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/news"
)

// Limits of a post's fields, so a post and each of its revisions stay one
// document of the store (docstore.MaxDocBytes) with room for JSON escapes.
const (
	// MaxTitleRunes bounds a post's title.
	MaxTitleRunes = 200
	// MaxContentBytes bounds a post's markdown; photos are stored apart
	// (POST /admin/api/photos) and only linked from it.
	MaxContentBytes = 256 << 10
)

// noteSaved is the note of a revision an editor saved (Revision.Note).
const noteSaved = "saved"

// maxSlugTries bounds the search for a free id: after "title-2" …
// "title-99" are taken, the editor is asked for another title.
const maxSlugTries = 99

var (
	// errNoPost means no post (and no article of the news store) has the id.
	errNoPost = errors.New("no such post")
	// errInvalidPost means the fields of a save break a rule; its text says which.
	errInvalidPost = errors.New("invalid post")
)

// conflictError is a change refused because it was based on an old version
// of the post; theirs is the post as it is now, yours what the editor sent.
type conflictError struct {
	theirs postDoc
	yours  PostFields
}

func (e *conflictError) Error() string {
	return fmt.Sprintf("post %q is at version %d, saved by %s", e.theirs.ID, e.theirs.N, e.theirs.By)
}

// postDoc is a post as collPosts keeps it: its id and its latest revision,
// whose number is the post's version. Each revision is also kept on its own
// in collRevisions, written in the same transaction as the post; the post
// document stands in for its latest one where an older version of the
// console failed to keep it.
type postDoc struct {
	ID string `json:"id"`
	Revision
}

// editorRoute is a route for members of role editor and up, before the
// session check that contentRoutes puts around it.
type editorRoute struct {
	pattern string
	handler memberHandler
}

// editorRoutes are the content routes of the console: posts and their
// revisions, publishing, preview, photos and the pit notice.
func (c *Console) editorRoutes() []editorRoute {
	return []editorRoute{
		{"GET /admin/api/posts", c.serveListPosts},
		{"POST /admin/api/posts", withBody(c.serveCreatePost)},
		{"GET /admin/api/posts/{id}", c.serveGetPost},
		{"PUT /admin/api/posts/{id}", withBody(c.serveSavePost)},
		{"GET /admin/api/posts/{id}/revisions", c.serveListRevisions},
		{"GET /admin/api/posts/{id}/revisions/{n}", c.serveGetRevision},
		{"POST /admin/api/posts/{id}/revisions/{n}/restore", withBody(c.serveRestore)},
		{"POST /admin/api/posts/{id}/publish", withBody(c.servePublish)},
		{"POST /admin/api/posts/{id}/unpublish", withBody(c.serveUnpublish)},
		{"POST /admin/api/preview", withBody(c.servePreview)},
		{"POST /admin/api/photos", c.serveUploadPhoto},
		{"GET /admin/api/notice", c.serveGetNotice},
		{"PUT /admin/api/notice", withBody(c.servePutNotice)},
		{"DELETE /admin/api/notice", c.serveDeleteNotice},
	}
}

// contentRoutes are the editorRoutes, each open to editors and admins
// only. failPost answers their failures; requireRole those of the session.
func (c *Console) contentRoutes() []route {
	var routes []route
	for _, e := range c.editorRoutes() {
		routes = append(routes, route{pattern: e.pattern, handler: c.requireRole(RoleEditor, func(w http.ResponseWriter, r *http.Request, m Member) error {
			if err := e.handler(w, r, m); err != nil {
				c.failPost(w, r, err)
			}
			return nil
		})})
	}
	return routes
}

// memberName is how revisions and posts name who changed them.
func memberName(m Member) string {
	if m.Name != "" {
		return m.Name
	}
	return m.ID
}

// normalize gives fields the form the news store reads back unchanged, so
// a post and its published article compare equal: a trimmed title, a date
// to the second, and content with "\n" line ends and no leading blank lines
// (an article file drops them).
func normalize(f PostFields) PostFields {
	f.Title = strings.TrimSpace(f.Title)
	f.Date = f.Date.Truncate(time.Second)
	f.Content = strings.ReplaceAll(strings.ReplaceAll(f.Content, "\r\n", "\n"), "\r", "\n")
	f.Content = strings.TrimLeft(f.Content, "\n")
	return f
}

// validate reports, in a sentence an editor can act on, what is wrong with
// fields (already normalized).
func validate(f PostFields) error {
	// The title is shown as one line on the site, the news feed and the pit
	// display, like a pit notice.
	titleErr := lineError(f.Title, MaxTitleRunes, "the title", "a title")
	switch {
	case f.Title == "":
		return fmt.Errorf("%w: a post needs a title", errInvalidPost)
	case utf8.RuneCountInString(f.Title) > MaxTitleRunes:
		return fmt.Errorf("%w: the title is longer than %d characters", errInvalidPost, MaxTitleRunes)
	case titleErr != nil && utf8.ValidString(f.Title): // bad UTF-8 is said below, for both
		return fmt.Errorf("%w: %w", errInvalidPost, titleErr)
	case f.Date.IsZero():
		return fmt.Errorf("%w: a post needs a date", errInvalidPost)
	case len(f.Content) > MaxContentBytes:
		return fmt.Errorf("%w: the text is %d bytes, more than %d (put photos in with the photo button, not inline)", errInvalidPost, len(f.Content), MaxContentBytes)
	case !utf8.ValidString(f.Title) || !utf8.ValidString(f.Content):
		return fmt.Errorf("%w: the text is not valid UTF-8", errInvalidPost)
	}
	return nil
}

// sameFields reports whether a and b show the same thing.
func sameFields(a, b PostFields) bool {
	a, b = normalize(a), normalize(b)
	return a.Title == b.Title && a.Date.Equal(b.Date) && a.Content == b.Content
}

// articleFields are the fields of an article of the news store.
func articleFields(a news.Article) PostFields {
	return PostFields{Title: a.Title, Date: a.Date, Content: a.Content}
}

// wirePost is d as the API shows it, its status told by the article of the
// news store with its id (nil: none). Content is left out of lists.
func (c *Console) wirePost(d postDoc, a *news.Article, withContent bool) Post {
	p := Post{ID: d.ID, PostFields: d.PostFields, Version: d.N, Status: StatusDraft, UpdatedAt: d.At, UpdatedBy: d.By}
	if a != nil {
		p.Status = StatusPublished
		if a.Date.After(c.opts.Clock.Now()) {
			p.Status = StatusScheduled
		}
		p.Changed = !sameFields(d.PostFields, articleFields(*a))
	}
	if !withContent {
		p.Content = ""
	}
	return p
}

// legacyDoc is an article that the news command wrote, as the revision 1
// of the post that editing it creates, made at.
func legacyDoc(a news.Article, at time.Time) postDoc {
	return postDoc{ID: a.ID, Revision: Revision{N: 1, PostFields: normalize(articleFields(a)), At: at, Note: "from the site"}}
}

// article returns the article of the news store with id, or nil.
func (c *Console) article(ctx context.Context, id string) (*news.Article, error) {
	a, err := c.opts.News.Get(ctx, id)
	if errors.Is(err, news.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("console: read article %q: %w", id, err)
	}
	return &a, nil
}

// loadPost returns the post with id: its document, or for an article with
// no post yet (written by the news command) the post that editing it would
// create, with version 0. Either way also the article, or nil.
func (c *Console) loadPost(ctx context.Context, id string) (postDoc, *news.Article, error) {
	if err := news.ValidateID(id); err != nil {
		return postDoc{}, nil, fmt.Errorf("%w: %v", errNoPost, err)
	}
	a, err := c.article(ctx, id)
	if err != nil {
		return postDoc{}, nil, err
	}
	var d postDoc
	err = readDoc(ctx, c.opts.DB, collPosts, id, fmt.Sprintf("post %q", id), &d)
	switch {
	case errors.Is(err, docstore.ErrNotFound) && a != nil:
		d = legacyDoc(*a, a.Date)
		d.N = 0
		return d, a, nil
	case errors.Is(err, docstore.ErrNotFound):
		return postDoc{}, nil, fmt.Errorf("%w: %q", errNoPost, id)
	case err != nil:
		return postDoc{}, nil, err
	}
	return d, a, nil
}

// change makes the next revision of post id, as next derives it from the
// latest one, when s.BaseVersion is the post's version (0 for an article
// with no post yet, whose revision 1 is then the article as it is), and
// records it in the audit log as m doing what audit says of it. A save
// that changes no field, or a change repeating the latest one (same fields
// and note), makes no revision and returns the post as it is, whatever the
// base says: a save retried after its answer was lost is not a conflict.
// Otherwise a base that is not the version is refused with a
// *conflictError, which shows the editor s.PostFields as yours. The post,
// its revision and the audit entry are written in one transaction, which
// checks the version, so two instances saving at once cannot both win,
// and a change is never made without its entry.
func (c *Console) change(r *http.Request, id string, s Save, m Member, next func(cur Revision) (Revision, error), audit func(d postDoc) (action, target string)) (postDoc, error) {
	if err := news.ValidateID(id); err != nil {
		return postDoc{}, fmt.Errorf("%w: %v", errNoPost, err)
	}
	ctx := r.Context()
	var out postDoc
	err := c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
		var d postDoc
		version, legacy := 0, false
		cur, err := tx.Get(collPosts, id)
		switch {
		case err == nil:
			if err := json.Unmarshal(cur, &d); err != nil {
				return fmt.Errorf("console: post %q: %w", id, err)
			}
			version = d.N
		case errors.Is(err, docstore.ErrNotFound):
			a, err := c.article(ctx, id)
			if err != nil {
				return err
			}
			if a == nil {
				return fmt.Errorf("%w: %q", errNoPost, id)
			}
			// Revision 1, made from the article; the post had version 0.
			d, legacy = legacyDoc(*a, c.opts.Clock.Now()), true
		default:
			return err
		}
		rev, err := next(d.Revision)
		if err != nil {
			return err
		}
		rev.PostFields = normalize(rev.PostFields)
		if err := validate(rev.PostFields); err != nil {
			return err
		}
		switch {
		case sameFields(rev.PostFields, d.PostFields) && (rev.Note == noteSaved || rev.Note == d.Note):
			out = d
			if !legacy {
				return nil
			}
		case version != s.BaseVersion:
			theirs := d
			theirs.N = version
			return &conflictError{theirs: theirs, yours: s.PostFields}
		default:
			rev.N, rev.By, rev.At = d.N+1, memberName(m), c.opts.Clock.Now()
			out = postDoc{ID: id, Revision: rev}
		}
		// A revision is never replaced: the version read above is the one
		// before out's in every transaction that writes out's revision.
		if legacy && out.N > 1 {
			if err := stage(tx.Put, collRevisions, revisionID(id, d.N), d.Revision); err != nil {
				return err
			}
		}
		if err := stage(tx.Put, collRevisions, revisionID(id, out.N), out.Revision); err != nil {
			return err
		}
		if err := stage(tx.Put, collPosts, id, out); err != nil {
			return err
		}
		action, target := audit(out)
		return c.auditIn(tx, r, m, action, target)
	})
	if err != nil {
		var conflict *conflictError
		if errors.Is(err, errInvalidPost) || errors.Is(err, errNoPost) || errors.As(err, &conflict) {
			return postDoc{}, err
		}
		return postDoc{}, fmt.Errorf("console: save post %q: %w", id, err)
	}
	return out, nil
}

// errIDTaken means a post already has the id freeID tries.
var errIDTaken = errors.New("post id taken")

// freeID creates the post that doc makes of an id made from title that no
// post and no article has: news.Slug(title), then with -2, -3… With it,
// its first revision and the audit entry of m creating it, in one
// transaction. Two editors creating "Kickoff" at once get kickoff and
// kickoff-2.
func (c *Console) freeID(r *http.Request, m Member, title string, doc func(id string) postDoc) (postDoc, error) {
	ctx := r.Context()
	base := news.Slug(title)
	for n := 1; n <= maxSlugTries; n++ {
		id := base
		if n > 1 {
			id = fmt.Sprintf("%s-%d", base, n)
		}
		a, err := c.article(ctx, id)
		if err != nil {
			return postDoc{}, err
		}
		if a != nil {
			continue
		}
		d := doc(id)
		err = c.opts.DB.Tx(ctx, func(tx docstore.Txn) error {
			if _, err := tx.Get(collPosts, id); !errors.Is(err, docstore.ErrNotFound) {
				if err == nil {
					return errIDTaken
				}
				return err
			}
			if err := stage(tx.Create, collPosts, id, d); err != nil {
				return err
			}
			if err := stage(tx.Put, collRevisions, revisionID(id, d.N), d.Revision); err != nil {
				return err
			}
			return c.auditIn(tx, r, m, "create post", id)
		})
		if errors.Is(err, errIDTaken) {
			continue
		}
		if err != nil {
			return postDoc{}, fmt.Errorf("console: create post %q: %w", id, err)
		}
		return d, nil
	}
	return postDoc{}, fmt.Errorf("%w: %d posts already have ids made from this title; choose another title", errInvalidPost, maxSlugTries)
}

// failPost answers err, the failure of a content route: a conflict with
// both versions, the post errors with their status and sentence, any other
// refusal as fail does, and anything else 503 (logged; the answer says no
// more).
func (c *Console) failPost(w http.ResponseWriter, r *http.Request, err error) {
	var conflict *conflictError
	switch {
	case errors.As(err, &conflict):
		a, aerr := c.article(r.Context(), conflict.theirs.ID)
		if aerr != nil {
			c.opts.Logger.Error("console: status of a conflicting post", "post", conflict.theirs.ID, "err", aerr)
		}
		who := conflict.theirs.By
		if who == "" {
			who = "Someone"
		}
		writeJSON(w, http.StatusConflict, Conflict{
			Error:  fmt.Sprintf("%s saved version %d of this post since you opened it; your text was not saved. Both versions are shown: merge them and save again.", who, conflict.theirs.N),
			Theirs: c.wirePost(conflict.theirs, a, true),
			Yours:  conflict.yours,
		})
	case errors.Is(err, errNoPost):
		writeError(w, http.StatusNotFound, fmt.Sprintf("There is no post %q.", r.PathValue("id")))
	case errors.Is(err, errNoRevision):
		writeError(w, http.StatusNotFound, fmt.Sprintf("Post %q has no revision %s.", r.PathValue("id"), r.PathValue("n")))
	case errors.Is(err, errInvalidPost):
		writeError(w, http.StatusBadRequest, brokenRule(err, errInvalidPost))
	case errors.Is(err, docstore.ErrTooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, "The post is too large for the store; shorten the text.")
	default:
		if ae, ok := refusal(err); ok {
			writeError(w, ae.status, ae.msg)
			return
		}
		c.opts.Logger.Error("console: post", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, http.StatusServiceUnavailable, "The store cannot be reached or failed; try again in a moment.")
	}
}

// serveListPosts answers GET /admin/api/posts?q=: every post and every
// article of the news store without one, newest first, without their
// content; q keeps those whose title or content contains it, in any case.
func (c *Console) serveListPosts(w http.ResponseWriter, r *http.Request, _ Member) error {
	ctx := r.Context()
	docs, err := c.opts.DB.List(ctx, collPosts)
	if err != nil {
		return fmt.Errorf("console: list posts: %w", err)
	}
	articles, err := c.opts.News.List(ctx)
	if err != nil {
		return fmt.Errorf("console: list articles: %w", err)
	}
	byID := make(map[string]*news.Article, len(articles))
	for i := range articles {
		byID[articles[i].ID] = &articles[i]
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	matches := func(f PostFields) bool {
		return q == "" || strings.Contains(strings.ToLower(f.Title), q) || strings.Contains(strings.ToLower(f.Content), q)
	}
	posts := make([]Post, 0, len(docs)+len(articles))
	seen := make(map[string]bool, len(docs))
	for _, doc := range docs {
		var d postDoc
		if err := json.Unmarshal(doc.JSON, &d); err != nil {
			c.opts.Logger.Error("console: skipping an unreadable post", "post", doc.ID, "err", err)
			continue
		}
		seen[d.ID] = true
		if matches(d.PostFields) {
			posts = append(posts, c.wirePost(d, byID[d.ID], false))
		}
	}
	for _, a := range articles {
		if !seen[a.ID] && matches(articleFields(a)) {
			d := legacyDoc(a, a.Date)
			d.N = 0
			posts = append(posts, c.wirePost(d, &a, false))
		}
	}
	slices.SortFunc(posts, func(a, b Post) int {
		if c := b.Date.Compare(a.Date); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	writeJSON(w, http.StatusOK, posts)
	return nil
}

// serveCreatePost answers POST /admin/api/posts: a new draft, with an id
// made from its title.
func (c *Console) serveCreatePost(w http.ResponseWriter, r *http.Request, m Member, f PostFields) error {
	f = normalize(f)
	if err := validate(f); err != nil {
		return err
	}
	d, err := c.freeID(r, m, f.Title, func(id string) postDoc {
		return postDoc{ID: id, Revision: Revision{N: 1, PostFields: f, By: memberName(m), At: c.opts.Clock.Now(), Note: "created"}}
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, c.wirePost(d, nil, true))
	return nil
}

// serveGetPost answers GET /admin/api/posts/{id}: the post with its content.
func (c *Console) serveGetPost(w http.ResponseWriter, r *http.Request, _ Member) error {
	d, a, err := c.loadPost(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c.wirePost(d, a, true))
	return nil
}

// serveSavePost answers PUT /admin/api/posts/{id}: a new revision with the
// fields of the Save, or 409 with both versions when it was based on an
// old one.
func (c *Console) serveSavePost(w http.ResponseWriter, r *http.Request, m Member, s Save) error {
	id := r.PathValue("id")
	// An autosave of unchanged text makes no revision, and no entry.
	d, err := c.change(r, id, s, m, func(Revision) (Revision, error) {
		return Revision{PostFields: s.PostFields, Note: noteSaved}, nil
	}, func(d postDoc) (string, string) { return "save post", fmt.Sprintf("%s v%d", id, d.N) })
	if err != nil {
		return err
	}
	return c.answerPost(w, r, d)
}

// answerPost sends d after a change, with its status from the news store.
func (c *Console) answerPost(w http.ResponseWriter, r *http.Request, d postDoc) error {
	a, err := c.article(r.Context(), d.ID)
	if err != nil {
		return c.unavailable(fmt.Sprintf("Version %d is saved, but the news store cannot be reached to tell whether it is published; reload in a moment.", d.N),
			"console: status of a saved post", "post", d.ID, "err", err)
	}
	writeJSON(w, http.StatusOK, c.wirePost(d, a, true))
	return nil
}
