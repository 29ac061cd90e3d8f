package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/notice"
)

// errInvalidNotice means a notice breaks a rule; its text says which.
var errInvalidNotice = errors.New("invalid notice")

// validateNotice reports, in a sentence an editor can act on, what is
// wrong with a notice's text (already trimmed) and expiry at now.
func validateNotice(n notice.Notice, now time.Time) error {
	if n.Text == "" {
		return fmt.Errorf("%w: write the notice's text", errInvalidNotice)
	}
	if fault, _ := checkLine(n.Text, MaxNoticeRunes); fault == lineTooLong {
		return fmt.Errorf("%w: the text has %d characters; a notice fits one line of the pit display, at most %d", errInvalidNotice, utf8.RuneCountInString(n.Text), MaxNoticeRunes)
	}
	if err := lineError(n.Text, MaxNoticeRunes, "the text", "a notice"); err != nil {
		return fmt.Errorf("%w: %w", errInvalidNotice, err)
	}
	switch {
	case !n.Until.After(now):
		return fmt.Errorf("%w: the notice must end in the future", errInvalidNotice)
	case n.Until.Sub(now) > MaxNoticeDuration:
		return fmt.Errorf("%w: a notice may stay up at most %s; choose an earlier end", errInvalidNotice, MaxNoticeDuration)
	}
	return nil
}

// notice returns the pit notice in force at now: the empty notice when
// there is none or it has expired.
func (c *Console) notice(ctx context.Context, now time.Time) (notice.Notice, error) {
	var n notice.Notice
	err := readDoc(ctx, c.opts.DB, collNotices, notice.ID, "the pit notice", &n)
	switch {
	case errors.Is(err, docstore.ErrNotFound):
		return notice.Notice{}, nil
	case err != nil:
		return notice.Notice{}, err
	case !n.InForce(now):
		return notice.Notice{}, nil
	}
	return n, nil
}

// writeNotice stores n as the pit notice, with the audit entry of m doing
// action on target, in one transaction; the notice hub of every instance
// watches the notice.
func (c *Console) writeNotice(r *http.Request, m Member, n notice.Notice, action, target string) error {
	err := c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error {
		if err := stage(tx.Put, collNotices, notice.ID, n); err != nil {
			return err
		}
		return c.auditIn(tx, r, m, action, target)
	})
	if err != nil {
		return fmt.Errorf("console: write the pit notice: %w", err)
	}
	return nil
}

// serveGetNotice answers GET /admin/api/notice: the notice in force, or
// the empty notice.
func (c *Console) serveGetNotice(w http.ResponseWriter, r *http.Request, _ Member) error {
	n, err := c.notice(r.Context(), c.opts.Clock.Now())
	if err != nil {
		return c.unavailable("The store cannot be reached; try again in a moment.", "console: notice", "err", err)
	}
	writeJSON(w, http.StatusOK, n)
	return nil
}

// servePutNotice answers PUT /admin/api/notice {"text", "until"}: the new
// pit notice, which replaces any other.
func (c *Console) servePutNotice(w http.ResponseWriter, r *http.Request, m Member, n notice.Notice) error {
	now := c.opts.Clock.Now()
	n = notice.Notice{Text: strings.TrimSpace(n.Text), Until: n.Until, By: memberName(m), At: now}
	if err := validateNotice(n, now); err != nil {
		return &apiError{http.StatusBadRequest, brokenRule(err, errInvalidNotice)}
	}
	if err := c.writeNotice(r, m, n, "set notice", n.Text); err != nil {
		return c.unavailable("The notice could not be saved; try again in a moment.", "console: notice", "err", err)
	}
	writeJSON(w, http.StatusOK, n)
	return nil
}

// serveDeleteNotice answers DELETE /admin/api/notice: the notice comes
// down at once. An empty notice is written rather than the document
// deleted, so watchers see who took it down and when.
func (c *Console) serveDeleteNotice(w http.ResponseWriter, r *http.Request, m Member) error {
	n := notice.Notice{By: memberName(m), At: c.opts.Clock.Now()}
	if err := c.writeNotice(r, m, n, "clear notice", notice.ID); err != nil {
		return c.unavailable("The notice could not be taken down; try again in a moment.", "console: notice", "err", err)
	}
	writeJSON(w, http.StatusOK, n)
	return nil
}
