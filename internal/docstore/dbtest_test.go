package docstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// openPair opens two DB values on one new, empty store, as two processes
// sharing it would, and closes them when the test ends.
type openPair func(t *testing.T) (a, b DB)

// waitLimit bounds every wait of these tests for something that should
// happen at once; it is never slept.
const waitLimit = 20 * time.Second

// testDB is the conformance suite every DB passes.
func testDB(t *testing.T, open openPair) {
	tests := []struct {
		name string
		fn   func(*testing.T, DB, DB)
	}{
		{"CRUD", testCRUD},
		{"List", testList},
		{"Update", testUpdate},
		{"Contention", testContention},
		{"Watch", testWatch},
		{"InvalidIDs", testInvalidIDs},
		{"InvalidDocs", testInvalidDocs},
		{"Blobs", testBlobs},
		{"Page", testPage},
		{"Tx", testTx},
		{"TxAborts", testTxAborts},
		{"TxContention", testTxContention},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := open(t)
			tt.fn(t, a, b)
		})
	}
}

// mustOpen returns the store open returns, failing the test when open
// fails, and closes the store when the test ends.
func mustOpen[S DB](t *testing.T, open func() (S, error)) S {
	t.Helper()
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// mustGet returns coll/id of db, failing the test when it cannot.
func mustGet(t *testing.T, db DB, coll, id string) string {
	t.Helper()
	got, err := db.Get(t.Context(), coll, id)
	if err != nil {
		t.Fatalf("Get %s/%s: %v", coll, id, err)
	}
	return string(got)
}

func testCRUD(t *testing.T, a, b DB) {
	ctx := t.Context()
	if _, err := a.Get(ctx, "Posts", "p"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of a missing document: %v, want ErrNotFound", err)
	}
	if err := a.Create(ctx, "Posts", "p", []byte(`{"v":1}`)); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if got := mustGet(t, b, "Posts", "p"); got != `{"v":1}` {
		t.Errorf("Get after Create = %s, want {\"v\":1}", got)
	}
	if err := b.Create(ctx, "Posts", "p", []byte(`{"v":2}`)); !errors.Is(err, ErrExists) {
		t.Errorf("Create of an existing document: %v, want ErrExists", err)
	}
	if got := mustGet(t, a, "Posts", "p"); got != `{"v":1}` {
		t.Errorf("Get after a refused Create = %s, want {\"v\":1}", got)
	}
	if err := b.Put(ctx, "Posts", "p", []byte(`{"v":3}`)); err != nil {
		t.Fatalf("Put over a document: %v", err)
	}
	if got := mustGet(t, a, "Posts", "p"); got != `{"v":3}` {
		t.Errorf("Get after Put = %s, want {\"v\":3}", got)
	}
	if err := a.Put(ctx, "Members", "p", []byte(`"other"`)); err != nil {
		t.Fatalf("Put of a new document: %v", err)
	}
	if err := a.Delete(ctx, "Posts", "p"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := b.Get(ctx, "Posts", "p"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get after Delete: %v, want ErrNotFound", err)
	}
	if err := a.Delete(ctx, "Posts", "p"); err != nil {
		t.Errorf("Delete of a missing document: %v, want nil", err)
	}
	if got := mustGet(t, b, "Members", "p"); got != `"other"` {
		t.Errorf("the same id in another collection = %s, want \"other\"", got)
	}
}

// ids returns the ids of docs.
func ids(docs []Doc) []string {
	list := make([]string, len(docs))
	for i, d := range docs {
		list[i] = d.ID
	}
	return list
}

func testList(t *testing.T, a, b DB) {
	ctx := t.Context()
	docs, err := a.List(ctx, "Posts")
	if err != nil || len(docs) != 0 {
		t.Fatalf("List of an empty collection = %v, %v; want none", docs, err)
	}
	for _, id := range []string{"b", "a.b", "a", "a-b", "C"} {
		if err := b.Put(ctx, "Posts", id, []byte(`"`+id+`"`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Put(ctx, "Members", "x", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	docs, err = a.List(ctx, "Posts")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(ids(docs), " "), "C a a-b a.b b"; got != want {
		t.Errorf("List ids = %s, want %s", got, want)
	}
	for _, d := range docs {
		if string(d.JSON) != `"`+d.ID+`"` {
			t.Errorf("List: %s = %s, want \"%s\"", d.ID, d.JSON, d.ID)
		}
	}
}

// errAbort is what the aborting fn of testUpdate returns.
var errAbort = errors.New("abort")

func testUpdate(t *testing.T, a, b DB) {
	ctx := t.Context()
	// Create: fn sees nil.
	err := a.Update(ctx, "Posts", "p", func(cur []byte) ([]byte, error) {
		if cur != nil {
			return nil, fmt.Errorf("cur = %s, want nil", cur)
		}
		return []byte(`{"v":1}`), nil
	})
	if err != nil {
		t.Fatalf("Update creating: %v", err)
	}
	// Modify: fn sees the document.
	err = b.Update(ctx, "Posts", "p", func(cur []byte) ([]byte, error) {
		if string(cur) != `{"v":1}` {
			return nil, fmt.Errorf("cur = %s, want {\"v\":1}", cur)
		}
		return []byte(`{"v":2}`), nil
	})
	if err != nil {
		t.Fatalf("Update modifying: %v", err)
	}
	if got := mustGet(t, a, "Posts", "p"); got != `{"v":2}` {
		t.Errorf("after Update = %s, want {\"v\":2}", got)
	}
	// Abort: the error comes back and nothing changes.
	err = a.Update(ctx, "Posts", "p", func([]byte) ([]byte, error) { return nil, errAbort })
	if !errors.Is(err, errAbort) {
		t.Errorf("aborted Update: %v, want errAbort", err)
	}
	if got := mustGet(t, b, "Posts", "p"); got != `{"v":2}` {
		t.Errorf("after an aborted Update = %s, want {\"v\":2}", got)
	}
	err = a.Update(ctx, "Posts", "q", func([]byte) ([]byte, error) { return []byte(`{}`), errAbort })
	if !errors.Is(err, errAbort) {
		t.Errorf("aborted Update of a missing document: %v, want errAbort", err)
	}
	if _, err := b.Get(ctx, "Posts", "q"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after an aborted Update of a missing document: %v, want ErrNotFound", err)
	}
	// Delete: fn returns nil.
	if err := b.Update(ctx, "Posts", "p", func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatalf("Update deleting: %v", err)
	}
	if _, err := a.Get(ctx, "Posts", "p"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after an Update returning nil: %v, want ErrNotFound", err)
	}
	if err := b.Update(ctx, "Posts", "p", func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Errorf("Update deleting a missing document: %v", err)
	}
}

// counter is the document testContention increments.
type counter struct {
	N int `json:"n"`
}

// increment adds one to the counter coll/id of db in an Update.
func increment(ctx context.Context, db DB, coll, id string) error {
	return db.Update(ctx, coll, id, func(cur []byte) ([]byte, error) {
		var c counter
		if cur != nil {
			if err := json.Unmarshal(cur, &c); err != nil {
				return nil, err
			}
		}
		c.N++
		return json.Marshal(c)
	})
}

// readCounter returns the counter coll/id of db.
func readCounter(t *testing.T, db DB, coll, id string) int {
	t.Helper()
	var c counter
	if err := json.Unmarshal([]byte(mustGet(t, db, coll, id)), &c); err != nil {
		t.Fatal(err)
	}
	return c.N
}

func testContention(t *testing.T, a, b DB) {
	const writers = 20
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		db := a
		if i%2 == 1 {
			db = b
		}
		wg.Go(func() { errs <- increment(ctx, db, "Counters", "c") })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Update: %v", err)
		}
	}
	if got := readCounter(t, a, "Counters", "c"); got != writers {
		t.Errorf("counter = %d after %d increments, want %d", got, writers, writers)
	}
}

// watchCalls runs db.Watch(coll) until the test ends and returns the
// lists it sends, and Watch's result.
func watchCalls(t *testing.T, db DB, coll string) (<-chan []Doc, <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	calls := make(chan []Doc, 100)
	done := make(chan error, 1)
	go func() { done <- db.Watch(ctx, coll, func(docs []Doc) { calls <- docs }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("Watch ended with %v, want context.Canceled", err)
			}
		case <-time.After(waitLimit): // a failing awaitList has read it
		}
	})
	return calls, done
}

// awaitList waits for a call of calls with the ids want, and fails the test
// when Watch ends or nothing like it comes within waitLimit.
func awaitList(t *testing.T, calls <-chan []Doc, done <-chan error, want string) []Doc {
	t.Helper()
	limit := time.After(waitLimit)
	var last []Doc
	for {
		select {
		case docs := <-calls:
			if strings.Join(ids(docs), " ") == want {
				return docs
			}
			last = docs
		case err := <-done:
			t.Fatalf("Watch ended: %v", err)
		case <-limit:
			t.Fatalf("Watch: last list %q, want %q within %v", ids(last), want, waitLimit)
		}
	}
}

func testWatch(t *testing.T, a, b DB) {
	ctx := t.Context()
	if err := b.Put(ctx, "Notices", "old", []byte(`1`)); err != nil {
		t.Fatal(err)
	}
	calls, done := watchCalls(t, a, "Notices")
	awaitList(t, calls, done, "old")
	if err := b.Put(ctx, "Notices", "pit", []byte(`{"text":"hi"}`)); err != nil {
		t.Fatal(err)
	}
	docs := awaitList(t, calls, done, "old pit")
	if string(docs[1].JSON) != `{"text":"hi"}` {
		t.Errorf("Watch: pit = %s, want {\"text\":\"hi\"}", docs[1].JSON)
	}
	if err := b.Put(ctx, "Other", "x", []byte(`1`)); err != nil {
		t.Fatal(err)
	}
	if err := b.Put(ctx, "Notices", "pit", []byte(`{"text":"bye"}`)); err != nil {
		t.Fatal(err)
	}
	for {
		docs = awaitList(t, calls, done, "old pit")
		if string(docs[1].JSON) == `{"text":"bye"}` {
			break
		}
	}
	if err := b.Delete(ctx, "Notices", "old"); err != nil {
		t.Fatal(err)
	}
	awaitList(t, calls, done, "pit")

	// Watch ends with its context.
	wctx, cancel := context.WithCancel(ctx)
	ended := make(chan error, 1)
	go func() { ended <- b.Watch(wctx, "Notices", func([]Doc) { cancel() }) }()
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Watch after its context ended: %v, want context.Canceled", err)
		}
	case <-time.After(waitLimit):
		t.Fatalf("Watch did not end within %v of its context", waitLimit)
	}
}

// invalidIDs are ids every DB refuses, by what is wrong with them.
var invalidIDs = map[string]string{
	"empty":     "",
	"dot":       ".",
	"dot dot":   "..",
	"hidden":    ".a",
	"slash":     "a/b",
	"backslash": `a\b`,
	"NUL":       "a\x00b",
	"reserved":  "__a__",
	"too long":  strings.Repeat("x", MaxIDBytes+1),
}

func testInvalidIDs(t *testing.T, a, _ DB) {
	ctx := t.Context()
	doc := []byte(`{}`)
	keep := func([]byte) ([]byte, error) { return doc, nil }
	for name, id := range invalidIDs {
		t.Run(name, func(t *testing.T) {
			for op, err := range map[string]error{
				"Get":         second(a.Get(ctx, "Posts", id)),
				"Create":      a.Create(ctx, "Posts", id, doc),
				"Put":         a.Put(ctx, "Posts", id, doc),
				"Delete":      a.Delete(ctx, "Posts", id),
				"Update":      a.Update(ctx, "Posts", id, keep),
				"PutBlob":     a.PutBlob(ctx, id, doc),
				"GetBlob":     second(a.GetBlob(ctx, id)),
				"Get coll":    second(a.Get(ctx, id, "p")),
				"Put coll":    a.Put(ctx, id, "p", doc),
				"Update coll": a.Update(ctx, id, "p", keep),
				"List":        second(a.List(ctx, id)),
				"Page":        second(a.Page(ctx, id, "", 1)),
				"Tx Put":      a.Tx(ctx, func(tx Txn) error { _ = tx.Put("Posts", id, doc); return nil }),
				"Tx Create":   a.Tx(ctx, func(tx Txn) error { return tx.Create("Posts", id, doc) }),
				"Tx Delete":   a.Tx(ctx, func(tx Txn) error { return tx.Delete(id, "p") }),
				"Tx Get":      a.Tx(ctx, func(tx Txn) error { return second(tx.Get("Posts", id)) }),
				"Watch":       a.Watch(ctx, id, func([]Doc) { t.Error("Watch called fn") }),
			} {
				if !errors.Is(err, ErrInvalidID) {
					t.Errorf("%s: %v, want ErrInvalidID", op, err)
				}
			}
		})
	}
	for _, coll := range []string{BlobCollection, "blobs", "BLOBS"} {
		if err := a.Put(ctx, coll, "p", doc); !errors.Is(err, ErrInvalidID) {
			t.Errorf("Put to collection %s: %v, want ErrInvalidID", coll, err)
		}
	}
	docs, err := a.List(ctx, "Posts")
	if err != nil || len(docs) != 0 {
		t.Errorf("List after refused writes = %v, %v; want none", ids(docs), err)
	}
}

// second returns the error of a two-result call.
func second[T any](_ T, err error) error { return err }

func testInvalidDocs(t *testing.T, a, b DB) {
	ctx := t.Context()
	big := []byte(`"` + strings.Repeat("x", MaxDocBytes-1) + `"`)
	if err := a.Put(ctx, "Posts", "big", big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Put of %d bytes: %v, want ErrTooLarge", len(big), err)
	}
	if err := a.Create(ctx, "Posts", "big", big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Create of %d bytes: %v, want ErrTooLarge", len(big), err)
	}
	for _, doc := range [][]byte{[]byte(`{"a":`), {}, []byte("text")} {
		if err := a.Put(ctx, "Posts", "bad", doc); !errors.Is(err, ErrNotJSON) {
			t.Errorf("Put of %q: %v, want ErrNotJSON", doc, err)
		}
		err := a.Update(ctx, "Posts", "bad", func([]byte) ([]byte, error) { return doc, nil })
		if !errors.Is(err, ErrNotJSON) {
			t.Errorf("Update to %q: %v, want ErrNotJSON", doc, err)
		}
	}
	docs, err := b.List(ctx, "Posts")
	if err != nil || len(docs) != 0 {
		t.Errorf("List after refused writes = %v, %v; want none", ids(docs), err)
	}
	largest := big[:MaxDocBytes-1]
	largest = append(largest, '"')
	if err := a.Put(ctx, "Posts", "largest", largest); err != nil {
		t.Errorf("Put of %d bytes: %v", len(largest), err)
	}
}

func testBlobs(t *testing.T, a, b DB) {
	ctx := t.Context()
	if _, err := a.GetBlob(ctx, "0123.jpg"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetBlob of a missing blob: %v, want ErrNotFound", err)
	}
	data := make([]byte, MaxBlobBytes)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := a.PutBlob(ctx, "0123.jpg", data); err != nil {
		t.Fatalf("PutBlob of %d bytes: %v", len(data), err)
	}
	got, err := b.GetBlob(ctx, "0123.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("GetBlob returned %d bytes unlike the %d stored", len(got), len(data))
	}
	if err := b.PutBlob(ctx, "big.jpg", make([]byte, MaxBlobBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("PutBlob of %d bytes: %v, want ErrTooLarge", MaxBlobBytes+1, err)
	}
	if _, err := a.GetBlob(ctx, "big.jpg"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetBlob of a refused blob: %v, want ErrNotFound", err)
	}
	// Blobs are no collection of documents.
	docs, err := a.List(ctx, "Posts")
	if err != nil || len(docs) != 0 {
		t.Errorf("List after PutBlob = %v, %v; want none", ids(docs), err)
	}
}

func testPage(t *testing.T, a, b DB) {
	ctx := t.Context()
	for _, id := range []string{"b", "a.b", "a", "a-b", "C"} {
		if err := b.Put(ctx, "Posts", id, []byte(`"`+id+`"`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Put(ctx, "Members", "x", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		page  func() ([]Doc, error)
		want  string
		wantN int
	}{
		{"first page", func() ([]Doc, error) { return a.Page(ctx, "Posts", "", 2) }, "C a", 2},
		{"second page", func() ([]Doc, error) { return a.Page(ctx, "Posts", "a", 2) }, "a-b a.b", 2},
		{"last page", func() ([]Doc, error) { return a.Page(ctx, "Posts", "a.b", 2) }, "b", 1},
		{"past the end", func() ([]Doc, error) { return a.Page(ctx, "Posts", "b", 2) }, "", 0},
		{"after an absent id", func() ([]Doc, error) { return a.Page(ctx, "Posts", "a0", 10) }, "b", 1},
		{"all", func() ([]Doc, error) { return a.Page(ctx, "Posts", "", 10) }, "C a a-b a.b b", 5},
		{"empty collection", func() ([]Doc, error) { return a.Page(ctx, "Nothing", "", 10) }, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := tt.page()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(ids(docs), " "); got != tt.want || len(docs) != tt.wantN {
				t.Errorf("ids = %q, want %q", got, tt.want)
			}
			for _, d := range docs {
				if string(d.JSON) != `"`+d.ID+`"` {
					t.Errorf("%s = %s, want \"%s\"", d.ID, d.JSON, d.ID)
				}
			}
		})
	}
	for _, limit := range []int{0, -1, MaxPage + 1} {
		if _, err := a.Page(ctx, "Posts", "", limit); err == nil {
			t.Errorf("Page with limit %d: no error", limit)
		}
	}
}

func testTx(t *testing.T, a, b DB) {
	ctx := t.Context()
	if err := b.Put(ctx, "Posts", "old", []byte(`"old"`)); err != nil {
		t.Fatal(err)
	}
	err := a.Tx(ctx, func(tx Txn) error {
		if _, err := tx.Get("Posts", "new"); !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("Get of a missing document: %v, want ErrNotFound", err)
		}
		if got, err := tx.Get("Posts", "old"); err != nil || string(got) != `"old"` {
			return fmt.Errorf("Get = %s, %v; want \"old\"", got, err)
		}
		if err := tx.Create("Posts", "new", []byte(`"new"`)); err != nil {
			return err
		}
		if err := tx.Put("Audit", "1", []byte(`"entry"`)); err != nil {
			return err
		}
		if err := tx.Delete("Posts", "old"); err != nil {
			return err
		}
		// A read after a write sees the store before the transaction.
		if got, err := tx.Get("Posts", "old"); err != nil || string(got) != `"old"` {
			return fmt.Errorf("Get after a staged Delete = %s, %v; want \"old\"", got, err)
		}
		if _, err := tx.Get("Posts", "new"); !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("Get after a staged Create: %v, want ErrNotFound", err)
		}
		return tx.Delete("Posts", "never")
	})
	if err != nil {
		t.Fatalf("Tx: %v", err)
	}
	if got := mustGet(t, b, "Posts", "new"); got != `"new"` {
		t.Errorf("after Tx, Posts/new = %s, want \"new\"", got)
	}
	if got := mustGet(t, b, "Audit", "1"); got != `"entry"` {
		t.Errorf("after Tx, Audit/1 = %s, want \"entry\"", got)
	}
	if _, err := b.Get(ctx, "Posts", "old"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Tx, Posts/old: %v, want ErrNotFound", err)
	}
	if err := a.Tx(ctx, func(Txn) error { return nil }); err != nil {
		t.Errorf("Tx without writes: %v", err)
	}
}

func testTxAborts(t *testing.T, a, b DB) {
	ctx := t.Context()
	if err := b.Put(ctx, "Posts", "there", []byte(`"there"`)); err != nil {
		t.Fatal(err)
	}
	// Each fn stages a Put of Posts/p and Audit/1 before it fails.
	stage := func(tx Txn) {
		_ = tx.Put("Posts", "p", []byte(`"p"`))
		_ = tx.Put("Audit", "1", []byte(`"entry"`))
	}
	tests := []struct {
		name string
		fn   func(Txn) error
		want error
	}{
		{"fn's error", func(tx Txn) error { stage(tx); return errAbort }, errAbort},
		{"create of an existing document", func(tx Txn) error { stage(tx); return tx.Create("Posts", "there", []byte(`1`)) }, ErrExists},
		{"second write of a document", func(tx Txn) error { stage(tx); _ = tx.Create("Posts", "p", []byte(`1`)); return nil }, ErrBadTx},
		{"refused write that fn ignored", func(tx Txn) error { stage(tx); _ = tx.Put("Posts", "q", []byte(`{`)); return nil }, ErrNotJSON},
		{"invalid id that fn ignored", func(tx Txn) error { stage(tx); _ = tx.Put("Posts", "a/b", []byte(`1`)); return nil }, ErrInvalidID},
		{"too many writes", func(tx Txn) error {
			stage(tx)
			for i := range MaxTxWrites {
				_ = tx.Put("Posts", fmt.Sprintf("n%d", i), []byte(`1`))
			}
			return nil
		}, ErrBadTx},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := a.Tx(ctx, tt.fn); !errors.Is(err, tt.want) {
				t.Errorf("Tx: %v, want %v", err, tt.want)
			}
			for _, doc := range []struct{ coll, id string }{{"Posts", "p"}, {"Audit", "1"}, {"Posts", "n0"}} {
				if _, err := b.Get(ctx, doc.coll, doc.id); !errors.Is(err, ErrNotFound) {
					t.Errorf("after an aborted Tx, %s/%s: %v, want ErrNotFound", doc.coll, doc.id, err)
				}
			}
			if got := mustGet(t, b, "Posts", "there"); got != `"there"` {
				t.Errorf("after an aborted Tx, Posts/there = %s, want \"there\"", got)
			}
		})
	}
}

// testTxContention moves one unit at a time between two counters in
// transactions of both stores at once: isolation keeps their sum.
func testTxContention(t *testing.T, a, b DB) {
	const writers = 20
	ctx := t.Context()
	if err := a.Put(ctx, "Counters", "from", []byte(`{"n":100}`)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		db := a
		if i%2 == 1 {
			db = b
		}
		wg.Go(func() {
			errs <- db.Tx(ctx, func(tx Txn) error {
				var from, to counter
				for _, c := range []struct {
					id string
					v  *counter
				}{{"from", &from}, {"to", &to}} {
					data, err := tx.Get("Counters", c.id)
					if errors.Is(err, ErrNotFound) {
						continue
					}
					if err != nil {
						return err
					}
					if err := json.Unmarshal(data, c.v); err != nil {
						return err
					}
				}
				from.N--
				to.N++
				for id, v := range map[string]counter{"from": from, "to": to} {
					data, err := json.Marshal(v)
					if err != nil {
						return err
					}
					if err := tx.Put("Counters", id, data); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Tx: %v", err)
		}
	}
	if from, to := readCounter(t, b, "Counters", "from"), readCounter(t, b, "Counters", "to"); from != 80 || to != 20 {
		t.Errorf("counters from %d, to %d after %d moves; want 80 and 20", from, to, writers)
	}
}
