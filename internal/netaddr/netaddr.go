// Package netaddr names the client of a request, for every per-client
// limit (the live streams' cap, the console's sign-in rate limit) and the
// console's audit log.
package netaddr

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// SiteShare is how many clients' budgets one IPv6 site (a /48) gets in
// every per-client limit, on top of each client's own. A /48 is what one
// home, school or company is given, and it holds 65,536 /64s: without a
// budget of its own, one site could take 65,536 clients' worth by changing
// its /64. Sixteen lets a school's worth of people share a site, while a
// site that changes /64 at every request gets no more than 16 clients do.
const SiteShare = 16

// Keys names the budgets that a request from addr (an IP address as
// Proxies.Peer returns it, with or without a port) takes from in a
// per-client limit: client is the IPv4 address, or the /64 of an IPv6
// address, since one IPv6 host commonly holds a whole /64; site is the /48
// of an IPv6 address (SiteShare), and "" for IPv4, whose addresses are
// scarce enough to count one by one. An address that is not an IP (a Unix
// socket's) is its own client.
func Keys(addr string) (client, site string) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host, ""
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String(), ""
	}
	return netip.PrefixFrom(ip, 64).Masked().String(), netip.PrefixFrom(ip, 48).Masked().String()
}

// Proxies says which reverse proxies in front of a server it believes about
// the client of a request. The zero value believes none: the client is the
// connection's peer, and X-Forwarded-For, which anyone can write, is
// ignored.
type Proxies struct {
	// Trusted are the addresses of the proxies whose X-Forwarded-For is
	// believed when the connection comes from one of them (--trusted-proxy):
	// for proxies whose addresses are known.
	Trusted []netip.Prefix
	// Hops, when more than 0, is how many proxies stand in front of the
	// server, each appending the address it saw to X-Forwarded-For
	// (--trusted-proxy-hops): the client is the Hops-th address from the
	// right, whatever the connection's peer. It is for a platform whose
	// proxies' addresses are not known, like Cloud Run's front end (1).
	// It takes precedence over Trusted.
	Hops int
}

// ParseProxies reads a comma-separated list of addresses or CIDR prefixes,
// like "127.0.0.1,10.0.0.0/8", into Proxies.Trusted; "" is none.
func ParseProxies(list string) (Proxies, error) {
	var out Proxies
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if !strings.Contains(item, "/") {
			addr, err := netip.ParseAddr(item)
			if err != nil {
				return Proxies{}, fmt.Errorf("proxy %q: want an IP address or a CIDR prefix", item)
			}
			out.Trusted = append(out.Trusted, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
			continue
		}
		prefix, err := netip.ParsePrefix(item)
		if err != nil {
			return Proxies{}, fmt.Errorf("proxy %q: want an IP address or a CIDR prefix", item)
		}
		out.Trusted = append(out.Trusted, prefix.Masked())
	}
	return out, nil
}

// trusted reports whether ip is one of the Trusted proxies.
func (p Proxies) trusted(ip netip.Addr) bool {
	for _, prefix := range p.Trusted {
		if prefix.Contains(ip) {
			return true
		}
	}
	return false
}

// Peer is the IP address of the client of r, without a port and with an
// IPv4-mapped IPv6 address as IPv4: with Hops, the Hops-th address from the
// right of X-Forwarded-For; with Trusted, when the connection's peer is a
// trusted proxy, the nearest address of X-Forwarded-For that is not one;
// else the connection's peer.
//
// Each proxy appends the address it saw, so only the addresses the proxies
// wrote, counted from the right, can be believed: a client puts what it
// likes before them. Where the header does not hold what the proxies would
// have written (fewer addresses than Hops, or one that is not an IP
// address), the client is the connection's peer, so a forged header earns
// nothing but the peer's own budget.
func (p Proxies) Peer(r *http.Request) string {
	peerHost, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		peerHost = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(peerHost)
	if err != nil {
		return peerHost // not an IP connection: no proxy in front of it
	}
	peer = peer.Unmap().WithZone("")
	hops := forwardedFor(r)
	switch {
	case p.Hops > 0:
		if len(hops) < p.Hops {
			return peer.String()
		}
		if ip, ok := parseHop(hops[len(hops)-p.Hops]); ok {
			return ip.String()
		}
	case p.trusted(peer):
		for i := len(hops) - 1; i >= 0; i-- {
			ip, ok := parseHop(hops[i])
			if !ok {
				break // a hop the proxies did not write: believe nothing before it
			}
			if !p.trusted(ip) {
				return ip.String()
			}
		}
	}
	return peer.String()
}

// forwardedFor is the addresses of r's X-Forwarded-For headers, in order
// (several header lines make one list).
func forwardedFor(r *http.Request) []string {
	values := r.Header.Values("X-Forwarded-For")
	if len(values) == 0 {
		return nil
	}
	return strings.Split(strings.Join(values, ","), ",")
}

// parseHop reads one address of X-Forwarded-For.
func parseHop(hop string) (netip.Addr, bool) {
	ip, err := netip.ParseAddr(strings.TrimSpace(hop))
	if err != nil {
		return netip.Addr{}, false
	}
	return ip.Unmap().WithZone(""), true
}
