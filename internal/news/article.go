// Package news holds the team's news: the Article type, the stores that keep
// articles (a local directory or Firestore), markdown rendering, and the Hub
// that fans one live store subscription out to every viewer.
package news

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Article is one news article. The stores fill ID, Title, Content and Date;
// the Hub adds the rendered HTML and Preview.
type Article struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Date    time.Time `json:"date"`
	Content string    `json:"content"`
	HTML    string    `json:"html"`
	Preview string    `json:"preview"`
}

// Store keeps articles. Implementations are safe for concurrent use.
type Store interface {
	// Watch calls fn with the whole article list now and after every change,
	// until ctx ends or the store fails for good; it then returns the reason.
	// The slices passed to fn are not reused by the store.
	Watch(ctx context.Context, fn func([]Article)) error
	// List returns every article, newest first.
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
const MaxIDBytes = 1500

var reservedID = regexp.MustCompile(`^__.*__$`)

// ValidateID reports whether id may name an article, by Firestore's rules for
// document ids: at most 1500 bytes, no slash, not "." or "..", not __.*__.
func ValidateID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", ErrInvalidID)
	case len(id) > MaxIDBytes:
		return fmt.Errorf("%w: %d bytes, more than %d", ErrInvalidID, len(id), MaxIDBytes)
	case id == "." || id == "..":
		return fmt.Errorf("%w: %q", ErrInvalidID, id)
	case reservedID.MatchString(id):
		return fmt.Errorf("%w: %q matches the reserved form __.*__", ErrInvalidID, id)
	}
	for _, r := range id {
		if r == '/' {
			return fmt.Errorf("%w: %q contains a slash", ErrInvalidID, id)
		}
	}
	return nil
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
// order is stable for articles of the same date.
func SortNewestFirst(articles []Article) {
	sort.Slice(articles, func(i, j int) bool {
		if !articles[i].Date.Equal(articles[j].Date) {
			return articles[i].Date.After(articles[j].Date)
		}
		return articles[i].ID < articles[j].ID
	})
}

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
