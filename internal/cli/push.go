package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/push"
)

const pushUsage = `Usage: robohornets push [flags] COMMAND

The notifications to the phones that follow the team (Web Push).

Commands:
  rotate-keys
             replace the VAPID key pair that signs the pushes: every serve takes
             the new one up within a minute; the phones subscribed with the old
             one get nothing until their follow page re-subscribes, which it
             does on its next visit (it sees the key has changed)

The store is the console's: local files in DIR (DIR/console) or Firestore.
`

// pushCommands are the push sub-commands by name.
var pushCommands = map[string]func(adminCommand, context.Context, []string) error{
	"rotate-keys": adminCommand.rotatePushKeys,
}

func (p Program) runPush(args []string) error {
	c, do, rest, err := subcommand(p, args, "push", pushUsage, "rotate-keys", pushCommands)
	if err != nil {
		return err
	}
	return runOnStore(func(ctx context.Context) (docstore.DB, error) { return openDocstore(ctx, c.news) },
		func(ctx context.Context, open func() (docstore.DB, error)) error {
			return do(adminCommand{open: open, stdout: p.Stdout, stderr: p.Stderr, clock: clock.Real{}}, ctx, rest)
		})
}

// rotatePushKeys runs "push rotate-keys" (push.Rotate) and prints the new
// public key.
func (c adminCommand) rotatePushKeys(ctx context.Context, args []string) error {
	fs := newFlagSet("push rotate-keys", pushUsage, c.stderr)
	if _, err := parseArgs(fs, args, 0, "takes no arguments"); err != nil {
		return err
	}
	db, err := c.open()
	if err != nil {
		return err
	}
	key, err := push.Rotate(ctx, db, c.clock)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "New VAPID public key: %s\nEvery serve takes it up within %v; followers re-subscribe on their next visit.\n", key, push.KeyCacheFor)
	return err
}

// pushFlags configure serve's notifications to followers (push.Options).
type pushFlags struct {
	subject          string
	allowLoopback    bool
	maxSubscriptions int
	maxPerClient     int
}

func (f *pushFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.subject, "push-subject", "", "the `CONTACT` the push services may reach about our notifications: a mailto: address or an https URL (default: --site-url when it is https, else mailto:"+defaultPushContact+")")
	fs.BoolVar(&f.allowLoopback, "push-allow-loopback", false, "FOR TESTS ONLY: also take push subscriptions whose endpoint is plain http on a loopback address (a local push service stand-in); never on a public server")
	fs.IntVar(&f.maxSubscriptions, "push-max-subscriptions", push.DefaultMaxSubscriptions, "most push subscriptions kept in all")
	fs.IntVar(&f.maxPerClient, "push-max-per-client", push.DefaultMaxPerClient, "most push subscriptions made from one client (an IPv4 address or an IPv6 /64)")
}

// defaultPushContact is the VAPID subject's address without an https
// --site-url.
const defaultPushContact = "push@robohornets.invalid"

// check rejects values that cannot work, and fills in the subject's
// default from the site's address.
func (f *pushFlags) check(siteURL string) error {
	if f.maxSubscriptions <= 0 || f.maxPerClient <= 0 {
		return fmt.Errorf("%w: --push-max-subscriptions %d / --push-max-per-client %d: want 1 or more", errUsage, f.maxSubscriptions, f.maxPerClient)
	}
	if f.subject == "" {
		f.subject = "mailto:" + defaultPushContact
		if strings.HasPrefix(siteURL, "https://") {
			f.subject = siteURL
		}
	}
	if !strings.HasPrefix(f.subject, "mailto:") && !strings.HasPrefix(f.subject, "https://") {
		return fmt.Errorf("%w: --push-subject %q: want a mailto: address or an https URL", errUsage, f.subject)
	}
	return nil
}
