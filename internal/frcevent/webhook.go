package frcevent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// webhookStaleAfter is how long a push keeps Nexus live when no key polls
// it. Nexus pushes on every change, and while matches run a match changes
// state every minute or two; ten minutes of silence is a break or a dead
// webhook, and TBA's schedule then stands in.
const webhookStaleAfter = 10 * time.Minute

// The reasons PushNexus refuses a push.
var (
	// ErrMalformedPush means the body is not an EventStatus naming its event.
	ErrMalformedPush = errors.New("event: malformed Nexus push")
	// ErrNoEvent means no event is set or found yet: a push has nowhere to go.
	ErrNoEvent = errors.New("event: no event configured")
	// ErrOtherEvent means the push is about another event than the one shown.
	ErrOtherEvent = errors.New("event: push for another event")
	// ErrFuturePush means the push is dated too far past our clock to be
	// believed: kept, it would hide every later update as older.
	ErrFuturePush = errors.New("event: push dated in the future")
)

// PushNexus takes an EventStatus that Nexus pushed to its webhook, the same
// JSON its API serves. A push newer than any data held replaces the Nexus
// data and reaches subscribers at once (applied is true); an older or equal
// one is ignored without an error, as a poll can be ahead of it. It keeps
// Nexus live without a key for a few minutes after each push. The errors
// wrap ErrMalformedPush, ErrNoEvent, ErrOtherEvent or ErrFuturePush.
func (h *Hub) PushNexus(body []byte) (applied bool, err error) {
	ev, err := parseNexusEvent("nexus push", body)
	if err != nil {
		return false, fmt.Errorf("%w: %w", ErrMalformedPush, err)
	}
	if ev.EventKey == "" {
		return false, fmt.Errorf("%w: no eventKey", ErrMalformedPush)
	}
	if h.fromTheFuture(ev) {
		asOf := board.DataAsOf(ev)
		h.opts.Logger.Warn("event: refusing a Nexus push dated in the future", "dataAsOf", asOf, "ahead", asOf.Sub(h.opts.Clock.Now()).Round(time.Second))
		return false, fmt.Errorf("%w: dataAsOfTime %s is more than %v ahead of our clock", ErrFuturePush, asOf.Format(time.RFC3339), maxAhead)
	}
	h.apply(func(up *board.Upstream) {
		switch {
		case !up.Configured:
			err = ErrNoEvent
		case ev.EventKey != up.NexusEventKey:
			err = fmt.Errorf("%w: %q, not %q", ErrOtherEvent, ev.EventKey, up.NexusEventKey)
		case h.storeNexusEvent(up, ev, true):
			h.errs[frcapi.NexusEvent] = nil
			h.webhookSeen, applied = true, true
		}
	})
	if applied {
		select {
		case h.pushed <- struct{}{}:
		default: // already told; it reads the latest push time anyway
		}
	}
	return applied, err
}

// expirePushes publishes again when the last push of the webhook grows
// stale, so that TBA stands in for a silent Nexus even when no other answer
// would merge again.
func (h *Hub) expirePushes(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.pushed:
		}
		for {
			h.mu.Lock()
			wait := h.up.Nexus.LastGood.Add(webhookStaleAfter).Sub(h.opts.Clock.Now())
			h.mu.Unlock()
			if wait <= 0 {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-h.opts.Clock.After(wait):
			}
		}
		h.apply(func(*board.Upstream) {})
	}
}
