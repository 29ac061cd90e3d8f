package cli

import (
	"context"
	"regexp"
	"testing"

	"github.com/robohornets/robohornets/internal/clock"
	"github.com/robohornets/robohornets/internal/datadir"
	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/push"
)

// newKeyLine is the key line of push rotate-keys' output.
var newKeyLine = regexp.MustCompile(`(?m)^New VAPID public key: ([A-Za-z0-9_-]{87})$`)

// TestPushRotateKeys: rotate-keys replaces the key in DATA/console that
// serve's Notifier uses, and prints the new one.
func TestPushRotateKeys(t *testing.T) {
	data := t.TempDir()
	db, err := docstore.OpenLocal(datadir.Dir(data).Console())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	ctx := context.Background()
	opts := push.Options{DB: db, Subject: "mailto:team@robohornets.test", Clock: clock.Real{}}
	n, err := push.NewNotifier(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	old, err := n.PublicKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := runCmd(t, "push", "--data", data, "rotate-keys")
	m := newKeyLine.FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil {
		t.Fatalf("rotate-keys: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	if m[1] == old {
		t.Error("rotate-keys kept the key")
	}
	// A serve started now (a new Notifier) has the printed key.
	again, err := push.NewNotifier(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if k, _ := again.PublicKey(ctx); k != m[1] {
		t.Errorf("after rotate-keys the key is %q, want the printed %q", k, m[1])
	}
}
