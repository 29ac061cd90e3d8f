package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/news"
)

// runResult is what one command line did.
type runResult struct {
	code           int
	stdout, stderr string
}

// testVersion is the version the test program reports.
const testVersion = "v1.2.3-test"

// runCmd runs one command line of a program without a desktop window, like
// the static serve-only build.
func runCmd(t *testing.T, args ...string) runResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	p := Program{Version: testVersion, Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}
	code := p.Run(args)
	return runResult{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// newsCmd runs "news --data DATA args...".
func newsCmd(t *testing.T, data string, args ...string) runResult {
	t.Helper()
	return runCmd(t, append([]string{"news", "--data", data}, args...)...)
}

// mustNews runs a news command that must succeed.
func mustNews(t *testing.T, data string, args ...string) runResult {
	t.Helper()
	r := newsCmd(t, data, args...)
	if r.code != 0 {
		t.Fatalf("news %q: exit %d\nstderr: %s", args, r.code, r.stderr)
	}
	return r
}

// checkOneLineError checks that stderr holds one error line that names
// wantErr (a usage error ends with where to find help, on the same line).
func checkOneLineError(t *testing.T, stderr, wantErr string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "robohornets: ") {
		t.Fatalf("stderr = %q, want one line starting with robohornets:", stderr)
	}
	if !strings.Contains(lines[0], wantErr) {
		t.Errorf("error %q does not contain %q", lines[0], wantErr)
	}
}

// cmdCase is a command line and what it must do.
type cmdCase struct {
	name       string
	args       []string
	wantCode   int
	wantStdout string // a substring
	wantErr    string // a substring of the one error line
}

// check checks what the command line did: a failed one prints nothing on
// stdout and its one error line on stderr, a good one nothing on stderr.
func (tt cmdCase) check(t *testing.T, r runResult) {
	t.Helper()
	if r.code != tt.wantCode {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.wantCode, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, tt.wantStdout) {
		t.Errorf("stdout = %q, want it to contain %q", r.stdout, tt.wantStdout)
	}
	if tt.wantErr == "" {
		if r.stderr != "" {
			t.Errorf("stderr = %q, want nothing", r.stderr)
		}
		return
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q on an error", r.stdout)
	}
	checkOneLineError(t, r.stderr, tt.wantErr)
}

// tree returns every file below dir with its content, by relative path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			files[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(p)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTopLevelCommands(t *testing.T) {
	data := t.TempDir()
	tests := []cmdCase{
		{name: "version", args: []string{"version"}, wantCode: 0, wantStdout: "robohornets " + testVersion + " (commit unknown, built unknown, " + runtime.Version()},
		{name: "help", args: []string{"help"}, wantCode: 0, wantStdout: "robohornets serve [flags]"},
		{name: "unknown command", args: []string{"frobnicate"}, wantCode: 2, wantErr: `unknown command "frobnicate"`},
		{name: "news without a command", args: []string{"news", "--data", data}, wantCode: 2, wantErr: "news needs a command"},
		{name: "unknown news command", args: []string{"news", "--data", data, "publish"}, wantCode: 2, wantErr: `unknown news command "publish"`},
		{name: "push without a command", args: []string{"push", "--data", data}, wantCode: 2, wantErr: "push needs a command (rotate-keys)"},
		{name: "unknown push command", args: []string{"push", "--data", data, "rotate"}, wantCode: 2, wantErr: `unknown push command "rotate"`},
		{name: "news with an unknown store", args: []string{"news", "--data", data, "--store", "nope", "list"}, wantCode: 2, wantErr: `--store "nope"`},
		{name: "serve with an unknown store", args: []string{"serve", "--data", data, "--store", "nope"}, wantCode: 2, wantErr: `--store "nope"`},
		{name: "relative route", args: []string{"--data", data, "--route", "relative"}, wantCode: 2, wantErr: `--route "relative" must start with /`},
		{name: "empty route", args: []string{"--data", data, "--route", ""}, wantCode: 2, wantErr: "must start with /"},
		{name: "desktop with an argument", args: []string{"--data", data, "extra"}, wantCode: 2, wantErr: `unexpected argument "extra"`},
		{name: "team zero", args: []string{"serve", "--data", data, "--team", "0"}, wantCode: 2, wantErr: "--team 0"},
		{name: "nexus URL without a scheme", args: []string{"serve", "--data", data, "--nexus-url", "frc.nexus/api/v1"}, wantCode: 2, wantErr: "--nexus-url"},
		{name: "TBA URL without a scheme", args: []string{"--data", data, "--tba-url", "ftp://x"}, wantCode: 2, wantErr: "--tba-url"},
		{name: "event key with a slash", args: []string{"serve", "--data", data, "--event", "2026ok/../x"}, wantCode: 2, wantErr: "no slashes"},
		{name: "negative proxy hops", args: []string{"serve", "--data", data, "--trusted-proxy-hops", "-1"}, wantCode: 2, wantErr: "--trusted-proxy-hops -1"},
		{name: "proxy hops and trusted proxies", args: []string{"serve", "--data", data, "--trusted-proxy-hops", "1", "--trusted-proxy", "10.0.0.1"}, wantCode: 2, wantErr: "give one of them"},
		{name: "relative site URL in serve", args: []string{"serve", "--data", data, "--site-url", "robohornets.org"}, wantCode: 2, wantErr: "--site-url"},
		{name: "site URL of another scheme in the window", args: []string{"--data", data, "--site-url", "javascript:alert(1)"}, wantCode: 2, wantErr: "--site-url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, runCmd(t, tt.args...))
		})
	}
	if got := tree(t, data); len(got) != 1 {
		t.Errorf("failed commands wrote to the data dir: %q", slices.Sorted(maps.Keys(got)))
	}
}

// TestEveryCommandRefusesStrayWords: a word a command does not take, and
// any flag after it, is never dropped (serve serve --store firestore once
// served the local store): every command and sub-command exits 2 with one
// line that names the word, before it opens, creates or serves anything.
func TestEveryCommandRefusesStrayWords(t *testing.T) {
	file := writeFile(t, filepath.Join(t.TempDir(), "post.md"), "Text.\n")
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string // DATA stands for a data directory that must stay absent
		word string
	}{
		{"serve serve, flags after it", []string{"serve", "serve", "--data", "DATA", "--store", "firestore", "--project", "P"}, "serve"},
		{"serve with a word", []string{"serve", "--data", "DATA", "extra"}, "extra"},
		{"serve with a word between flags", []string{"serve", "--data", "DATA", "extra", "--listen", "127.0.0.1:0"}, "extra"},
		{"window: a command after a flag", []string{"--data", "DATA", "serve"}, "serve"},
		{"window with a word and a flag after it", []string{"--data", "DATA", "extra", "--kiosk"}, "extra"},
		{"version", []string{"version", "x"}, "x"},
		{"version, flag-like word after one", []string{"version", "x", "--data", "DATA"}, "x"},
		{"help", []string{"help", "serve"}, "serve"},
		{"healthcheck with two URLs", []string{"healthcheck", "http://127.0.0.1:1/readyz", "http://127.0.0.1:2/readyz"}, "http://127.0.0.1:2/readyz"},
		{"healthcheck a b", []string{"healthcheck", "a", "b"}, "b"},
		{"healthcheck with a word after a flag", []string{"healthcheck", "--timeout", "1s", "a", "b"}, "b"},
		{"news list", []string{"news", "--data", "DATA", "list", "extra"}, "extra"},
		{"news list list", []string{"news", "--data", "DATA", "list", "list"}, "list"},
		{"news show", []string{"news", "--data", "DATA", "show", "some-id", "extra"}, "extra"},
		{"news add", []string{"news", "--data", "DATA", "add", "--title", "T", file, "extra"}, "extra"},
		{"news add, flags after the file", []string{"news", "--data", "DATA", "add", file, "--title", "T", "extra"}, "extra"},
		{"news edit", []string{"news", "--data", "DATA", "edit", "some-id", file, "extra"}, "extra"},
		{"news edit, a flag after the word", []string{"news", "--data", "DATA", "edit", "some-id", file, "extra", "--title", "T"}, "extra"},
		{"news rm", []string{"news", "--data", "DATA", "rm", "some-id", "extra"}, "extra"},
		{"news import", []string{"news", "--data", "DATA", "import", dir, "extra"}, "extra"},
		{"news export", []string{"news", "--data", "DATA", "export", dir, "extra"}, "extra"},
		{"admin list", []string{"admin", "--data", "DATA", "list", "extra"}, "extra"},
		{"admin invite", []string{"admin", "--data", "DATA", "invite", "--role", "editor", "extra"}, "extra"},
		{"admin invite, a flag after the word", []string{"admin", "--data", "DATA", "invite", "extra", "--role", "editor"}, "extra"},
		{"admin revoke", []string{"admin", "--data", "DATA", "revoke", "0123456789abcdef0123456789abcdef", "extra"}, "extra"},
		{"push rotate-keys", []string{"push", "--data", "DATA", "rotate-keys", "extra"}, "extra"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			args := slices.Clone(tt.args)
			for i, a := range args {
				if a == "DATA" {
					args[i] = data
				}
			}
			r := runCmd(t, args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\nstderr: %s", r.code, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
			want := fmt.Sprintf("unexpected argument %q", tt.word)
			if lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "robohornets: ") || !strings.Contains(lines[0], want) {
				t.Errorf("stderr = %q, want one line that says %s", r.stderr, want)
			}
			if _, err := os.Stat(data); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the data dir exists (stat: %v): the command went on", err)
			}
		})
	}
}

func TestDesktopModeWithoutDesktopBuild(t *testing.T) {
	data := t.TempDir()
	r := runCmd(t, "--data", data)
	if r.code != 2 {
		t.Errorf("exit %d, want 2", r.code)
	}
	if want := "robohornets: this build has no desktop window; use `robohornets serve`\n"; r.stderr != want {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
	if got := tree(t, data); len(got) != 1 {
		t.Errorf("the desktop mode wrote %q before finding it has no window", slices.Sorted(maps.Keys(got)))
	}
}

func TestHelpListsFlags(t *testing.T) {
	tests := []struct {
		name      string
		args      []string // after "--data DATA" for news
		wantFlags []string
	}{
		{name: "desktop", args: []string{"-h"}, wantFlags: []string{"-site-url", "-route", "-kiosk", "-data", "-store", "-project", "-team", "-event", "-nexus-event", "-nexus-url", "-tba-url"}},
		{name: "serve", args: []string{"serve", "-h"}, wantFlags: []string{"-listen", "-site-url", "-data", "-store", "-project", "-team", "-event", "-nexus-event", "-nexus-url", "-tba-url", "-max-streams", "-max-streams-per-client", "-trusted-proxy", "-trusted-proxy-hops", "-fast-path"}},
		{name: "serve --help", args: []string{"serve", "--help"}, wantFlags: []string{"-listen", "-site-url"}},
		{name: "news", args: []string{"news", "-h"}, wantFlags: []string{"-data", "-store", "-project"}},
		{name: "news add", args: []string{"news", "add", "-h"}, wantFlags: []string{"-title", "-date", "-id"}},
		{name: "news edit", args: []string{"news", "edit", "-h"}, wantFlags: []string{"-title", "-date"}},
		{name: "news list", args: []string{"news", "list", "-h"}},
		{name: "news show", args: []string{"news", "show", "-h"}},
		{name: "news rm", args: []string{"news", "rm", "-h"}},
		{name: "news import", args: []string{"news", "import", "-h"}},
		{name: "news export", args: []string{"news", "export", "-h"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Anything a help request wrongly writes lands in this
			// directory, not in the source tree.
			cwd := t.TempDir()
			t.Chdir(cwd)
			data := t.TempDir()
			args := tt.args
			if args[0] == "news" {
				args = append([]string{"news", "--data", data}, args[1:]...)
			}
			r := runCmd(t, args...)
			if r.code != 0 {
				t.Fatalf("exit %d, want 0\nstderr: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "Usage:") || !strings.Contains(r.stderr, "Flags:") {
				t.Errorf("stderr has no usage and flags:\n%s", r.stderr)
			}
			for _, f := range tt.wantFlags {
				if !strings.Contains(r.stderr, "\n  "+f+" ") && !strings.Contains(r.stderr, "\n  "+f+"\n") {
					t.Errorf("usage does not list %s:\n%s", f, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "robohornets: usage") {
				t.Errorf("help printed an error:\n%s", r.stderr)
			}
			if got := tree(t, cwd); len(got) != 1 {
				t.Errorf("help wrote files: %q", slices.Sorted(maps.Keys(got)))
			}
			if entries, _ := os.ReadDir(filepath.Join(data, "news")); len(entries) > len(sampleIDs(t)) {
				t.Errorf("help wrote articles: %d files", len(entries))
			}
		})
	}
}

func sampleIDs(t *testing.T) []string {
	t.Helper()
	samples, err := news.SampleArticles()
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(samples))
	for i, a := range samples {
		ids[i] = a.ID
	}
	return ids
}

// listIDs parses the output of "news list" into ids.
func listIDs(t *testing.T, out string) []string {
	t.Helper()
	var ids []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		// "2006-01-02 15:04  id  title"
		fields := strings.Fields(line)
		if len(fields) < 4 {
			t.Fatalf("list line %q has too few fields", line)
		}
		ids = append(ids, fields[2])
	}
	return ids
}

func parseShow(t *testing.T, id, out string) news.Article {
	t.Helper()
	a, err := news.ParseFile(id, []byte(out))
	if err != nil {
		t.Fatalf("show output is not an article file: %v\n%s", err, out)
	}
	return a
}

func TestNewsLifecycle(t *testing.T) {
	data := t.TempDir()
	content := "First line of the story.\n\nSecond paragraph with **bold** text.\n"
	file := writeFile(t, filepath.Join(t.TempDir(), "story.md"), content)
	const title = "Robot Wins the Regional!"
	const id = "robot-wins-the-regional"
	date := time.Date(2026, 1, 10, 12, 0, 0, 0, time.FixedZone("", -6*3600))

	r := mustNews(t, data, "add", "--title", title, "--date", "2026-01-10T12:00:00-06:00", file)
	if r.stdout != id+"\n" {
		t.Fatalf("add printed %q, want the id %q", r.stdout, id)
	}

	t.Run("list", func(t *testing.T) {
		r := mustNews(t, data, "list")
		ids := listIDs(t, r.stdout)
		want := append(sampleIDs(t), id)
		if !slices.Equal(slices.Sorted(slices.Values(ids)), slices.Sorted(slices.Values(want))) {
			t.Errorf("list ids = %q, want the samples and %q", ids, id)
		}
		var line string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, " "+id+" ") {
				line = l
			}
		}
		if !strings.HasPrefix(line, "2026-01-10 12:00") || !strings.HasSuffix(line, title) {
			t.Errorf("list line = %q, want the date and the title", line)
		}
	})

	t.Run("show", func(t *testing.T) {
		r := mustNews(t, data, "show", id)
		if !strings.HasPrefix(r.stdout, "---\n") {
			t.Errorf("show does not start with front matter:\n%s", r.stdout)
		}
		a := parseShow(t, id, r.stdout)
		if a.Title != title || !a.Date.Equal(date) || a.Content != content {
			t.Errorf("show = %q %v %q, want %q %v %q", a.Title, a.Date, a.Content, title, date, content)
		}
	})

	t.Run("edit title", func(t *testing.T) {
		r := mustNews(t, data, "edit", id, "--title", "New Title")
		if r.stdout != "" || r.stderr != "" {
			t.Errorf("edit printed %q %q", r.stdout, r.stderr)
		}
		a := parseShow(t, id, mustNews(t, data, "show", id).stdout)
		if a.Title != "New Title" || !a.Date.Equal(date) || a.Content != content {
			t.Errorf("after edit: %q %v %q, want only the title changed", a.Title, a.Date, a.Content)
		}
	})

	t.Run("edit date and content", func(t *testing.T) {
		newContent := "Rewritten.\n"
		newFile := writeFile(t, filepath.Join(t.TempDir(), "new.md"), newContent)
		mustNews(t, data, "edit", id, "--date", "2026-02-01T08:30:00Z", newFile)
		a := parseShow(t, id, mustNews(t, data, "show", id).stdout)
		if a.Title != "New Title" || !a.Date.Equal(time.Date(2026, 2, 1, 8, 30, 0, 0, time.UTC)) || a.Content != newContent {
			t.Errorf("after edit: %q %v %q", a.Title, a.Date, a.Content)
		}
	})

	t.Run("a second article with the same title gets a free id", func(t *testing.T) {
		// The first article is now titled "New Title" but keeps its id.
		r := mustNews(t, data, "add", "--title", title, "--date", "2026-01-11T12:00:00-06:00", file)
		if r.stdout != id+"-2\n" {
			t.Errorf("add printed %q, want %q", r.stdout, id+"-2")
		}
		mustNews(t, data, "rm", id+"-2")
	})

	t.Run("rm", func(t *testing.T) {
		if r := mustNews(t, data, "rm", id); r.stdout != "" {
			t.Errorf("rm printed %q", r.stdout)
		}
		if ids := listIDs(t, mustNews(t, data, "list").stdout); slices.Contains(ids, id) {
			t.Errorf("list still has %q after rm: %q", id, ids)
		}
		before := tree(t, data)
		r := newsCmd(t, data, "rm", id)
		if r.code == 0 {
			t.Fatal("a second rm succeeded")
		}
		checkOneLineError(t, r.stderr, id)
		checkOneLineError(t, r.stderr, "no such article")
		if after := tree(t, data); !maps.Equal(before, after) {
			t.Error("a failed rm changed the store")
		}
	})
}

func TestNewsBadInputWritesNothing(t *testing.T) {
	data := t.TempDir()
	tmp := t.TempDir()
	good := writeFile(t, filepath.Join(tmp, "good.md"), "Some *markdown*.\n")
	notUTF8 := writeFile(t, filepath.Join(tmp, "latin1.md"), "caf\xe9\n")
	const existing = "existing-story"
	mustNews(t, data, "add", "--id", existing, "--title", "Existing story", "--date", "2026-01-10T12:00:00-06:00", good)

	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
		// beforeStore: the mistake is found before the store is opened, so
		// not even a new data dir is created (opening a local store seeds it).
		beforeStore bool
	}{
		{name: "add without --title", args: []string{"add", good}, wantCode: 2, wantErr: "--title", beforeStore: true},
		{name: "add with a blank title", args: []string{"add", "--title", "   ", good}, wantCode: 2, wantErr: "--title", beforeStore: true},
		{name: "add with a bad date", args: []string{"add", "--title", "T", "--date", "10/01/2026", good}, wantCode: 2, wantErr: `--date "10/01/2026"`, beforeStore: true},
		{name: "add with a date without zone", args: []string{"add", "--title", "T", "--date", "2026-01-10T12:00:00", good}, wantCode: 2, wantErr: "RFC 3339", beforeStore: true},
		{name: "add with a slash in the id", args: []string{"add", "--title", "T", "--id", "a/b", good}, wantCode: 1, wantErr: "slash"},
		{name: "add with a reserved id", args: []string{"add", "--title", "T", "--id", "__x__", good}, wantCode: 1, wantErr: "reserved"},
		{name: "add with a dot id", args: []string{"add", "--title", "T", "--id", "..", good}, wantCode: 1, wantErr: "invalid article id"},
		{name: "add with a hidden-file id", args: []string{"add", "--title", "T", "--id", ".hidden", good}, wantCode: 1, wantErr: "invalid article id"},
		{name: "add over an existing id", args: []string{"add", "--title", "T", "--id", existing, good}, wantCode: 1, wantErr: "already exists"},
		{name: "add an unreadable file", args: []string{"add", "--title", "T", filepath.Join(tmp, "missing.md")}, wantCode: 1, wantErr: "missing.md", beforeStore: true},
		{name: "add a directory", args: []string{"add", "--title", "T", tmp}, wantCode: 1, wantErr: "read content", beforeStore: true},
		{name: "add a file that is not UTF-8", args: []string{"add", "--title", "T", notUTF8}, wantCode: 1, wantErr: "not UTF-8", beforeStore: true},
		{name: "add without a file", args: []string{"add", "--title", "T"}, wantCode: 2, wantErr: "content file", beforeStore: true},
		{name: "add with two files", args: []string{"add", "--title", "T", good, good}, wantCode: 2, wantErr: "content file", beforeStore: true},
		{name: "show an unknown id", args: []string{"show", "nope"}, wantCode: 1, wantErr: "no such article"},
		{name: "show without an id", args: []string{"show"}, wantCode: 2, wantErr: "article id", beforeStore: true},
		{name: "show an invalid id", args: []string{"show", "a/b"}, wantCode: 1, wantErr: "invalid article id"},
		{name: "edit an unknown id", args: []string{"edit", "nope", "--title", "X"}, wantCode: 1, wantErr: "no such article"},
		{name: "edit without an id", args: []string{"edit"}, wantCode: 2, wantErr: "article id", beforeStore: true},
		{name: "edit with a bad date", args: []string{"edit", existing, "--date", "yesterday"}, wantCode: 2, wantErr: `--date "yesterday"`, beforeStore: true},
		{name: "edit with a blank title", args: []string{"edit", existing, "--title", " "}, wantCode: 1, wantErr: "no title"},
		{name: "edit with an unreadable file", args: []string{"edit", existing, "--title", "X", filepath.Join(tmp, "missing.md")}, wantCode: 1, wantErr: "missing.md", beforeStore: true},
		{name: "edit with two files", args: []string{"edit", existing, good, good}, wantCode: 2, wantErr: "at most one content file", beforeStore: true},
		{name: "rm an unknown id", args: []string{"rm", "nope"}, wantCode: 1, wantErr: "no such article"},
		{name: "rm an invalid id", args: []string{"rm", "__x__"}, wantCode: 1, wantErr: "invalid article id"},
		{name: "rm two ids", args: []string{"rm", existing, "other"}, wantCode: 2, wantErr: "article id", beforeStore: true},
		{name: "list with an argument", args: []string{"list", "all"}, wantCode: 2, wantErr: "no arguments", beforeStore: true},
		{name: "import a missing dir", args: []string{"import", filepath.Join(tmp, "nowhere")}, wantCode: 1, wantErr: "no .md files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tree(t, data)
			r := newsCmd(t, data, tt.args...)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, tt.wantCode, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q on an error", r.stdout)
			}
			checkOneLineError(t, r.stderr, tt.wantErr)
			if after := tree(t, data); !maps.Equal(before, after) {
				t.Errorf("the data dir changed:\nbefore %q\nafter  %q", slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
			}
			if !tt.beforeStore {
				return
			}
			fresh := filepath.Join(t.TempDir(), "data")
			if r := newsCmd(t, fresh, tt.args...); r.code != tt.wantCode {
				t.Fatalf("on a new data dir: exit %d, want %d\nstderr: %s", r.code, tt.wantCode, r.stderr)
			}
			if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a mistake created the data dir %s (stat: %v)", fresh, err)
			}
		})
	}
}

// TestNewsUnknownFlag: an unknown flag, before or after the arguments, is
// a mistake like any other: one line that names it, exit status 2, the
// store untouched.
func TestNewsUnknownFlag(t *testing.T) {
	data := t.TempDir()
	file := writeFile(t, filepath.Join(t.TempDir(), "a.md"), "Text.\n")
	mustNews(t, data, "add", "--id", "kept", "--title", "Kept", file)
	tests := []struct {
		name string
		args []string
	}{
		{"news", []string{"--bogus", "list"}},
		{"add", []string{"add", "--bogus", "--title", "T", file}},
		{"edit", []string{"edit", "kept", "--bogus", "x"}},
		{"rm", []string{"rm", "--force", "kept"}},
		{"import", []string{"import", "--all", t.TempDir()}},
		{"list, a parent's flag after the command", []string{"list", "--store", "local"}},
		{"add, after the file", []string{"add", "--title", "T", file, "--bogus"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tree(t, data)
			r := newsCmd(t, data, tt.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2", r.code)
			}
			checkOneLineError(t, r.stderr, ": flag provided but not defined: -")
			if after := tree(t, data); !maps.Equal(before, after) {
				t.Error("the data dir changed")
			}
		})
	}
}

// TestNewsFlagsAnywhere: flags may come before, between or after the
// arguments, and a word after "--" is an argument even with a dash.
func TestNewsFlagsAnywhere(t *testing.T) {
	data := t.TempDir()
	dir := t.TempDir()
	file := writeFile(t, filepath.Join(dir, "a.md"), "Text.\n")
	writeFile(t, filepath.Join(dir, "-dash.md"), "Dashed.\n")
	t.Chdir(dir)
	mustNews(t, data, "add", file, "--title", "After", "--id", "after")
	mustNews(t, data, "edit", "--title", "Before the id", "after")
	mustNews(t, data, "edit", "after", file, "--date", "2026-01-10T12:00:00-06:00")
	mustNews(t, data, "add", "--title", "Dashed", "--id", "dashed", "--", "-dash.md")
	if a := parseShow(t, "after", mustNews(t, data, "show", "after").stdout); a.Title != "Before the id" || a.Date.Format(time.RFC3339) != "2026-01-10T12:00:00-06:00" {
		t.Errorf("after: title %q, date %v; want the flags after the arguments applied", a.Title, a.Date)
	}
	if a := parseShow(t, "dashed", mustNews(t, data, "show", "dashed").stdout); a.Content != "Dashed.\n" {
		t.Errorf("dashed: content %q, want the file after --", a.Content)
	}
}

// validFile is an article file that news import accepts.
func validFile(title, date, content string) string {
	return "---\ntitle: " + title + "\ndate: " + date + "\n---\n" + content
}

func TestNewsImport(t *testing.T) {
	good := validFile("Good story", "2026-01-10T12:00:00-06:00", "Fine.\n")
	tests := []struct {
		name       string
		files      map[string]string
		wantCode   int
		wantStdout string
		wantErr    string
		wantIDs    []string // added to the store
	}{
		{
			name:     "one broken file imports nothing",
			files:    map[string]string{"good.md": good, "broken.md": "no front matter here\n"},
			wantCode: 1, wantErr: "broken.md",
		},
		{
			name:     "a file without a date imports nothing",
			files:    map[string]string{"good.md": good, "undated.md": "---\ntitle: Undated\n---\nText\n"},
			wantCode: 1, wantErr: "no date",
		},
		{
			name:     "a reserved id imports nothing",
			files:    map[string]string{"good.md": good, "__x__.md": validFile("Reserved", "2026-01-10T12:00:00Z", "")},
			wantCode: 1, wantErr: "reserved",
		},
		{
			name:     "an id the store refuses imports nothing",
			files:    map[string]string{"good.md": good, ".hidden.md": validFile("Hidden", "2026-01-10T12:00:00Z", "")},
			wantCode: 1, wantErr: ".hidden",
		},
		{
			// "good" sorts first, so a check at write time comes too late.
			name:     "an id the store refuses after a good one imports nothing",
			files:    map[string]string{"good.md": good, `z\x.md`: validFile("Backslash", "2026-01-10T12:00:00Z", "")},
			wantCode: 1, wantErr: "backslash",
		},
		{
			name:     "no article files",
			files:    map[string]string{"notes.txt": "not an article"},
			wantCode: 1, wantErr: "no .md files",
		},
		{
			name:       "good files",
			files:      map[string]string{"good.md": good, "other.md": validFile(`"Quoted: title"`, "2026-01-11T12:00:00Z", "Other.\n"), "notes.txt": "ignored"},
			wantCode:   0,
			wantStdout: "imported 2 articles\n",
			wantIDs:    []string{"good", "other"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			mustNews(t, data, "list") // creates the store
			dir := t.TempDir()
			for name, content := range tt.files {
				writeFile(t, filepath.Join(dir, name), content)
			}
			before := tree(t, data)
			r := newsCmd(t, data, "import", dir)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.wantCode, r.stdout, r.stderr)
			}
			if r.stdout != tt.wantStdout {
				t.Errorf("stdout = %q, want %q", r.stdout, tt.wantStdout)
			}
			ids := listIDs(t, mustNews(t, data, "list").stdout)
			if got, want := slices.Sorted(slices.Values(ids)), slices.Sorted(slices.Values(append(sampleIDs(t), tt.wantIDs...))); !slices.Equal(got, want) {
				t.Errorf("ids after import = %q, want %q", got, want)
			}
			if tt.wantCode == 0 {
				a := parseShow(t, "other", mustNews(t, data, "show", "other").stdout)
				if a.Title != "Quoted: title" || a.Content != "Other.\n" {
					t.Errorf("imported article = %+v", a)
				}
				return
			}
			checkOneLineError(t, r.stderr, tt.wantErr)
			if tt.wantErr != "no .md files" && !strings.Contains(r.stderr, "nothing was imported") {
				t.Errorf("the error does not say nothing was imported: %q", r.stderr)
			}
			if after := tree(t, data); !maps.Equal(before, after) {
				t.Errorf("a failed import changed the store:\nbefore %q\nafter  %q", slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
			}
		})
	}
}

func TestNewsExportImportRoundTrip(t *testing.T) {
	from := t.TempDir()
	tmp := t.TempDir()
	tricky := writeFile(t, filepath.Join(tmp, "tricky.md"), "# Heading\n\nA line with --- in it.\n\n---\n\nAfter a rule: ünïcödé, \"quotes\", <b>tags</b>.\n")
	mustNews(t, from, "add", "--title", `Title: with "quotes" and ünïcödé`, "--date", "2026-03-01T09:15:30.5-06:00", tricky)
	mustNews(t, from, "add", "--title", "Empty", "--id", "empty", "--date", "2026-03-02T00:00:00Z", writeFile(t, filepath.Join(tmp, "empty.md"), ""))
	wantIDs := listIDs(t, mustNews(t, from, "list").stdout)

	dir := filepath.Join(t.TempDir(), "export")
	r := mustNews(t, from, "export", dir)
	if want := "exported " + strconv.Itoa(len(wantIDs)) + " articles to " + dir + "\n"; r.stdout != want {
		t.Errorf("export printed %q, want %q", r.stdout, want)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) != len(wantIDs) {
		t.Fatalf("export wrote %d files (%v), want %d", len(files), err, len(wantIDs))
	}

	// An empty news dir is not seeded, so the import is all it holds.
	to := t.TempDir()
	if err := os.MkdirAll(filepath.Join(to, "news"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = mustNews(t, to, "import", dir)
	if want := "imported " + strconv.Itoa(len(wantIDs)) + " articles\n"; r.stdout != want {
		t.Errorf("import printed %q, want %q", r.stdout, want)
	}
	if got, want := mustNews(t, to, "list").stdout, mustNews(t, from, "list").stdout; got != want {
		t.Errorf("list after the round trip:\n%s\nwant:\n%s", got, want)
	}
	for _, id := range wantIDs {
		got, want := mustNews(t, to, "show", id).stdout, mustNews(t, from, "show", id).stdout
		if got != want {
			t.Errorf("show %s after the round trip:\n%s\nwant:\n%s", id, got, want)
		}
	}
	a := parseShow(t, "tricky", mustNews(t, to, "show", news.Slug(`Title: with "quotes" and ünïcödé`)).stdout)
	if a.Title != `Title: with "quotes" and ünïcödé` || !a.Date.Equal(time.Date(2026, 3, 1, 15, 15, 30, 5e8, time.UTC)) {
		t.Errorf("tricky article = %q %v", a.Title, a.Date)
	}
}

func TestNewsAddInTheFutureSaysScheduled(t *testing.T) {
	data := t.TempDir()
	file := writeFile(t, filepath.Join(t.TempDir(), "story.md"), "Coming soon.\n")
	future := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second).Format(time.RFC3339)
	r := mustNews(t, data, "add", "--title", "Kickoff", "--date", future, file)
	if r.stdout != "kickoff\n" {
		t.Errorf("add printed %q on stdout, want only the id", r.stdout)
	}
	if want := `scheduled: the site shows "kickoff" from ` + future; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
	r = mustNews(t, data, "add", "--title", "Done", "--date", "2026-01-10T12:00:00-06:00", file)
	if strings.Contains(r.stderr, "scheduled") {
		t.Errorf("a past date said scheduled: %q", r.stderr)
	}
}
