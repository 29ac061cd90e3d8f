//go:build slow

package cli

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/robohornets/robohornets/internal/atomicfile"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/testutil/servetest"
)

// killRun is one command run in a process of its own and killed at a
// chosen moment.
type killRun struct {
	args []string
	// duringWrite counts delay from the command's first change in the
	// watched directory (its temporary file) instead of from its start.
	duringWrite bool
	delay       time.Duration
}

// killResult is what became of a killRun.
type killResult struct {
	killed bool          // false: the command was done before the kill
	ran    time.Duration // from the start to the exit
	wrote  time.Duration // from the first change in the directory to the exit; with duringWrite only
}

// changeAfterExit bounds the wait for the change of a run that ended well:
// long past fsnotify's delivery of an event the kernel queued already.
const changeAfterExit = 10 * time.Second

// waitChange returns when the change of r, which ended well, arrives; it
// fails the test when none comes.
func (r killRun) waitChange(t *testing.T, changes <-chan fsnotify.Event, p *servetest.Process, stderr *bytes.Buffer) time.Time {
	t.Helper()
	timer := time.NewTimer(changeAfterExit)
	defer timer.Stop()
	select {
	case <-changes:
		return time.Now()
	case <-timer.C:
		t.Fatalf("%q succeeded and changed nothing: %v\nstderr: %s", r.args, p.Err(), stderr.String())
		return time.Time{}
	}
}

// run runs r, killing it (SIGKILL on Unix: no handler, no deferred cleanup) at
// r's moment. dir is the directory to watch for duringWrite. A command that
// ends by itself must succeed.
func (r killRun) run(t *testing.T, dir string) killResult {
	t.Helper()
	var changes chan fsnotify.Event
	if r.duringWrite {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = w.Close() }() // teardown: a close error changes nothing here
		if err := w.Add(dir); err != nil {
			t.Fatal(err)
		}
		changes = w.Events
	}
	var stderr bytes.Buffer
	cmd := programCmd(t, r.args...)
	cmd.Stderr = &stderr
	// Real time throughout: the moments are those of a real process.
	start := time.Now()
	p := servetest.Start(t, cmd, time.Second)
	var res killResult
	var changed time.Time
	if r.duringWrite {
		select {
		case <-changes:
			changed = time.Now()
		case <-p.Exited():
			// A quick run may write and end before this select sees its
			// change: when it succeeded, it wrote, and the change is on
			// its way from fsnotify.
			if p.Err() == nil {
				changed = r.waitChange(t, changes, p, &stderr)
				break
			}
			t.Fatalf("%q changed nothing in %s: %v\nstderr: %s", r.args, dir, p.Err(), stderr.String())
		}
	}
	kill := time.NewTimer(r.delay)
	defer kill.Stop()
	select {
	case <-p.Exited():
	case <-kill.C:
		p.Kill()
		res.killed = p.Killed()
	}
	err := p.Err()
	res.ran = time.Since(start)
	if r.duringWrite {
		res.wrote = time.Since(changed)
	}
	if !res.killed && err != nil {
		t.Fatalf("%q: %v\nstderr: %s", r.args, err, stderr.String())
	}
	return res
}

// TestNewsKilledMidWrite kills news commands writing large articles to the
// local store with SIGKILL 100 times, at moments spread over the whole
// command and, every other time, within its write. After each kill every
// article file is whole, the version before the command or the one it
// wrote (an added article: absent or whole); the store lists exactly the
// article files and reads them; the temporary files of killed writes are
// never taken for articles, and once stale the next command removes them.
func TestNewsKilledMidWrite(t *testing.T) {
	data := t.TempDir()
	dir := filepath.Join(data, "news")
	src := t.TempDir()
	// Large enough that writing and syncing one takes a measurable while.
	content := map[string]string{"A": bigContent("alpha", 1<<19), "B": bigContent("bravo", 3<<18)}
	file := map[string]string{}
	for v, c := range content {
		file[v] = writeFile(t, filepath.Join(src, v+".md"), c)
	}
	const date = "2026-01-10T12:00:00-06:00"
	day, err := time.Parse(time.RFC3339, date)
	if err != nil {
		t.Fatal(err)
	}
	version := map[string][]byte{}
	for v, c := range content {
		version[v] = news.FormatFile(news.Article{ID: "big", Title: "Version " + v, Date: day, Content: c})
	}

	// The samples and article "big", version A; whole holds every content
	// each article file may have.
	mustNews(t, data, "add", "--id", "big", "--title", "Version A", "--date", date, file["A"])
	whole := map[string][][]byte{}
	for name, c := range tree(t, dir) {
		whole[name] = [][]byte{[]byte(c)}
	}
	whole["big.md"] = [][]byte{version["A"], version["B"]}
	required := slices.Collect(maps.Keys(whole)) // an added article may be absent
	edit := func(v string) []string {
		return []string{"news", "--data", data, "edit", "big", "--title", "Version " + v, file[v]}
	}

	// Two edits to the end, timed: the command, and its write from its
	// first change in the directory (with the process's exit).
	timing := killRun{args: edit("B"), duringWrite: true, delay: time.Hour}.run(t, dir)
	checkWhole(t, data, whole, required, "big.md")
	if got := readFile(t, filepath.Join(dir, "big.md")); !bytes.Equal(got, version["B"]) {
		t.Fatalf("big.md after the edit to B is not version B (%d bytes)", len(got))
	}
	again := killRun{args: edit("A"), duringWrite: true, delay: time.Hour}.run(t, dir)
	runTime, writeTime := min(timing.ran, again.ran), min(timing.wrote, again.wrote)
	t.Logf("an edit runs %v, its write %v", runTime, writeTime)

	var finished, beforeWrite, midWrite, afterRename int
	temps := 0
	for i := range 100 {
		r := killRun{duringWrite: i%2 == 1}
		name := "big.md"
		var target []byte
		if i%4 == 3 {
			id := fmt.Sprintf("extra-%d", i)
			name = id + ".md"
			r.args = []string{"news", "--data", data, "add", "--id", id, "--title", "Extra", "--date", date, file["A"]}
			target = news.FormatFile(news.Article{ID: id, Title: "Extra", Date: day, Content: content["A"]})
			whole[name] = [][]byte{target}
		} else {
			next := "B"
			if bytes.Equal(readFile(t, filepath.Join(dir, name)), version["B"]) {
				next = "A"
			}
			r.args, target = edit(next), version[next]
		}
		// Random moments: which phase a kill hits depends on the machine's
		// timing anyway, so a seed would not replay a run.
		from := "its start"
		if r.duringWrite {
			r.delay, from = rand.N(writeTime), "its first change in the directory"
		} else {
			r.delay = rand.N(runTime * 6 / 5)
		}
		res := r.run(t, dir)
		nowTemps := checkWhole(t, data, whole, required, name)
		done := bytes.Equal(readFile(t, filepath.Join(dir, name)), target)
		switch {
		case !res.killed:
			finished++
			if !done {
				t.Fatalf("kill %d: %q succeeded but %s is not what it wrote", i, r.args, name)
			}
		case nowTemps > temps:
			midWrite++
		case done:
			afterRename++
		default:
			beforeWrite++
		}
		if t.Failed() {
			t.Fatalf("kill %d: %q, killed %v after %s", i, r.args, r.delay, from)
		}
		temps = nowTemps
		if name != "big.md" && done {
			mustNews(t, data, "rm", strings.TrimSuffix(name, ".md")) // keep the store small
		}
	}
	t.Logf("100 kills: %d before the write, %d mid-write (a temporary file left), %d after the rename; %d commands done before their kill",
		beforeWrite, midWrite, afterRename, finished)
	if midWrite == 0 {
		t.Fatalf("no kill landed within a write (%v long): this run proves nothing", writeTime)
	}

	// The temporary files of the killed writes, once stale, go at the next
	// command; a young one may be a write under way and stays.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	old := time.Now().Add(-atomicfile.StaleAfter - time.Minute)
	for _, e := range entries {
		if isTempName(e.Name()) {
			stale = append(stale, e.Name())
			if err := os.Chtimes(filepath.Join(dir, e.Name()), old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	young := writeFile(t, filepath.Join(dir, ".big.md.tmp-1209"), "a write under way")
	r := mustNews(t, data, "list")
	if !strings.Contains(r.stderr, "removed the temporary files of interrupted writes") {
		t.Errorf("news list said nothing of the %d stale temporary files: %q", len(stale), r.stderr)
	}
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("stale %s is still there (%v)", name, err)
		}
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("the young temporary file was removed: %v", err)
	}
}

// isTempName reports whether name is that of a temporary file of
// atomicfile.Write, like ".big.md.tmp-123".
func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

// checkWhole checks the local store of the data directory data: every file
// of its directory is either an article file holding one of its whole
// versions in whole, or a temporary file of atomicfile.Write, whose number
// it returns; the files named in required are there; news list lists the
// article files, no more, without a complaint (it reads them all); and news
// show reads the article of file name, when it is there.
func checkWhole(t *testing.T, data string, whole map[string][][]byte, required []string, name string) (temps int) {
	t.Helper()
	dir := filepath.Join(data, "news")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		file := e.Name()
		if isTempName(file) {
			temps++
			continue
		}
		versions, ok := whole[file]
		if !ok {
			t.Errorf("unexpected file %s in the store", file)
			continue
		}
		got := readFile(t, filepath.Join(dir, file))
		if !slices.ContainsFunc(versions, func(v []byte) bool { return bytes.Equal(got, v) }) {
			t.Errorf("%s is no whole version: %d bytes, %q…%q", file, len(got), got[:min(len(got), 60)], got[max(0, len(got)-60):])
		}
		ids = append(ids, strings.TrimSuffix(file, ".md"))
	}
	for _, name := range required {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	slices.Sort(ids)
	r := newsCmd(t, data, "list")
	if r.code != 0 || r.stderr != "" {
		t.Errorf("news list: exit %d\nstderr: %s", r.code, r.stderr)
	}
	listed := listIDs(t, r.stdout)
	slices.Sort(listed)
	if !slices.Equal(listed, ids) {
		t.Errorf("news list lists %q, want the article files %q", listed, ids)
	}
	if id := strings.TrimSuffix(name, ".md"); slices.Contains(ids, id) {
		if r := newsCmd(t, data, "show", id); r.code != 0 || r.stdout != string(readFile(t, filepath.Join(dir, name))) {
			t.Errorf("news show %s: exit %d, %d bytes that are not its file\nstderr: %s", id, r.code, len(r.stdout), r.stderr)
		}
	}
	return temps
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return data
}
