package server

import "testing"

func TestResponsesAreMadeOncePerVersion(t *testing.T) {
	var r bodyCache
	builds := 0
	build := func() *asset { builds++; return newBody([]byte("body"), "text/plain") }
	get := func(version uint64, key string) { r.get(version, key, build) }

	get(1, "a")
	get(1, "a")
	if builds != 1 {
		t.Fatalf("%d builds for two requests of one version, want 1", builds)
	}
	get(1, "b")
	get(2, "a")
	get(2, "a")
	if builds != 3 {
		t.Fatalf("%d builds after a second key and a new version, want 3", builds)
	}
	// A request that read the snapshot before the change gets its own body,
	// and does not bring the old version back.
	get(1, "a")
	get(2, "a")
	if builds != 4 {
		t.Fatalf("%d builds after an old version's request and the new one's, want 4", builds)
	}
}

func TestETagListMatches(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{`"abc"`, true},
		{`"x", "abc"`, true},
		{`W/"abc"`, true},
		{`*`, true},
		{`"abcd"`, false},
		{`abc`, false},
		{`"x",   W/"y"`, false},
	} {
		if got := etagListMatches(tt.header, `"abc"`); got != tt.want {
			t.Errorf("etagListMatches(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}
