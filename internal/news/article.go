// Package news holds the team's news: the Article type, the stores that keep
// articles (a local directory or Firestore), markdown rendering, and the Hub
// that fans one live store subscription out to every viewer.
package news

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
)

// Article is one news article as the stores keep it: the fields of docs/SPEC.md section 3.
type Article struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Date    time.Time `json:"date"`
	Content string    `json:"content"`
}

// Rendered is an article with what the Hub derives from it: the whole
// content and its preview as safe HTML. Its JSON is the article's fields
// plus html and preview, the shape the pages read.
type Rendered struct {
	Article
	HTML    string `json:"html"`
	Preview string `json:"preview"`
}

// Store keeps articles. Implementations are safe for concurrent use.
type Store interface {
	// Watch calls fn with the whole article list, in no particular order,
	// now and after every change, until ctx ends, the store fails for good,
	// or it can no longer reach the store (an error wrapping ErrUnreachable,
	// after which it may be called again at once); it returns the reason.
	// The slices passed to fn are not reused by the store.
	Watch(ctx context.Context, fn func([]Article)) error
	// List returns every article, in no particular order (SortNewestFirst
	// is the one order of the site).
	List(ctx context.Context) ([]Article, error)
	// Get returns one article, or an error wrapping ErrNotFound.
	Get(ctx context.Context, id string) (Article, error)
	// Put creates or replaces the article with a.ID.
	Put(ctx context.Context, a Article) error
	// Delete removes an article, or returns an error wrapping ErrNotFound.
	Delete(ctx context.Context, id string) error
	// Close releases the store's resources.
	Close() error
}

var (
	// ErrNotFound means no article has the requested id.
	ErrNotFound = errors.New("no such article")
	// ErrInvalidID means an id breaks the rules of ValidateID.
	ErrInvalidID = errors.New("invalid article id")
	// ErrInvalidArticle means an article lacks a title or a date.
	ErrInvalidArticle = errors.New("invalid article")
)

// MaxIDBytes is Firestore's limit on the size of a document id.
const MaxIDBytes = docstore.MaxIDBytes

// ValidateID reports whether id may name an article, by Firestore's rules for
// document ids (docstore.ValidateFirestoreID).
func ValidateID(id string) error {
	return docstore.ValidateFirestoreID(id, ErrInvalidID)
}

// maxFileIDBytes keeps "<id>.md" within the 255-byte file name limit of
// common file systems.
const maxFileIDBytes = 250

// FileName returns the file name "<id>.md" of an article, for the local
// store and for export. It is stricter than ValidateID: the name must also be
// short enough for common file systems, not hidden and free of NUL and
// backslash (docstore.ValidateFileID).
func FileName(id string) (string, error) {
	if err := docstore.ValidateFileID(id, maxFileIDBytes, ErrInvalidID); err != nil {
		return "", err
	}
	return id + ".md", nil
}

// Validate reports whether a can be stored: a valid id, a title and a date.
func (a Article) Validate() error {
	if err := ValidateID(a.ID); err != nil {
		return err
	}
	if a.Title == "" {
		return fmt.Errorf("%w %q: no title", ErrInvalidArticle, a.ID)
	}
	if a.Date.IsZero() {
		return fmt.Errorf("%w %q: no date", ErrInvalidArticle, a.ID)
	}
	return nil
}

// SortNewestFirst orders articles by date, newest first, then by id so the
// order is stable for articles of the same date. It is the site's one order:
// the Hub's snapshots and the news command's list use it.
func SortNewestFirst[A interface{ article() Article }](articles []A) {
	slices.SortFunc(articles, func(x, y A) int {
		a, b := x.article(), y.article()
		if c := b.Date.Compare(a.Date); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

func (a Article) article() Article { return a }

// maxSlugBytes keeps ids made from titles short enough for URLs and file names.
const maxSlugBytes = 80

// Slug makes an article id from a title: lower-case letters and digits
// joined by dashes, like "build-season-by-the-numbers".
func Slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= maxSlugBytes {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "article"
	}
	return b.String()
}
