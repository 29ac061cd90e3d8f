package netaddr

import "testing"

func TestClient(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:1234":            "192.0.2.1",
		"[::ffff:192.0.2.1]:1234":   "192.0.2.1",
		"[2001:db8::1]:80":          "2001:db8::/64",
		"[2001:db8:0:0:ffff::1]:80": "2001:db8::/64",
		"[fe80::1%eth0]:80":         "fe80::/64",
		"pipe":                      "pipe",
	} {
		if got := Client(in); got != want {
			t.Errorf("Client(%q) = %q, want %q", in, got, want)
		}
	}
}
