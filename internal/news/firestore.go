package news

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/robohornets/robohornets/internal/docstore"
)

// Collection is the Firestore collection that holds the articles.
const Collection = "News"

// writeTimeout bounds every single Firestore write or read.
const writeTimeout = 15 * time.Second

// FirestoreStore keeps articles as documents of the News collection:
// {title: string, content: string, date: timestamp}, document id = article id.
type FirestoreStore struct {
	client  *firestore.Client
	project string
	// link tells Watch when Firestore is lost and when it comes back.
	link *link
	// watchReads counts the documents Watch has received (see WatchReads).
	watchReads atomic.Int64
}

// OpenFirestore opens the store on the client docstore.NewFirestoreClient
// returns, and its link.
func OpenFirestore(ctx context.Context, projectID string) (*FirestoreStore, error) {
	client, err := docstore.NewFirestoreClient(ctx, projectID)
	if err != nil {
		return nil, fmt.Errorf("news: %w", err)
	}
	l, err := newLink()
	if err != nil {
		_ = client.Close()
		return nil, err
	}
	return &FirestoreStore{client: client, project: projectID, link: l}, nil
}

type document struct {
	Title   string    `firestore:"title"`
	Content string    `firestore:"content"`
	Date    time.Time `firestore:"date"`
}

func fromSnapshot(doc *firestore.DocumentSnapshot) (Article, error) {
	var d document
	if err := doc.DataTo(&d); err != nil {
		return Article{}, fmt.Errorf("news: document %s: %w", doc.Ref.ID, err)
	}
	return Article{ID: doc.Ref.ID, Title: d.Title, Content: d.Content, Date: d.Date}, nil
}

func (s *FirestoreStore) articles(docs []*firestore.DocumentSnapshot) []Article {
	list := make([]Article, 0, len(docs))
	for _, doc := range docs {
		a, err := fromSnapshot(doc)
		if err != nil {
			continue // a document of the wrong shape is not news; the rest still is
		}
		list = append(list, a)
	}
	return list
}

// Watch follows the News collection live. The client library retries broken
// streams itself and hides an outage from a listener, so Watch follows
// Firestore's reachability on a link of its own. When the link loses
// Firestore, Watch returns an error wrapping ErrUnreachable, so that the
// news stops claiming to be live; called again, it listens at once, and the
// link tells it of the return. The library's retries back off to a minute
// and more over a long outage, so once Firestore is back Watch does not
// wait for them: it starts a fresh listener at once, on a connection of its
// own. That listener reads the whole list again: one billed read per
// article, once per outage. Otherwise Watch returns only when ctx ends or
// on a permanent error.
func (s *FirestoreStore) Watch(ctx context.Context, fn func([]Article)) error {
	for {
		if err := s.listen(ctx, fn); !errors.Is(err, errFirestoreBack) {
			return err
		}
	}
}

var (
	// errFirestoreLost ends a listener when the link loses Firestore. It
	// says no more than that: the hub's status is shown to people.
	errFirestoreLost = fmt.Errorf("news: firestore is %w", ErrUnreachable)
	// errFirestoreBack ends a listener when Firestore is back after an outage.
	errFirestoreBack = errors.New("news: firestore is back after an outage")
)

// listen runs one listener, on a client of its own, until ctx ends, a
// permanent error, the link losing Firestore (errFirestoreLost) or, when
// it had lost it before, seeing it back (errFirestoreBack).
//
// A listener starts even while the link has lost Firestore: the link only
// hastens what the library does anyway, and never holds the news back if
// it alone cannot connect.
func (s *FirestoreStore) listen(ctx context.Context, fn func([]Article)) error {
	client, err := firestore.NewClient(ctx, s.project)
	if err != nil {
		return fmt.Errorf("news: watch firestore %s: %w", Collection, err)
	}
	defer func() { _ = client.Close() }() // the listener is over; its result is decided
	ctx, cancel := context.WithCancelCause(ctx)
	down := s.link.isDown()
	done := make(chan struct{})
	go func() {
		defer close(done)
		switch {
		case !s.link.await(ctx, !down):
		case down:
			cancel(errFirestoreBack)
		default:
			cancel(errFirestoreLost)
		}
	}()
	defer func() {
		cancel(nil)
		<-done
	}()
	return docstore.ListenFirestore(ctx, client.Collection(Collection).Query, "news: watch firestore "+Collection, func(snap *firestore.QuerySnapshot, docs []*firestore.DocumentSnapshot) error {
		s.watchReads.Add(billedReads(snap.Changes))
		fn(s.articles(docs))
		return nil
	})
}

// WatchReads returns how many documents Watch has received since the store
// was opened. Firestore bills a listener one document read for each of them:
// every document of its first snapshot, then each one added or changed.
func (s *FirestoreStore) WatchReads() int64 { return s.watchReads.Load() }

// billedReads counts the document reads Firestore bills for one snapshot of
// a listener: its added and changed documents. On a whole collection a
// document leaves the results only when it is deleted, which costs no read.
func billedReads(changes []firestore.DocumentChange) int64 {
	var n int64
	for _, c := range changes {
		if c.Kind != firestore.DocumentRemoved {
			n++
		}
	}
	return n
}

// List returns every article, newest first.
func (s *FirestoreStore) List(ctx context.Context) ([]Article, error) {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	docs, err := s.client.Collection(Collection).Documents(ctx).GetAll()
	if err != nil {
		return nil, fmt.Errorf("news: list firestore %s: %w", Collection, err)
	}
	return s.articles(docs), nil
}

// Get returns the article with id.
func (s *FirestoreStore) Get(ctx context.Context, id string) (Article, error) {
	if err := ValidateID(id); err != nil {
		return Article{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	doc, err := s.client.Collection(Collection).Doc(id).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return Article{}, fmt.Errorf("news: %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Article{}, fmt.Errorf("news: get %q: %w", id, err)
	}
	return fromSnapshot(doc)
}

// Put creates or replaces the article a.ID.
func (s *FirestoreStore) Put(ctx context.Context, a Article) error {
	if err := a.Validate(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	_, err := s.client.Collection(Collection).Doc(a.ID).Set(ctx, document{Title: a.Title, Content: a.Content, Date: a.Date})
	if err != nil {
		return fmt.Errorf("news: put %q: %w", a.ID, err)
	}
	return nil
}

// Delete removes the article with id.
func (s *FirestoreStore) Delete(ctx context.Context, id string) error {
	if err := ValidateID(id); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	_, err := s.client.Collection(Collection).Doc(id).Delete(ctx, firestore.Exists)
	if status.Code(err) == codes.NotFound {
		return fmt.Errorf("news: delete %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("news: delete %q: %w", id, err)
	}
	return nil
}

// Close closes the Firestore client and the link.
func (s *FirestoreStore) Close() error { return errors.Join(s.client.Close(), s.link.close()) }
