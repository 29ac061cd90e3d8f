//go:build release

package release

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The kiosk package's name and its systemd user unit.
const (
	pkg  = "robohornets-kiosk"
	unit = "/usr/lib/systemd/user/robohornets-kiosk.service"
)

// rel is the release under test.
var rel = struct {
	dir        string
	version    string // as the binaries report it
	debVersion string // the .deb's
	arch       string // the desktop binary's and the .deb's (Go and Debian name amd64 and arm64 alike)
}{
	dir:        os.Getenv("ROBOHORNETS_RELEASE_DIR"),
	version:    os.Getenv("ROBOHORNETS_RELEASE_VERSION"),
	debVersion: os.Getenv("ROBOHORNETS_RELEASE_DEB_VERSION"),
	arch:       runtime.GOARCH,
}

func TestMain(m *testing.M) {
	if rel.dir == "" || rel.version == "" || rel.debVersion == "" {
		fmt.Fprintln(os.Stderr, "set ROBOHORNETS_RELEASE_DIR, ROBOHORNETS_RELEASE_VERSION and ROBOHORNETS_RELEASE_DEB_VERSION (make test-release does)")
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func serveBinary(arch string) string {
	return filepath.Join(rel.dir, fmt.Sprintf("robohornets-server_%s_linux_%s", rel.version, arch))
}

func desktopBinary() string {
	return filepath.Join(rel.dir, fmt.Sprintf("robohornets_%s_linux_%s", rel.version, rel.arch))
}

func debFile() string {
	return filepath.Join(rel.dir, fmt.Sprintf("%s_%s_%s.deb", pkg, rel.debVersion, rel.arch))
}

// run runs a command and returns its standard output and error together.
func run(t *testing.T, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		err = fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return string(out), err
}

// mustRun is run that fails the test when the command does.
func mustRun(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := run(t, nil, name, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}

func TestReleaseHoldsItsFilesAndTheirChecksums(t *testing.T) {
	want := []string{
		"SHA256SUMS",
		filepath.Base(debFile()),
		filepath.Base(desktopBinary()),
		filepath.Base(serveBinary("amd64")),
		filepath.Base(serveBinary("arm64")),
	}
	slices.Sort(want)
	entries, err := os.ReadDir(rel.dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s holds %q, want %q", rel.dir, got, want)
	}

	sums, err := os.ReadFile(filepath.Join(rel.dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^[0-9a-f]{64}  (\S+)$`)
	var listed []string
	for _, l := range strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("SHA256SUMS line %q is not sha256sum's \"<hash>  <name>\"", l)
		}
		listed = append(listed, m[1])
	}
	if wantListed := slices.DeleteFunc(slices.Clone(want), func(n string) bool { return n == "SHA256SUMS" }); !slices.Equal(listed, wantListed) {
		t.Errorf("SHA256SUMS lists %q, want %q", listed, wantListed)
	}
	cmd := exec.Command("sha256sum", "--strict", "-c", "SHA256SUMS")
	cmd.Dir = rel.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c SHA256SUMS in %s: %v\n%s", rel.dir, err, out)
	}
}

func TestServeBinariesAreStatic(t *testing.T) {
	tests := []struct {
		name    string
		arch    string
		machine elf.Machine
	}{
		{"amd64", "amd64", elf.EM_X86_64},
		{"arm64", "arm64", elf.EM_AARCH64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := serveBinary(tt.arch)
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm()&0o111 == 0 {
				t.Errorf("%s is not executable: %v", path, info.Mode())
			}
			f, err := elf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = f.Close() }() // read only
			if f.Class != elf.ELFCLASS64 || f.Machine != tt.machine || f.Type != elf.ET_EXEC {
				t.Errorf("%s is %v %v %v, want ELFCLASS64 %v ET_EXEC", path, f.Class, f.Machine, f.Type, tt.machine)
			}
			for _, p := range f.Progs {
				if p.Type == elf.PT_INTERP {
					t.Errorf("%s has a PT_INTERP program header: it needs a dynamic loader", path)
				}
			}
			if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
				t.Errorf("%s links %q (%v), want no shared library", path, libs, err)
			}
		})
	}
}

// wantVersion is what `robohornets version` prints for this release built
// from HEAD: the commit, and the commit's time as the build date unless
// SOURCE_DATE_EPOCH said otherwise.
func wantVersion(t *testing.T) *regexp.Regexp {
	t.Helper()
	commit := strings.TrimSpace(mustRun(t, "git", "rev-parse", "HEAD"))
	epoch := os.Getenv("SOURCE_DATE_EPOCH")
	if epoch == "" {
		epoch = strings.TrimSpace(mustRun(t, "git", "log", "-1", "--format=%ct"))
	}
	secs, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		t.Fatalf("epoch %q: %v", epoch, err)
	}
	date := time.Unix(secs, 0).UTC().Format("2006-01-02T15:04:05Z")
	return regexp.MustCompile(`^robohornets ` + regexp.QuoteMeta(rel.version) +
		` \(commit ` + commit + `, built ` + date + `, go1\.[0-9.]+, linux/` + runtime.GOARCH + `\)\n$`)
}

func TestBinariesReportTheVersion(t *testing.T) {
	want := wantVersion(t)
	for _, path := range []string{serveBinary(runtime.GOARCH), desktopBinary()} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			out := mustRun(t, path, "version")
			if !want.MatchString(out) {
				t.Errorf("%s version = %q, want %v", path, out, want)
			}
		})
	}
}

// installDeb installs the .deb into a new throwaway root with dpkg and
// returns the root. Its dpkg database knows this machine's copies of the
// packages the .deb depends on (their status only, no files), so the install
// fails when one is missing here or too old: the Depends must hold on
// Debian 12.
func installDeb(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	admin := filepath.Join(root, "var/lib/dpkg")
	for _, d := range []string{"info", "updates", "triggers"} {
		if err := os.MkdirAll(filepath.Join(admin, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	deps := dependencies(t)
	status := mustRun(t, "dpkg-query", append([]string{"--status"}, deps...)...)
	// The packages' file lists, empty: without them dpkg warns that each is missing.
	names := mustRun(t, "dpkg-query", append([]string{"--show", "--showformat=${binary:Package}\n"}, deps...)...)
	for _, name := range strings.Fields(names) {
		if err := os.WriteFile(filepath.Join(admin, "info", name+".list"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{"status": status, "available": ""} {
		if err := os.WriteFile(filepath.Join(admin, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := mustRun(t, "dpkg", "--root="+root, "--log=/dev/null", "--force-not-root", "--force-script-chrootless", "--install", debFile())
	if strings.Contains(out, "warning") {
		t.Errorf("dpkg --install warned:\n%s", out)
	}
	return root
}

// control returns a field of the .deb's control file.
func control(t *testing.T, field string) string {
	t.Helper()
	return strings.TrimSpace(mustRun(t, "dpkg-deb", "--field", debFile(), field))
}

// dependencies returns the packages the .deb depends on (every alternative).
func dependencies(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, dep := range strings.FieldsFunc(control(t, "Depends"), func(r rune) bool { return r == ',' || r == '|' }) {
		names = append(names, strings.Fields(dep)[0])
	}
	return names
}

func TestDebInstallsIntoAThrowawayRoot(t *testing.T) {
	root := installDeb(t)

	t.Run("control", func(t *testing.T) {
		tests := []struct{ field, want string }{
			{"Package", pkg},
			{"Version", rel.debVersion},
			{"Architecture", rel.arch},
			{"Installed-Size", strconv.Itoa(installedSize(t, root))},
		}
		for _, tt := range tests {
			if got := control(t, tt.field); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
			}
		}
		if m := control(t, "Maintainer"); !regexp.MustCompile(`^[^<>,.]+ <[^<>@]+@[^<>@]+>$`).MatchString(m) {
			t.Errorf("Maintainer = %q, want \"Name <address>\"", m)
		}
		if d := control(t, "Description"); !strings.Contains(d, "\n") {
			t.Errorf("Description = %q, want a synopsis and a long description", d)
		}
	})

	t.Run("files and modes", func(t *testing.T) {
		want := map[string]fs.FileMode{
			"/usr/bin/robohornets": 0o755,
			unit:                   0o644,
			"/usr/share/applications/robohornets.desktop":                             0o644,
			"/usr/share/icons/hicolor/512x512/apps/robohornets.png":                   0o644,
			"/usr/share/icons/hicolor/scalable/apps/robohornets.svg":                  0o644,
			"/usr/share/doc/robohornets-kiosk/copyright":                              0o644,
			"/usr/share/doc/robohornets-kiosk/kiosk.env.example":                      0o644,
			"/usr/share/doc/robohornets-kiosk/examples/robohornets-autostart.desktop": 0o644,
		}
		got := map[string]fs.FileMode{}
		for _, path := range strings.Split(strings.TrimSpace(mustRun(t, "dpkg", "--root="+root, "--listfiles", pkg)), "\n") {
			info, err := os.Lstat(filepath.Join(root, path))
			if err != nil {
				t.Errorf("dpkg lists %s, which is not in the root: %v", path, err)
				continue
			}
			switch {
			case info.Mode().IsRegular():
				got[path] = info.Mode().Perm()
			case info.IsDir():
				if info.Mode().Perm() != 0o755 {
					t.Errorf("directory %s has mode %v, want 0755", path, info.Mode().Perm())
				}
			default:
				t.Errorf("%s is a %v, want a file or a directory", path, info.Mode().Type())
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("installed files and modes:\n%v\nwant\n%v", got, want)
		}
		for _, line := range strings.Split(strings.TrimSpace(mustRun(t, "dpkg-deb", "--contents", debFile())), "\n") {
			if f := strings.Fields(line); len(f) < 2 || f[1] != "root/root" {
				t.Errorf("not owned by root/root in the .deb: %s", line)
			}
		}
		if out := mustRun(t, "dpkg", "--root="+root, "--verify", pkg); out != "" {
			t.Errorf("dpkg --verify (the .deb's md5sums against the files):\n%s", out)
		}
	})

	t.Run("binary", func(t *testing.T) {
		installed := filepath.Join(root, "usr/bin/robohornets")
		if a, b := fileHash(t, installed), fileHash(t, desktopBinary()); a != b {
			t.Errorf("/usr/bin/robohornets is not the release's %s", filepath.Base(desktopBinary()))
		}
		if out, want := mustRun(t, installed, "version"), wantVersion(t); !want.MatchString(out) {
			t.Errorf("installed robohornets version = %q, want %v", out, want)
		}
	})

	t.Run("depends covers the linked libraries", func(t *testing.T) {
		deps := dependencies(t)
		for lib, owner := range linkedPackages(t, desktopBinary()) {
			if !slices.Contains(deps, owner) {
				t.Errorf("the binary links %s of package %s, which Depends (%q) leaves out", lib, owner, deps)
			}
		}
	})

	t.Run("systemd user unit", func(t *testing.T) {
		text, err := os.ReadFile(filepath.Join(root, unit))
		if err != nil {
			t.Fatal(err)
		}
		u := parseUnit(string(text))
		tests := []struct{ section, key, want string }{
			{"Unit", "PartOf", "graphical-session.target"},
			{"Unit", "After", "graphical-session.target"},
			{"Unit", "StartLimitIntervalSec", "5min"},
			{"Unit", "StartLimitBurst", "10"},
			{"Service", "ExecStart", "/usr/bin/robohornets --kiosk $ROBOHORNETS_ARGS"},
			{"Service", "EnvironmentFile", "-%h/.config/robohornets/kiosk.env"},
			{"Service", "Restart", "on-failure"},
			{"Service", "RestartSec", "10s"},
			{"Service", "RestartPreventExitStatus", "2"},
			{"Install", "WantedBy", "graphical-session.target"},
		}
		for _, tt := range tests {
			if got := u[tt.section][tt.key]; !slices.Equal(got, []string{tt.want}) {
				t.Errorf("[%s] %s = %q, want %q", tt.section, tt.key, got, tt.want)
			}
		}

		// systemd 252's verify takes --root only for system units, so it
		// checks a copy whose ExecStart points into the root: the command
		// must be there and executable.
		const execLine = "\nExecStart=/usr/bin/robohornets "
		if strings.Count(string(text), execLine) != 1 {
			t.Fatalf("want one line starting %q in %s", execLine[1:], unit)
		}
		copyPath := filepath.Join(t.TempDir(), filepath.Base(unit))
		rooted := strings.Replace(string(text), execLine, "\nExecStart="+root+"/usr/bin/robohornets ", 1)
		if err := os.WriteFile(copyPath, []byte(rooted), 0o644); err != nil {
			t.Fatal(err)
		}
		// verify reports mistakes (an unknown key, a bad value) as
		// warnings with status 0: anything it prints is a failure.
		out, err := run(t, []string{"XDG_RUNTIME_DIR=" + t.TempDir()}, "systemd-analyze", "--user", "verify", copyPath)
		if err != nil || out != "" {
			t.Errorf("systemd-analyze --user verify %s: %v\n%s", unit, err, out)
		}
	})

	t.Run("desktop entries", func(t *testing.T) {
		for _, path := range []string{
			"/usr/share/applications/robohornets.desktop",
			"/usr/share/doc/robohornets-kiosk/examples/robohornets-autostart.desktop",
		} {
			// Hints, like two main categories, count too.
			if out, err := run(t, nil, "desktop-file-validate", filepath.Join(root, path)); err != nil || out != "" {
				t.Errorf("desktop-file-validate %s: %v\n%s", path, err, out)
			}
		}
	})
}

// installedSize is the root's Installed-Size as dpkg-gencontrol counts it:
// each file's size in KiB, rounded up, and 1 for every other entry.
func installedSize(t *testing.T, root string) int {
	t.Helper()
	kib := 0
	for _, path := range strings.Split(strings.TrimSpace(mustRun(t, "dpkg", "--root="+root, "--listfiles", pkg)), "\n") {
		if path == "/." {
			continue
		}
		info, err := os.Lstat(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().IsRegular() {
			kib += int((info.Size() + 1023) / 1024)
		} else {
			kib++
		}
	}
	return kib
}

func fileHash(t *testing.T, path string) [sha256.Size]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// linkedPackages maps each shared library the binary links (ELF NEEDED) to
// the Debian package that holds this machine's copy.
func linkedPackages(t *testing.T, binary string) map[string]string {
	t.Helper()
	f, err := elf.Open(binary)
	if err != nil {
		t.Fatal(err)
	}
	needed, err := f.ImportedLibraries()
	_ = f.Close() // read only
	if err != nil {
		t.Fatal(err)
	}
	if len(needed) == 0 {
		t.Fatalf("%s links no shared library: not a desktop build", binary)
	}
	// ldd: "\tlibgtk-3.so.0 => /lib/x86_64-linux-gnu/libgtk-3.so.0 (0x…)".
	paths := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader([]byte(mustRun(t, "ldd", binary))))
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) >= 3 && fields[1] == "=>" {
			paths[fields[0]] = fields[2]
		}
	}
	owners := map[string]string{}
	for _, lib := range needed {
		path, ok := paths[lib]
		if !ok {
			t.Errorf("ldd does not find %s, which %s links", lib, binary)
			continue
		}
		owner, err := packageOf(t, path)
		if err != nil {
			t.Error(err)
			continue
		}
		owners[lib] = owner
	}
	return owners
}

// packageOf returns the package holding path. Debian 12 merges /lib into
// /usr/lib, and dpkg knows each file under the one name its package gives, so
// it tries both, for the path and for what it links to.
func packageOf(t *testing.T, path string) (string, error) {
	t.Helper()
	candidates := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		candidates = append(candidates, real)
	}
	for _, c := range slices.Clone(candidates) {
		if rest, ok := strings.CutPrefix(c, "/usr"); ok {
			candidates = append(candidates, rest)
		} else {
			candidates = append(candidates, "/usr"+c)
		}
	}
	for _, c := range candidates {
		out, err := run(t, nil, "dpkg-query", "--search", c)
		if err != nil {
			continue
		}
		// "libgtk-3-0:amd64: /usr/lib/x86_64-linux-gnu/libgtk-3.so.0"
		owner, _, _ := strings.Cut(out, ": ")
		owner, _, _ = strings.Cut(owner, ":")
		return owner, nil
	}
	return "", fmt.Errorf("no package holds %s (tried %q)", path, candidates)
}

// parseUnit reads a systemd unit file: section, key, then every value the key
// is given, in order. Comments and blank lines are skipped; no line
// continuations (the unit has none).
func parseUnit(text string) map[string]map[string][]string {
	u := map[string]map[string][]string{}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && line[len(line)-1] == ']':
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
		default:
			key, value, _ := strings.Cut(line, "=")
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
			u[section][strings.TrimSpace(key)] = append(u[section][strings.TrimSpace(key)], strings.TrimSpace(value))
		}
	}
	return u
}
