package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/console"
	"github.com/robohornets/robohornets/internal/datadir"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/news"
)

const adminUsage = `Usage: robohornets admin [flags] COMMAND [args]

Members of the team console (/admin) sign in with passkeys only. Each one
comes in by a one-time invitation link, valid for 1 hour.

Commands:
  invite --role editor|admin [--name NAME] [--site-url URL]
             print a one-time link to enrol a passkey (the first admin comes in this way)
  list       list the members
  revoke ID  revoke a member: they can no longer sign in, their sessions end at once,
             and the invitations they made no longer work
  invitations
             list the invitations not used yet
  uninvite ID
             cancel an invitation: its link no longer works
  audit verify
             check the audit log's chain: exit 1, naming the first entry, when an
             entry was changed, deleted, moved or added after it was written

The store is the news store's: local files in DIR (DIR/console) or Firestore.
`

// defaultInviteBase is the site an invitation links to without --site-url:
// make serve's address, by name, since passkeys refuse an IP address.
const defaultInviteBase = "http://localhost:8080"

func (p Program) runAdmin(args []string) error {
	c, do, rest, err := subcommand(p, args, "admin", adminUsage, "invite, list, revoke, invitations, uninvite, audit", adminCommands)
	if err != nil {
		return err
	}
	return runOnStore(func(ctx context.Context) (docstore.DB, error) { return openDocstore(ctx, c.news) },
		func(ctx context.Context, open func() (docstore.DB, error)) error {
			return do(adminCommand{open: open, stdout: p.Stdout, stderr: p.Stderr, clock: clock.Real{}}, ctx, rest)
		})
}

// openDocstore opens the console's store beside the news store cfg names.
// A failed open returns a nil interface, never a nil *Local or *Firestore
// in a non-nil one.
func openDocstore(ctx context.Context, cfg news.Config) (docstore.DB, error) {
	if cfg.Kind == news.StoreFirestore {
		db, err := docstore.OpenFirestore(ctx, cfg.Project)
		if err != nil {
			return nil, err
		}
		return db, nil
	}
	db, err := docstore.OpenLocal(datadir.Dir(cfg.Dir).Console())
	if err != nil {
		return nil, err
	}
	return db, nil
}

// adminCommands are the admin sub-commands by name.
var adminCommands = map[string]func(adminCommand, context.Context, []string) error{
	"invite": adminCommand.invite,
	"list":   adminCommand.list,
	"revoke": adminCommand.revoke,
	// Listing and cancelling invitations: a link sent to the wrong person
	// dies before its hour is up.
	"invitations": adminCommand.invitations,
	"uninvite":    adminCommand.uninvite,
	"audit":       adminCommand.audit,
}

// adminCommand runs the admin sub-commands against one store.
type adminCommand struct {
	// open opens the store, once the arguments are known to be good.
	open           func() (docstore.DB, error)
	stdout, stderr io.Writer
	clock          clock.Clock
}

func (c adminCommand) invite(ctx context.Context, args []string) error {
	fs := newFlagSet("admin invite", adminUsage, c.stderr)
	role := fs.String("role", "", "the new member's `ROLE`: editor (news and pit notices) or admin (also members)")
	name := fs.String("name", "", "the new member's `NAME`, as the console shows it")
	siteURL := siteURLFlag(fs, "the link points there (default "+defaultInviteBase+", make serve's address)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *role != console.RoleEditor && *role != console.RoleAdmin {
		return fmt.Errorf("%w: --role %q: want %s or %s", errUsage, *role, console.RoleEditor, console.RoleAdmin)
	}
	if err := checkSiteURL(*siteURL); err != nil {
		return err
	}
	base := *siteURL
	if base == "" {
		base = defaultInviteBase
	}
	db, err := c.open()
	if err != nil {
		return err
	}
	inv, err := console.Invite(ctx, db, c.clock.Now(), base, *role, *name)
	if errors.Is(err, console.ErrBadInvitation) {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return err
	}
	who := "an " + inv.Role // "an editor", "an admin"
	if inv.Name != "" {
		who += " (" + inv.Name + ")"
	}
	_, err = fmt.Fprintf(c.stdout, "Invitation for %s, valid once until %s:\n%s\n",
		who, inv.Expires.Local().Format("2006-01-02 15:04 MST"), inv.Link)
	return err
}

// argsThenStore parses the arguments of a sub-command that takes no flags
// and n operands, then opens the store. Another count of operands is a
// usage error that says name and takes, like "admin list takes no
// arguments", and names a word too many.
func (c adminCommand) argsThenStore(name string, args []string, n int, takes string) ([]string, docstore.DB, error) {
	fs := newFlagSet("admin "+name, adminUsage, c.stderr)
	args, err := parseArgs(fs, args, n, takes)
	if err != nil {
		return nil, nil, err
	}
	if len(args) != n {
		return nil, nil, fmt.Errorf("%w: %s %s", errUsage, fs.Name(), takes)
	}
	db, err := c.open()
	return args, db, err
}

func (c adminCommand) list(ctx context.Context, args []string) error {
	_, db, err := c.argsThenStore("list", args, 0, "takes no arguments")
	if err != nil {
		return err
	}
	members, err := console.Members(ctx, db)
	if err != nil {
		return err
	}
	if len(members) == 0 {
		_, err := fmt.Fprintln(c.stdout, "No members yet: robohornets admin invite --role admin")
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "ID\tROLE\tNAME\tPASSKEYS\tSINCE\tREVOKED")
	for _, m := range members {
		revoked := "-"
		if !m.Revoked.IsZero() {
			revoked = m.Revoked.Local().Format(time.DateTime)
		}
		name := m.Name
		if name == "" {
			name = "-"
		}
		_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", m.ID, m.Role, name, m.Passkeys, m.Created.Local().Format(time.DateOnly), revoked)
	}
	return tw.Flush()
}

func (c adminCommand) revoke(ctx context.Context, args []string) error {
	args, db, err := c.argsThenStore("revoke", args, 1, "takes one member ID (see robohornets admin list)")
	if err != nil {
		return err
	}
	id := args[0]
	m, err := console.Revoke(ctx, db, c.clock.Now(), id)
	if errors.Is(err, docstore.ErrNotFound) {
		return fmt.Errorf("no member %q (see robohornets admin list)", id)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "Revoked %s (%s): their sessions have ended.\n", m.ID, m.Role)
	return err
}

func (c adminCommand) invitations(ctx context.Context, args []string) error {
	_, db, err := c.argsThenStore("invitations", args, 0, "takes no arguments")
	if err != nil {
		return err
	}
	invs, err := console.Invitations(ctx, db, c.clock.Now())
	if err != nil {
		return err
	}
	if len(invs) == 0 {
		_, err := fmt.Fprintln(c.stdout, "No open invitations.")
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "ID\tROLE\tNAME\tBY\tEXPIRES")
	for _, inv := range invs {
		name := inv.Name
		if name == "" {
			name = "-"
		}
		_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", inv.ID, inv.Role, name, inv.By, inv.Expires.Local().Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

func (c adminCommand) uninvite(ctx context.Context, args []string) error {
	args, db, err := c.argsThenStore("uninvite", args, 1, "takes one invitation ID (see robohornets admin invitations)")
	if err != nil {
		return err
	}
	id := args[0]
	inv, err := console.Uninvite(ctx, db, c.clock.Now(), id)
	if errors.Is(err, console.ErrNoInvitation) {
		return fmt.Errorf("no open invitation %q (see robohornets admin invitations)", id)
	}
	if err != nil {
		return err
	}
	who := inv.Role
	if inv.Name != "" {
		who += " " + inv.Name
	}
	_, err = fmt.Fprintf(c.stdout, "Cancelled the invitation %s (%s): its link no longer works.\n", inv.ID, who)
	return err
}

// audit runs "admin audit verify": the chain of the audit log checked
// (console.VerifyAudit); a broken one is an error, so exit 1.
func (c adminCommand) audit(ctx context.Context, args []string) error {
	args, db, err := c.argsThenStore("audit", args, 1, "takes one command: verify")
	if err != nil {
		return err
	}
	if args[0] != "verify" {
		return fmt.Errorf("%w: unknown audit command %q: admin audit takes one command: verify", errUsage, args[0])
	}
	check, err := console.VerifyAudit(ctx, db)
	if errors.Is(err, console.ErrAuditBroken) {
		return fmt.Errorf("%w (after %d entries that hold)", err, check.Checked)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "The audit log's chain holds: %d entries checked.\n", check.Checked)
	if err == nil && check.Unchained > 0 {
		_, err = fmt.Fprintf(c.stdout, "%d older entries, written before the log was a chain, cannot be checked.\n", check.Unchained)
	}
	if err == nil && check.Head != "" {
		_, err = fmt.Fprintf(c.stdout, "Last entry's hash: %s\n(note it down: a later check shows whether the log was rewritten since)\n", check.Head)
	}
	return err
}
