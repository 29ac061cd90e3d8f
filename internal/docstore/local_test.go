package docstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// openLocal opens a Local on dir and closes it when the test ends.
func openLocal(t *testing.T, dir string) *Local {
	t.Helper()
	return mustOpen(t, func() (*Local, error) { return OpenLocal(dir) })
}

func TestLocal(t *testing.T) {
	testDB(t, func(t *testing.T) (DB, DB) {
		dir := filepath.Join(t.TempDir(), "console")
		return openLocal(t, dir), openLocal(t, dir)
	})
}

// TestLocalLayout checks the files other code and people rely on: the pit
// notice at DIR/Notices/pit.json, blobs at DIR/blobs/<id>.
func TestLocalLayout(t *testing.T) {
	dir := t.TempDir()
	l := openLocal(t, dir)
	ctx := t.Context()
	if err := l.Put(ctx, "Notices", "pit", []byte(`{"text":"a"}`)); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "Notices", "pit.json")); err != nil || string(got) != `{"text":"a"}` {
		t.Errorf("Notices/pit.json = %q, %v; want {\"text\":\"a\"}", got, err)
	}
	if err := l.PutBlob(ctx, "ab.png", []byte("png")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "blobs", "ab.png")); err != nil || string(got) != "png" {
		t.Errorf("blobs/ab.png = %q, %v; want png", got, err)
	}
	// A file written by hand is a document like any other.
	if err := os.WriteFile(filepath.Join(dir, "Notices", "hand.json"), []byte(`"by hand"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustGet(t, l, "Notices", "hand"); got != `"by hand"` {
		t.Errorf("Get of a file written by hand = %s, want \"by hand\"", got)
	}
}

// TestLocalSkipsOtherFiles checks that what a killed writer leaves (a
// temporary file of atomicfile) and other files are no documents.
func TestLocalSkipsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	l := openLocal(t, dir)
	ctx := t.Context()
	if err := l.Put(ctx, "Posts", "a", []byte(`1`)); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		".b.json.tmp-123456": `{"half`,
		"notes.txt":          "x",
		".hidden.json":       `1`,
	} {
		if err := os.WriteFile(filepath.Join(dir, "Posts", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "Posts", "d.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	docs, err := l.List(ctx, "Posts")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ids(docs), " "); got != "a" {
		t.Errorf("List = %q, want only a", got)
	}
}

func TestLocalIDLength(t *testing.T) {
	l := openLocal(t, t.TempDir())
	ctx := t.Context()
	longest := strings.Repeat("x", MaxLocalIDBytes)
	if err := l.Put(ctx, "Posts", longest, []byte(`1`)); err != nil {
		t.Errorf("Put with an id of %d bytes: %v", len(longest), err)
	}
	if err := l.PutBlob(ctx, longest, []byte(`1`)); err != nil {
		t.Errorf("PutBlob with an id of %d bytes: %v", len(longest), err)
	}
	tooLong := longest + "x"
	if err := l.Put(ctx, "Posts", tooLong, []byte(`1`)); !errors.Is(err, ErrInvalidID) {
		t.Errorf("Put with an id of %d bytes: %v, want ErrInvalidID", len(tooLong), err)
	}
	if err := l.Put(ctx, tooLong, "a", []byte(`1`)); !errors.Is(err, ErrInvalidID) {
		t.Errorf("Put to a collection of %d bytes: %v, want ErrInvalidID", len(tooLong), err)
	}
	if err := l.PutBlob(ctx, tooLong, []byte(`1`)); !errors.Is(err, ErrInvalidID) {
		t.Errorf("PutBlob with an id of %d bytes: %v, want ErrInvalidID", len(tooLong), err)
	}
}

// helperEnv, set in the environment of this test binary, makes it increment
// a counter instead of running the tests: "DIR N" increments DIR's counter
// N times, as another process sharing the store would (see TestMain).
const helperEnv = "DOCSTORE_TEST_INCREMENT"

// helperCounter is the document the helper process increments.
const helperCounter = "c"

// runHelper does what helperEnv asks, if it is set, and exits.
func runHelper() {
	arg := os.Getenv(helperEnv)
	if arg == "" {
		return
	}
	if err := incrementLocal(arg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// incrementLocal increments the counter of a Local as helperEnv's value arg
// says.
func incrementLocal(arg string) error {
	dir, nText, ok := strings.Cut(arg, " ")
	n, err := strconv.Atoi(nText)
	if !ok || err != nil {
		return fmt.Errorf("%s=%q: want DIR N", helperEnv, arg)
	}
	l, err := OpenLocal(dir)
	if err != nil {
		return err
	}
	for range n {
		if err := increment(context.Background(), l, "Counters", helperCounter); err != nil {
			return err
		}
	}
	return l.Close()
}

// TestLocalLockAcrossProcesses increments one counter from this process and
// two others at once: without the lock on the directory, increments of one
// process overwrite those of another.
func TestLocalLockAcrossProcesses(t *testing.T) {
	if !crossProcessLock {
		t.Skip("no lock across processes on " + runtime.GOOS)
	}
	const (
		processes = 2
		each      = 100
	)
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := openLocal(t, dir)
	var wg sync.WaitGroup
	errs := make(chan error, processes+1)
	for range processes {
		wg.Go(func() {
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d", helperEnv, dir, each))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("helper process: %v: %s", err, out)
			}
		})
	}
	wg.Go(func() {
		for range each {
			if err := increment(t.Context(), l, "Counters", helperCounter); err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got, want := readCounter(t, l, "Counters", helperCounter), (processes+1)*each; got != want {
		t.Errorf("counter = %d, want %d", got, want)
	}
}

// TestLocalTxKilledMidCommitIsFinished leaves what a process killed in the
// middle of a transaction's writes leaves (its journal, and the first of
// its writes made), and checks that the next writer, or the next
// OpenLocal, makes the rest: no transaction stays half made.
func TestLocalTxKilledMidCommitIsFinished(t *testing.T) {
	tests := []struct {
		name   string
		finish func(t *testing.T, l *Local, dir string) DB
	}{
		{"next OpenLocal", func(t *testing.T, _ *Local, dir string) DB { return openLocal(t, dir) }},
		{"next write", func(t *testing.T, l *Local, _ string) DB {
			if err := l.Put(t.Context(), "Other", "x", []byte(`1`)); err != nil {
				t.Fatal(err)
			}
			return l
		}},
		{"next transaction", func(t *testing.T, l *Local, _ string) DB {
			if err := l.Tx(t.Context(), func(Txn) error { return nil }); err != nil {
				t.Fatal(err)
			}
			return l
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLocal(t, dir)
			ctx := t.Context()
			for coll, doc := range map[string]string{"AuditHead": `{"seq":1}`, "Posts": `"doomed"`} {
				id := map[string]string{"AuditHead": "head", "Posts": "gone"}[coll]
				if err := l.Put(ctx, coll, id, []byte(doc)); err != nil {
					t.Fatal(err)
				}
			}
			writes := []txWrite{
				{Coll: "Audit", ID: "2", Doc: []byte(`"entry 2"`), Create: true},
				{Coll: "Posts", ID: "gone", Delete: true},
				{Coll: "AuditHead", ID: "head", Doc: []byte(`{"seq":2}`)},
			}
			journal, err := json.Marshal(writes)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, journalName), journal, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := l.apply(writes[0]); err != nil {
				t.Fatal(err)
			}
			db := tt.finish(t, l, dir)
			if got := mustGet(t, db, "Audit", "2"); got != `"entry 2"` {
				t.Errorf("Audit/2 = %s, want \"entry 2\"", got)
			}
			if got := mustGet(t, db, "AuditHead", "head"); got != `{"seq":2}` {
				t.Errorf("AuditHead/head = %s, want {\"seq\":2}", got)
			}
			if _, err := db.Get(ctx, "Posts", "gone"); !errors.Is(err, ErrNotFound) {
				t.Errorf("Posts/gone: %v, want ErrNotFound", err)
			}
			if _, err := os.Stat(filepath.Join(dir, journalName)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("journal after it was finished: %v, want none", err)
			}
		})
	}
}

// TestLocalTxLeavesNoJournal checks a transaction of several writes
// removes its journal once they are made.
func TestLocalTxLeavesNoJournal(t *testing.T) {
	dir := t.TempDir()
	l := openLocal(t, dir)
	err := l.Tx(t.Context(), func(tx Txn) error {
		_ = tx.Put("Audit", "1", []byte(`1`))
		return tx.Put("AuditHead", "head", []byte(`1`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, journalName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("journal after a transaction: %v, want none", err)
	}
}
