// Package netaddr names the client of a connection, for every per-client
// limit (the live streams' cap, the console's sign-in rate limit).
package netaddr

import (
	"net"
	"net/netip"
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
