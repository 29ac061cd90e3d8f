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

// Client names the client of a connection from its remote address: its
// IPv4 address, or the /64 network of an IPv6 address, since one IPv6 host
// commonly holds a whole /64. It is the connection's own peer, never a
// header such as X-Forwarded-For, which any client can write; behind a
// reverse proxy every client is the proxy.
func Client(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is6() {
		return netip.PrefixFrom(addr, 64).Masked().String()
	}
	return addr.String()
}

// Proxies are the reverse proxies (address prefixes) whose X-Forwarded-For
// header a server believes; nil believes none.
type Proxies []netip.Prefix

// ParseProxies reads a comma-separated list of addresses or CIDR prefixes,
// like "127.0.0.1,10.0.0.0/8"; "" is none.
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
				return nil, fmt.Errorf("proxy %q: want an IP address or a CIDR prefix", item)
			}
			out = append(out, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
			continue
		}
		prefix, err := netip.ParsePrefix(item)
		if err != nil {
			return nil, fmt.Errorf("proxy %q: want an IP address or a CIDR prefix", item)
		}
		out = append(out, prefix.Masked())
	}
	return out, nil
}

// has reports whether addr (an IP address, without port) is one of the proxies.
func (p Proxies) has(addr string) bool {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	ip = ip.Unmap().WithZone("")
	for _, prefix := range p {
		if prefix.Contains(ip) {
			return true
		}
	}
	return false
}

// Peer is the IP address of the client of r: the connection's peer, or,
// when that peer is one of the proxies, the nearest address in
// X-Forwarded-For that is not a proxy (each proxy appends the address it
// saw, so the addresses before a proxy's own are the client's to write).
func (p Proxies) Peer(r *http.Request) string {
	peer, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		peer = r.RemoteAddr
	}
	if !p.has(peer) {
		return peer
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		if _, err := netip.ParseAddr(hop); err != nil {
			return peer // a hop the proxies did not write: believe nothing before it
		}
		if !p.has(hop) {
			return hop
		}
	}
	return peer
}
