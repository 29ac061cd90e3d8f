package cli

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/console"
	"github.com/robohornets/robohornets/internal/datadir"
	"github.com/robohornets/robohornets/internal/docstore"
)

// adminCmd runs "admin --data DATA args...".
func adminCmd(t *testing.T, data string, args ...string) runResult {
	t.Helper()
	return runCmd(t, append([]string{"admin", "--data", data}, args...)...)
}

// inviteLink is the link line of admin invite's output.
var inviteLink = regexp.MustCompile(`(?m)^(\S+/admin/enrol#[A-Za-z0-9_-]{64})$`)

func TestAdminInviteListRevoke(t *testing.T) {
	data := t.TempDir()
	r := adminCmd(t, data, "list")
	if r.code != 0 || !strings.Contains(r.stdout, "No members yet") {
		t.Fatalf("list of none: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}

	r = adminCmd(t, data, "invite", "--role", "admin", "--name", "Ada")
	if r.code != 0 {
		t.Fatalf("invite: exit %d\n%s", r.code, r.stderr)
	}
	m := inviteLink.FindStringSubmatch(r.stdout)
	if m == nil || !strings.HasPrefix(r.stdout, "Invitation for an admin (Ada), valid once until ") {
		t.Fatalf("invite printed %q", r.stdout)
	}
	link, _ := url.Parse(m[1])
	if link.Scheme+"://"+link.Host != defaultInviteBase {
		t.Errorf("link %s: want it on %s", link, defaultInviteBase)
	}
	r = adminCmd(t, data, "invite", "--role", "editor", "--site-url", "https://robohornets.org")
	if r.code != 0 || !strings.Contains(r.stdout, "\nhttps://robohornets.org/admin/enrol#") {
		t.Fatalf("invite --site-url: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}

	// The invitations are in DATA/console, under hashes only.
	db, err := docstore.OpenLocal(datadir.Dir(data).Console())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }() // read only: nothing to lose
	invs, err := db.List(context.Background(), "Invitations")
	if err != nil || len(invs) != 2 {
		t.Fatalf("invitations %v, %v; want 2", invs, err)
	}
	for _, d := range invs {
		if strings.Contains(string(d.JSON), link.Fragment) || d.ID == link.Fragment {
			t.Errorf("the store holds the token: %s %s", d.ID, d.JSON)
		}
	}

	// Members come from enrolment, in the console; write one as it would.
	member := `{"id":"0123456789abcdef0123456789abcdef","name":"Sam","role":"editor","created":"2026-03-01T10:00:00Z","revoked":"0001-01-01T00:00:00Z","passkeys":1,"passkeyIds":["k"]}`
	if err := db.Create(context.Background(), "Members", "0123456789abcdef0123456789abcdef", []byte(member)); err != nil {
		t.Fatal(err)
	}
	r = adminCmd(t, data, "list")
	if r.code != 0 || !regexp.MustCompile(`(?m)^0123456789abcdef0123456789abcdef\s+editor\s+Sam\s+1\s+2026-03-0[12]\s+-$`).MatchString(r.stdout) {
		t.Fatalf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = adminCmd(t, data, "revoke", "0123456789abcdef0123456789abcdef")
	if r.code != 0 || r.stdout != "Revoked 0123456789abcdef0123456789abcdef (editor): their sessions have ended.\n" {
		t.Fatalf("revoke: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	members, err := console.Members(context.Background(), db)
	if err != nil || len(members) != 1 || members[0].Revoked.IsZero() {
		t.Errorf("after revoke: %+v, %v", members, err)
	}
	r = adminCmd(t, data, "list")
	if strings.Contains(r.stdout, " -\n") {
		t.Errorf("list shows the revoked member as not revoked:\n%s", r.stdout)
	}
	audit, err := db.List(context.Background(), "Audit")
	if err != nil || len(audit) != 3 {
		t.Errorf("audit log %v, %v; want two invitations and a revocation", audit, err)
	}
}

func TestAdminErrors(t *testing.T) {
	data := t.TempDir()
	tests := []cmdCase{
		{name: "no command", wantCode: 2, wantErr: "admin needs a command"},
		{name: "unknown command", args: []string{"promote"}, wantCode: 2, wantErr: `unknown admin command "promote"`},
		{name: "no role", args: []string{"invite"}, wantCode: 2, wantErr: `--role "": want editor or admin`},
		{name: "bad role", args: []string{"invite", "--role", "owner"}, wantCode: 2, wantErr: `--role "owner"`},
		{name: "bad name", args: []string{"invite", "--role", "editor", "--name", strings.Repeat("x", 61)}, wantCode: 2, wantErr: "at most 60 characters"},
		{name: "bad site", args: []string{"invite", "--role", "editor", "--site-url", "robohornets.org"}, wantCode: 2, wantErr: "--site-url"},
		{name: "stray argument", args: []string{"invite", "--role", "editor", "x"}, wantCode: 2, wantErr: `unexpected argument "x": admin invite takes only flags`},
		{name: "revoke without id", args: []string{"revoke"}, wantCode: 2, wantErr: "revoke takes one member ID"},
		{name: "revoke nobody", args: []string{"revoke", "0123456789abcdef0123456789abcdef"}, wantCode: 1, wantErr: `no member "0123456789abcdef0123456789abcdef"`},
		{name: "list with argument", args: []string{"list", "x"}, wantCode: 2, wantErr: "list takes no arguments"},
		{name: "audit without verify", args: []string{"audit"}, wantCode: 2, wantErr: "audit takes one command: verify"},
		{name: "audit with another command", args: []string{"audit", "check"}, wantCode: 2, wantErr: "audit takes one command: verify"},
		{name: "audit verify with argument", args: []string{"audit", "verify", "x"}, wantCode: 2, wantErr: "audit takes one command: verify"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, adminCmd(t, data, tt.args...))
		})
	}
	r := runCmd(t, "admin", "--store", "nowhere", "list")
	if r.code != 2 || !strings.Contains(r.stderr, `--store "nowhere"`) {
		t.Errorf("bad --store: exit %d, %q", r.code, r.stderr)
	}
	r = runCmd(t, "admin", "--store", "firestore", "--project", "", "list")
	if r.code != 1 || !strings.Contains(r.stderr, "project") {
		t.Errorf("firestore without a project: exit %d, %q", r.code, r.stderr)
	}
}

func TestAdminInvitationsAndUninvite(t *testing.T) {
	data := t.TempDir()
	r := adminCmd(t, data, "invitations")
	if r.code != 0 || r.stdout != "No open invitations.\n" {
		t.Fatalf("invitations of none: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{{"--role", "admin", "--name", "Ada"}, {"--role", "editor"}} {
		if r := adminCmd(t, data, append([]string{"invite"}, args...)...); r.code != 0 {
			t.Fatalf("invite: exit %d\n%s", r.code, r.stderr)
		}
	}
	r = adminCmd(t, data, "invitations")
	row := regexp.MustCompile(`(?m)^([0-9a-f]{12})\s+(admin|editor)\s+(Ada|-)\s+admin command\s+\d{4}-\d\d-\d\d \d\d:\d\d$`)
	rows := row.FindAllStringSubmatch(r.stdout, -1)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "ID") || len(rows) != 2 {
		t.Fatalf("invitations: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ada := rows[0][1]
	if rows[0][2] != "admin" {
		ada = rows[1][1]
	}
	r = adminCmd(t, data, "uninvite", ada)
	if r.code != 0 || r.stdout != "Cancelled the invitation "+ada+" (admin Ada): its link no longer works.\n" {
		t.Fatalf("uninvite: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	r = adminCmd(t, data, "invitations")
	if rows := row.FindAllStringSubmatch(r.stdout, -1); len(rows) != 1 || rows[0][2] != "editor" {
		t.Errorf("invitations after uninvite:\n%s", r.stdout)
	}
	tests := []cmdCase{
		{name: "uninvite again", args: []string{"uninvite", ada}, wantCode: 1, wantErr: `no open invitation "` + ada + `" (see robohornets admin invitations)`},
		{name: "uninvite without id", args: []string{"uninvite"}, wantCode: 2, wantErr: "uninvite takes one invitation ID"},
		{name: "invitations with argument", args: []string{"invitations", "x"}, wantCode: 2, wantErr: "invitations takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, adminCmd(t, data, tt.args...))
		})
	}
	db, err := docstore.OpenLocal(datadir.Dir(data).Console())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	audit, err := db.List(context.Background(), "Audit")
	if err != nil || len(audit) != 3 || !strings.Contains(string(audit[2].JSON), `"action":"uninvite"`) {
		t.Errorf("audit log %v, %v; want two invitations and an uninvite", audit, err)
	}
}

func TestAdminAuditVerify(t *testing.T) {
	data := t.TempDir()
	for _, role := range []string{"admin", "editor"} {
		if r := adminCmd(t, data, "invite", "--role", role); r.code != 0 {
			t.Fatalf("invite: exit %d\n%s", r.code, r.stderr)
		}
	}
	r := adminCmd(t, data, "audit", "verify")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "The audit log's chain holds: 2 entries checked.\nLast entry's hash: ") {
		t.Fatalf("audit verify: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	// Someone with the store's files changes the first entry.
	db, err := docstore.OpenLocal(datadir.Dir(data).Console())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	entry, err := db.Get(context.Background(), "Audit", "e000000000001")
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(entry), `"target":"admin"`, `"target":"editor"`, 1)
	if changed == string(entry) {
		t.Fatalf("entry %s has no admin target to change", entry)
	}
	if err := db.Put(context.Background(), "Audit", "e000000000001", []byte(changed)); err != nil {
		t.Fatal(err)
	}
	r = adminCmd(t, data, "audit", "verify")
	if r.code != 1 || !strings.Contains(r.stderr, "entry e000000000001 (invite \"editor\" at ") || !strings.Contains(r.stderr, "it was changed afterwards (after 0 entries that hold)") {
		t.Errorf("audit verify of a changed log: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
}
