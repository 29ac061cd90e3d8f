package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/notice"
)

// writeChain writes n entries of a correct chain and its head as files of
// the local store in dir, quicker than n transactions, and returns them.
func writeChain(t *testing.T, dir string, n int) []auditDoc {
	t.Helper()
	put := func(coll, id string, v any) {
		t.Helper()
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, coll), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, coll, id+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var chain []auditDoc
	prev := ""
	for i := 1; i <= n; i++ {
		d := auditDoc{AuditEntry: AuditEntry{At: t0.Add(time.Duration(i) * time.Second), MemberID: bob.ID, Name: "Bob", Action: "save post", Target: fmt.Sprintf("p v%d", i), Addr: "192.0.2.1"}, Seq: int64(i), Prev: prev}
		d.Hash = d.hash()
		put(collAudit, auditID(d.Seq), d)
		chain, prev = append(chain, d), d.Hash
	}
	put(collAuditHead, auditHeadID, auditHead{Seq: int64(n), Hash: prev})
	return chain
}

func TestVerifyAuditFindsEveryChange(t *testing.T) {
	tests := []struct {
		name   string
		change func(ctx context.Context, db docstore.DB, chain []auditDoc) error
		want   string // in the error; "" for none
	}{
		{"intact", func(context.Context, docstore.DB, []auditDoc) error { return nil }, ""},
		{"changed entry", func(ctx context.Context, db docstore.DB, chain []auditDoc) error {
			d := chain[2]
			d.Target = "p v1000"
			return writeDoc(ctx, db.Put, collAudit, auditID(3), d)
		}, `entry e000000000003 (save post "p v1000" at 2026-03-14T12:00:03Z) does not match its hash: it was changed afterwards`},
		{"changed entry with its hash made again", func(ctx context.Context, db docstore.DB, chain []auditDoc) error {
			d := chain[2]
			d.Target = "p v1000"
			d.Hash = d.hash()
			return writeDoc(ctx, db.Put, collAudit, auditID(3), d)
		}, "entry e000000000004 does not hold the hash of entry e000000000003 before it"},
		{"deleted entry", func(ctx context.Context, db docstore.DB, _ []auditDoc) error {
			return db.Delete(ctx, collAudit, auditID(3))
		}, "entry e000000000004 follows entry e000000000002: entries 3 to 3 between them were deleted"},
		{"deleted first entries", func(ctx context.Context, db docstore.DB, _ []auditDoc) error {
			return errors.Join(db.Delete(ctx, collAudit, auditID(1)), db.Delete(ctx, collAudit, auditID(2)))
		}, "the chain starts at entry e000000000003, number 3: entries 1 to 2 were deleted"},
		{"deleted last entries", func(ctx context.Context, db docstore.DB, _ []auditDoc) error {
			return errors.Join(db.Delete(ctx, collAudit, auditID(5)), db.Delete(ctx, collAudit, auditID(4)))
		}, "the log ends at entry 3, but the head names entry 5: the last 2 entries were deleted"},
		{"reordered entries", func(ctx context.Context, db docstore.DB, chain []auditDoc) error {
			return errors.Join(writeDoc(ctx, db.Put, collAudit, auditID(2), chain[2]), writeDoc(ctx, db.Put, collAudit, auditID(3), chain[1]))
		}, "entry e000000000002 holds number 3, not 2: it was moved from another place in the log"},
		{"entry added after the chain", func(ctx context.Context, db docstore.DB, chain []auditDoc) error {
			return writeDoc(ctx, db.Put, collAudit, "zz-added", chain[0])
		}, "entry zz-added, after entry e000000000005, is not an entry of the chain"},
		{"entry added after the head", func(ctx context.Context, db docstore.DB, chain []auditDoc) error {
			d := auditDoc{AuditEntry: chain[4].AuditEntry, Seq: 6, Prev: chain[4].Hash}
			d.Hash = d.hash()
			return writeDoc(ctx, db.Put, collAudit, auditID(6), d)
		}, "the head names entry 5, but the log goes on to entry 6"},
		{"head deleted", func(ctx context.Context, db docstore.DB, _ []auditDoc) error {
			return db.Delete(ctx, collAuditHead, auditHeadID)
		}, "the head (AuditHead/head), which names the last entry, is missing"},
		{"head replaced", func(ctx context.Context, db docstore.DB, chain []auditDoc) error {
			return writeDoc(ctx, db.Put, collAuditHead, auditHeadID, auditHead{Seq: 5, Hash: chain[3].Hash})
		}, "the head holds another hash than the last entry, e000000000005"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			db := openTestDB(t, dir)
			chain := writeChain(t, dir, 5)
			// Two entries from before the chain, which nothing can check.
			for i, id := range []string{"20260101T000000.000000000Z-0000aaaa", "20260102T000000.000000000Z-0000bbbb"} {
				if err := writeDoc(t.Context(), db.Put, collAudit, id, AuditEntry{Action: fmt.Sprintf("old %d", i)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := tt.change(t.Context(), db, chain); err != nil {
				t.Fatal(err)
			}
			check, err := VerifyAudit(t.Context(), db)
			if tt.want == "" {
				if err != nil || check.Checked != 5 || check.Unchained != 2 || check.Head != chain[4].Hash {
					t.Errorf("VerifyAudit = %+v, %v; want 5 checked, 2 unchained, head %s", check, err, chain[4].Hash)
				}
				return
			}
			if !errors.Is(err, ErrAuditBroken) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("VerifyAudit: %v; want ErrAuditBroken with %q", err, tt.want)
			}
		})
	}
}

func TestVerifyAuditWalksALongLogInPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openTestDB(t, dir)
	writeChain(t, dir, 2*auditVerifyPage+1)
	check, err := VerifyAudit(t.Context(), db)
	if err != nil || check.Checked != 1001 {
		t.Errorf("VerifyAudit = %+v, %v; want 1001 checked", check, err)
	}
	if err := db.Delete(t.Context(), collAudit, auditID(auditVerifyPage+1)); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyAudit(t.Context(), db); !errors.Is(err, ErrAuditBroken) || !strings.Contains(err.Error(), "entries 501 to 501") {
		t.Errorf("VerifyAudit after deleting entry 501: %v, want ErrAuditBroken naming it", err)
	}
}

// TestChangesAndTheirEntriesFormAChain makes changes through the API and
// the admin command, and checks the log they leave.
func TestChangesAndTheirEntriesFormAChain(t *testing.T) {
	f := newContentFixture(t)
	p := f.create(alice, "Chained", "one")
	f.save(alice, p.ID, 1, PostFields{Title: "Chained", Date: t0, Content: "two"})
	f.must(http.StatusOK, nil, alice, "POST", "/admin/api/posts/"+p.ID+"/publish", Save{BaseVersion: 2})
	f.must(http.StatusOK, nil, alice, "PUT", "/admin/api/notice", notice.Notice{Text: "Pit open", Until: t0.Add(time.Hour)})
	if _, err := Invite(t.Context(), f.db, t0, devOrigin, RoleEditor, "Cy"); err != nil {
		t.Fatal(err)
	}
	check, err := VerifyAudit(t.Context(), f.db)
	if err != nil || check.Checked != 5 || check.Unchained != 0 {
		t.Fatalf("VerifyAudit = %+v, %v; want 5 entries checked", check, err)
	}
	var log []AuditEntry
	f.must(http.StatusOK, &log, bob, "GET", "/admin/api/audit", nil)
	var actions []string
	for _, e := range log {
		actions = append(actions, e.Action)
	}
	if got := strings.Join(actions, ", "); got != "invite, set notice, publish post, save post, create post" {
		t.Errorf("audit log, newest first: %s", got)
	}
}
