package cli

import "testing"

func TestLocalSiteURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		":8080":          "http://localhost:8080",
		"0.0.0.0:80":     "http://localhost:80",
		"[::]:8080":      "http://localhost:8080",
		"[::1]:8080":     "http://[::1]:8080",
		"example.org:81": "http://example.org:81",
	} {
		if got := localSiteURL(addr); got != want {
			t.Errorf("localSiteURL(%q) = %q, want %q", addr, got, want)
		}
	}
}
