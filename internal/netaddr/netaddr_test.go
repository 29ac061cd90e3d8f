package netaddr

import (
	"net/http/httptest"
	"testing"
)

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

func TestPeer(t *testing.T) {
	proxies, err := ParseProxies("127.0.0.1, 10.0.0.0/8,::1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"no proxy: the peer, whatever the header says", "192.0.2.7:5000", []string{"198.51.100.1"}, "192.0.2.7"},
		{"through the proxy", "127.0.0.1:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"a client's own header before the proxy's hop is not believed", "127.0.0.1:5000", []string{"203.0.113.9, 198.51.100.1"}, "198.51.100.1"},
		{"two proxies", "10.1.2.3:5000", []string{"198.51.100.1, 127.0.0.1"}, "198.51.100.1"},
		{"the header in two lines", "127.0.0.1:5000", []string{"203.0.113.9", "198.51.100.1"}, "198.51.100.1"},
		{"no header: the proxy", "127.0.0.1:5000", nil, "127.0.0.1"},
		{"garbage hop: the proxy", "127.0.0.1:5000", []string{"198.51.100.1, not-an-ip"}, "127.0.0.1"},
		{"IPv6 proxy", "[::1]:5000", []string{"2001:db8::5"}, "2001:db8::5"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := proxies.Peer(r); got != c.want {
			t.Errorf("%s: Peer = %q, want %q", c.name, got, c.want)
		}
	}
	var none Proxies
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:5000"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	if got := none.Peer(r); got != "127.0.0.1" {
		t.Errorf("no proxies: Peer = %q, want the connection's peer", got)
	}
}

func TestParseProxies(t *testing.T) {
	if p, err := ParseProxies(""); err != nil || p != nil {
		t.Errorf(`ParseProxies("") = %v, %v; want none`, p, err)
	}
	for _, bad := range []string{"localhost", "10.0.0.0/33", "1.2.3"} {
		if _, err := ParseProxies(bad); err == nil {
			t.Errorf("ParseProxies(%q) took it", bad)
		}
	}
}
