package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/robohornets/robohornets/internal/docstore"
)

// auditShown is how many entries GET /admin/api/audit answers, newest first.
const auditShown = 500

// auditIDTime formats an entry's time at the start of its id: fixed width,
// so the ids sort as the times do.
const auditIDTime = "20060102T150405.000000000Z"

// audit writes one entry of the audit log: m did action on target, from r's
// address. A failure is logged; the change it records has been made.
func (c *Console) audit(ctx context.Context, r *http.Request, m Member, action, target string) {
	e := AuditEntry{At: c.opts.Clock.Now(), MemberID: m.ID, Name: m.Name, Action: action, Target: target, Addr: c.opts.Proxies.Peer(r)}
	if err := writeAudit(ctx, c.opts.DB, e); err != nil {
		c.opts.Logger.Error("console: audit", "action", action, "target", target, "member", m.ID, "err", err)
	}
}

// writeAudit stores e under an id that sorts by time (then at random among
// entries of the same nanosecond), so List returns the log in order.
func writeAudit(ctx context.Context, db docstore.DB, e AuditEntry) error {
	id := e.At.UTC().Format(auditIDTime) + "-" + randomHex(4)
	if err := writeDoc(ctx, db.Create, collAudit, id, e); err != nil {
		return fmt.Errorf("console: write audit log: %w", err)
	}
	return nil
}

// serveAudit answers the last auditShown entries, newest first.
func (c *Console) serveAudit(w http.ResponseWriter, r *http.Request, _ Member) error {
	docs, err := c.opts.DB.List(r.Context(), collAudit)
	if err != nil {
		return fmt.Errorf("console: read audit log: %w", err)
	}
	docs = docs[max(0, len(docs)-auditShown):]
	out := make([]AuditEntry, 0, len(docs))
	for _, d := range slices.Backward(docs) {
		var e AuditEntry
		if err := json.Unmarshal(d.JSON, &e); err != nil {
			return fmt.Errorf("console: audit entry %s: %w", d.ID, err)
		}
		out = append(out, e)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
