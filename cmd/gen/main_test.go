package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGeneratedFilesAreCurrent fails when internal/spec or a wire type
// changed without make generate, as `go run ./cmd/gen -check` does.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := generate(root)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	problems, err := stale(filepath.Join(root, genDir), files)
	if err != nil {
		t.Fatalf("stale: %v", err)
	}
	if len(problems) > 0 {
		t.Fatalf("%v: run make generate", problems)
	}
}

func TestStale(t *testing.T) {
	want := map[string]string{
		"spec.gen.ts": generatedBy + "export const A = 1;\n",
		"wire.gen.ts": generatedBy + "export interface B {\n  c: string;\n}\n",
	}
	tests := []struct {
		name string
		// onDisk is what each file holds; a file left out is missing.
		onDisk map[string]string
		want   []string
	}{
		{
			name:   "both current",
			onDisk: want,
		},
		{
			name: "one line changed",
			onDisk: map[string]string{
				"spec.gen.ts": want["spec.gen.ts"],
				"wire.gen.ts": generatedBy + "export interface B {\n  c: number;\n}\n",
			},
			want: []string{"wire.gen.ts is stale from line 3"},
		},
		{
			name: "edited by hand: the generated line removed",
			onDisk: map[string]string{
				"spec.gen.ts": "export const A = 1;\n",
				"wire.gen.ts": want["wire.gen.ts"],
			},
			want: []string{"spec.gen.ts is stale from line 1"},
		},
		{
			name: "a line added at the end",
			onDisk: map[string]string{
				"spec.gen.ts": want["spec.gen.ts"] + "export const Z = 2;\n",
				"wire.gen.ts": want["wire.gen.ts"],
			},
			want: []string{"spec.gen.ts is stale from line 3"},
		},
		{
			name:   "missing",
			onDisk: map[string]string{"spec.gen.ts": want["spec.gen.ts"]},
			want:   []string{"wire.gen.ts is missing"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tt.onDisk {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := stale(dir, want)
			if err != nil {
				t.Fatalf("stale: %v", err)
			}
			var wantPaths []string
			for _, p := range tt.want {
				wantPaths = append(wantPaths, filepath.Join(dir, p))
			}
			if !slices.Equal(got, wantPaths) {
				t.Errorf("stale() = %q, want %q", got, wantPaths)
			}
		})
	}
}
