package netaddr

import (
	"net/http/httptest"
	"net/netip"
	"reflect"
	"testing"
)

func TestKeys(t *testing.T) {
	tests := []struct {
		name, addr, wantClient, wantSite string
	}{
		{"IPv4 with a port", "192.0.2.1:1234", "192.0.2.1", ""},
		{"IPv4 without a port", "192.0.2.1", "192.0.2.1", ""},
		{"IPv4-mapped IPv6 is IPv4", "[::ffff:192.0.2.1]:1234", "192.0.2.1", ""},
		{"IPv4-mapped IPv6 without a port", "::ffff:192.0.2.1", "192.0.2.1", ""},
		{"IPv6: its /64 and its /48", "[2001:db8:1:2::1]:80", "2001:db8:1:2::/64", "2001:db8:1::/48"},
		{"another host of the same /64", "2001:db8:1:2:ffff::1", "2001:db8:1:2::/64", "2001:db8:1::/48"},
		{"another /64 of the same /48", "2001:db8:1:ffff::1", "2001:db8:1:ffff::/64", "2001:db8:1::/48"},
		{"a zone is dropped", "[fe80::1%eth0]:80", "fe80::/64", "fe80::/48"},
		{"not an IP address", "pipe", "pipe", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, site := Keys(tt.addr)
			if client != tt.wantClient || site != tt.wantSite {
				t.Errorf("Keys(%q) = %q, %q; want %q, %q", tt.addr, client, site, tt.wantClient, tt.wantSite)
			}
		})
	}
}

// TestPeer names the client of requests as an attacker would send them:
// with a forged X-Forwarded-For before the proxies' own addresses, too few
// addresses for the hops, garbage, and directly to the server.
func TestPeer(t *testing.T) {
	trusted, err := ParseProxies("127.0.0.1, 10.0.0.0/8,::1")
	if err != nil {
		t.Fatal(err)
	}
	oneHop := Proxies{Hops: 1}
	twoHops := Proxies{Hops: 2}
	tests := []struct {
		name    string
		proxies Proxies
		remote  string
		xff     []string
		want    string
	}{
		{"none: the peer", Proxies{}, "192.0.2.7:5000", nil, "192.0.2.7"},
		{"none: the header is not believed", Proxies{}, "127.0.0.1:5000", []string{"198.51.100.1"}, "127.0.0.1"},
		{"none: an IPv4-mapped peer is IPv4", Proxies{}, "[::ffff:192.0.2.7]:5000", nil, "192.0.2.7"},

		{"trusted: not through a proxy, whatever the header says", trusted, "192.0.2.7:5000", []string{"198.51.100.1"}, "192.0.2.7"},
		{"trusted: through the proxy", trusted, "127.0.0.1:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"trusted: a client's own header before the proxy's hop is not believed", trusted, "127.0.0.1:5000", []string{"203.0.113.9, 198.51.100.1"}, "198.51.100.1"},
		{"trusted: two proxies", trusted, "10.1.2.3:5000", []string{"198.51.100.1, 127.0.0.1"}, "198.51.100.1"},
		{"trusted: the header in two lines", trusted, "127.0.0.1:5000", []string{"203.0.113.9", "198.51.100.1"}, "198.51.100.1"},
		{"trusted: no header: the proxy", trusted, "127.0.0.1:5000", nil, "127.0.0.1"},
		{"trusted: garbage hop: the proxy", trusted, "127.0.0.1:5000", []string{"198.51.100.1, not-an-ip"}, "127.0.0.1"},
		{"trusted: IPv6 proxy", trusted, "[::1]:5000", []string{"2001:db8::5"}, "2001:db8::5"},

		{"one hop: the rightmost address, whatever the peer", oneHop, "35.191.0.9:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"one hop: a forged address before it is ignored", oneHop, "35.191.0.9:5000", []string{"203.0.113.9, 10.0.0.1, 198.51.100.1"}, "198.51.100.1"},
		{"one hop: forged lines before the proxy's", oneHop, "35.191.0.9:5000", []string{"203.0.113.9", "198.51.100.1"}, "198.51.100.1"},
		{"one hop: spaces around", oneHop, "35.191.0.9:5000", []string{" 203.0.113.9 ,  198.51.100.1 "}, "198.51.100.1"},
		{"one hop: no header: the peer", oneHop, "35.191.0.9:5000", nil, "35.191.0.9"},
		{"one hop: an empty header: the peer", oneHop, "35.191.0.9:5000", []string{""}, "35.191.0.9"},
		{"one hop: garbage where the proxy writes: the peer", oneHop, "35.191.0.9:5000", []string{"198.51.100.1, unknown"}, "35.191.0.9"},
		{"one hop: an address with a port is not the proxy's: the peer", oneHop, "35.191.0.9:5000", []string{"198.51.100.1:443"}, "35.191.0.9"},
		{"one hop: an IPv4-mapped client is IPv4", oneHop, "35.191.0.9:5000", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
		{"one hop: an IPv6 client", oneHop, "[2600:1900::9]:5000", []string{"2001:db8:1:2::10"}, "2001:db8:1:2::10"},
		{"one hop: an IPv6 client with a zone", oneHop, "35.191.0.9:5000", []string{"fe80::1%eth0"}, "fe80::1"},

		{"two hops: the second from the right", twoHops, "35.191.0.9:5000", []string{"203.0.113.9, 198.51.100.1, 34.120.0.1"}, "198.51.100.1"},
		{"two hops: too few addresses: the peer, never the client's own", twoHops, "35.191.0.9:5000", []string{"203.0.113.9"}, "35.191.0.9"},
		{"two hops: garbage in the client's place: the peer", twoHops, "35.191.0.9:5000", []string{"x, 34.120.0.1"}, "35.191.0.9"},

		{"hops take precedence over trusted", Proxies{Trusted: trusted.Trusted, Hops: 1}, "192.0.2.7:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"not an IP connection: its own name", oneHop, "pipe", []string{"198.51.100.1"}, "pipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := tt.proxies.Peer(r); got != tt.want {
				t.Errorf("Peer = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseProxies(t *testing.T) {
	if p, err := ParseProxies(""); err != nil || !reflect.DeepEqual(p, Proxies{}) {
		t.Errorf(`ParseProxies("") = %v, %v; want none`, p, err)
	}
	p, err := ParseProxies("::ffff:127.0.0.1, 10.1.2.3/8")
	want := Proxies{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8")}}
	if err != nil || !reflect.DeepEqual(p, want) {
		t.Errorf("ParseProxies = %v, %v; want %v", p, err, want)
	}
	for _, bad := range []string{"localhost", "10.0.0.0/33", "1.2.3"} {
		if _, err := ParseProxies(bad); err == nil {
			t.Errorf("ParseProxies(%q) took it", bad)
		}
	}
}
