// Package follow sends the push notifications of the team's event day to
// the people who follow it (issue 37): it watches the event hub and the
// news, turns each change into alerts (package alerts) and hands each to
// the push notifier, which sends it once whichever serve instance saw it
// first (package push).
package follow

import (
	"cmp"
	"context"
	"log/slog"
	"sync"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/frcevent"
	"github.com/robohornets/robohornets/internal/frcevent/alerts"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/push"
)

// MaxSending is how many notifications one instance fans out at once: a
// queue call need not wait behind the fan-out of a result.
const MaxSending = 4

// Options say what to watch and where to send.
type Options struct {
	// Event and News are the hubs whose changes make notifications; Push
	// sends them. All three are required.
	Event *frcevent.Hub
	News  *news.Hub
	Push  *push.Notifier
	// Clock tells the time the rules see. Nil: clock.Real.
	Clock clock.Clock
	// Logger logs what fails. Nil: slog.Default().
	Logger *slog.Logger
}

// Run watches the hubs until ctx ends and returns ctx's error. The first
// board and the first live news list it sees are where it starts: what
// they already show is never sent (a start must not send a burst), what
// changes after them is.
func Run(ctx context.Context, opts Options) error {
	opts.Clock = cmp.Or[clock.Clock](opts.Clock, clock.Real{})
	opts.Logger = cmp.Or(opts.Logger, slog.Default())
	s := &sender{opts: opts, slots: make(chan struct{}, MaxSending)}
	var wg sync.WaitGroup
	wg.Go(func() { s.watchEvent(ctx) })
	wg.Go(func() { s.watchNews(ctx) })
	wg.Wait()
	s.wg.Wait()
	return ctx.Err()
}

// sender hands alerts to the notifier, at most MaxSending at a time.
type sender struct {
	opts  Options
	slots chan struct{}
	wg    sync.WaitGroup
}

// watchEvent sends the alerts of each change of the event's board.
func (s *sender) watchEvent(ctx context.Context) {
	changed, unsubscribe := s.opts.Event.Subscribe()
	defer unsubscribe()
	prev := s.opts.Event.Current()
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
		next := s.opts.Event.Current()
		for _, a := range alerts.Changes(prev, next, s.opts.Clock.Now()) {
			s.send(ctx, a)
		}
		prev = next
	}
}

// watchNews sends an alert for each news post that appears in the live
// list after the first live list.
func (s *sender) watchNews(ctx context.Context) {
	changed, unsubscribe := s.opts.News.Subscribe()
	defer unsubscribe()
	var known map[string]bool // nil until the first live list
	for {
		if snap := s.opts.News.Current(); snap.Live {
			ids := make(map[string]bool, len(snap.Articles))
			for _, a := range snap.Articles {
				ids[a.ID] = true
				if known != nil && !known[a.ID] {
					s.send(ctx, alerts.NewsPosted(a.ID, a.Title, news.Excerpt(a.Content, alerts.MaxBody)))
				}
			}
			known = ids
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

// send hands a to the notifier in a goroutine of its own, once a slot is
// free.
func (s *sender) send(ctx context.Context, a alerts.Alert) {
	m := Message(a)
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	s.wg.Go(func() {
		defer func() { <-s.slots }()
		if err := s.opts.Push.Notify(ctx, m); err != nil && ctx.Err() == nil {
			s.opts.Logger.Warn("follow: a notification was not sent", "id", m.ID, "err", err)
		}
	})
}

// Message is the push message of an alert.
func Message(a alerts.Alert) push.Message {
	urgency := push.UrgencyNormal
	if a.Urgent {
		urgency = push.UrgencyHigh
	}
	return push.Message{ID: a.ID, Topic: push.Topic(a.Kind), Title: a.Title, Body: a.Body, URL: a.Path, Tag: a.Tag,
		Urgency: urgency, Expires: a.Expires, MatchesAhead: a.MatchesAhead}
}
