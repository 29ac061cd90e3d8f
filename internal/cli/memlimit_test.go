package cli

import (
	"bytes"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// fakeCgroup returns a directory laid out as a cgroup mount, with files
// (path under the mount → content).
func fakeCgroup(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestContainerMemory(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		want    int64
		limited bool
		err     string
	}{
		{"cgroup v2, Cloud Run's 512 MiB", map[string]string{"memory.max": "536870912\n"}, 536870912, true, ""},
		{"cgroup v2 without a limit", map[string]string{"memory.max": "max\n"}, 0, false, ""},
		{"cgroup v1", map[string]string{"memory/memory.limit_in_bytes": "1073741824\n"}, 1073741824, true, ""},
		{"cgroup v1 without a limit", map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712\n"}, 0, false, ""},
		{"v2 before v1", map[string]string{"memory.max": "536870912", "memory/memory.limit_in_bytes": "1073741824"}, 536870912, true, ""},
		{"no cgroup files", nil, 0, false, ""},
		{"not a number", map[string]string{"memory.max": "lots\n"}, 0, false, `holds "lots"`},
		{"zero", map[string]string{"memory.max": "0\n"}, 0, false, `holds "0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, limited, err := containerMemory(fakeCgroup(t, tt.files))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || limited != tt.limited {
				t.Errorf("containerMemory = %d, %v; want %d, %v", got, limited, tt.want, tt.limited)
			}
		})
	}
}

func TestSetMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	tests := []struct {
		name  string
		env   string
		files map[string]string
		want  int64 // the runtime's limit after
		log   string
	}{
		// 536870912 - 53687091.
		{"Cloud Run's 512 MiB", "", map[string]string{"memory.max": "536870912\n"}, 483183821, `"gomemlimit_bytes":483183821`},
		{"GOMEMLIMIT set: left as it is", "400MiB", map[string]string{"memory.max": "536870912\n"}, math.MaxInt64, "memory limit from GOMEMLIMIT"},
		{"no limit", "", map[string]string{"memory.max": "max\n"}, math.MaxInt64, "GOMEMLIMIT not set"},
		{"unreadable", "", map[string]string{"memory.max": "lots\n"}, math.MaxInt64, "set it in the environment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetMemoryLimit(math.MaxInt64)
			var log bytes.Buffer
			setMemoryLimit(slog.New(slog.NewJSONHandler(&log, nil)), tt.env, fakeCgroup(t, tt.files))
			if got := debug.SetMemoryLimit(-1); got != tt.want {
				t.Errorf("memory limit %d, want %d", got, tt.want)
			}
			if !strings.Contains(log.String(), tt.log) {
				t.Errorf("log %q does not say %q", log.String(), tt.log)
			}
		})
	}
}
