package push

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrForbiddenAddress means an endpoint names, or resolves to, an address
// a push may not go to (loopback, private, link-local and the like): the
// guard against a subscription that points the server at its own network.
var ErrForbiddenAddress = errors.New("push: endpoint address is not public")

// LookupFunc resolves a host name to its addresses; net.Resolver's
// LookupNetIP with network "ip" is one.
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// nonPublic are the ranges, beyond what netip.Addr's predicates name, that
// no push service uses and that reach into a private network or nowhere.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),  // carrier-grade NAT (RFC 6598)
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, and the broadcast address
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64: may embed a private IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"), // local NAT64
	netip.MustParsePrefix("100::/64"),       // discard
	netip.MustParsePrefix("2002::/16"),      // 6to4: may embed a private IPv4 address
	netip.MustParsePrefix("fec0::/10"),      // deprecated site-local
	netip.MustParsePrefix("2001:db8::/32"),  // documentation
	netip.MustParsePrefix("2001::/32"),      // Teredo: embeds another address
	netip.MustParsePrefix("::/128"),         // unspecified (also below)
	netip.MustParsePrefix("::ffff:0:0/96"),  // IPv4-mapped, should Unmap miss one
	netip.MustParsePrefix("::/96"),          // IPv4-compatible, deprecated
	netip.MustParsePrefix("5f00::/16"),      // SRv6 SIDs
	netip.MustParsePrefix("3fff::/20"),      // documentation
	netip.MustParsePrefix("fc00::/7"),       // unique local (also IsPrivate)
	netip.MustParsePrefix("169.254.0.0/16"), // link-local (also below)
	netip.MustParsePrefix("255.255.255.255/32"),
}

// allowedAddr reports whether a push may go to ip: a public unicast
// address, or with allowLoopback also a loopback one.
func allowedAddr(ip netip.Addr, allowLoopback bool) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.Zone() != "" {
		return false
	}
	if ip.IsLoopback() {
		return allowLoopback
	}
	if ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// checkEndpoint reports whether raw is an endpoint a subscription may
// have: an https URL whose host is a name other than localhost or a
// public address; with allowLoopback also an http or https URL of a
// loopback address (127.0.0.0/8, ::1).
func checkEndpoint(raw string, allowLoopback bool) error {
	if len(raw) > MaxEndpointBytes {
		return fmt.Errorf("push: endpoint longer than %d bytes", MaxEndpointBytes)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("push: endpoint is not a URL")
	}
	if u.User != nil || u.Host == "" || u.Opaque != "" || u.Fragment != "" {
		return fmt.Errorf("push: endpoint %q is not a push service's URL", raw)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		loopback := allowLoopback && ip.Unmap().IsLoopback() && ip.Zone() == ""
		if !loopback && (!allowedAddr(ip, false) || u.Scheme != "https") {
			return fmt.Errorf("%w: %q", ErrForbiddenAddress, raw)
		}
		if u.Scheme != "https" && u.Scheme != "http" {
			return fmt.Errorf("push: endpoint %q is not https", raw)
		}
		return nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || !strings.Contains(host, ".") {
		return fmt.Errorf("%w: %q", ErrForbiddenAddress, raw)
	}
	if u.Scheme != "https" {
		return fmt.Errorf("push: endpoint %q is not https", raw)
	}
	return nil
}

// newClient returns the one HTTP client of the pushes. Its transport
// resolves the host itself, with lookup, and dials only the addresses
// allowedAddr takes, so a name that resolves to a private address when the
// push is sent (DNS rebinding) is refused too; the dialer checks the
// address once more as it connects. It uses no proxy, follows no redirect
// (the 3xx answer is returned, and counts as a failure) and bounds each
// step with a timeout.
func newClient(lookup LookupFunc, allowLoopback bool, workers int) *http.Client {
	dialer := &net.Dialer{
		Timeout: dialTimeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !allowedAddr(ap.Addr(), allowLoopback) {
				return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
			}
			return nil
		},
	}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(address)
			if err != nil {
				return nil, err
			}
			var addrs []netip.Addr
			if ip, err := netip.ParseAddr(host); err == nil {
				addrs = []netip.Addr{ip}
			} else if addrs, err = lookup(ctx, host); err != nil {
				return nil, fmt.Errorf("push: resolve %s: %w", host, err)
			}
			var errs []error
			for _, ip := range addrs {
				if !allowedAddr(ip, allowLoopback) {
					errs = append(errs, fmt.Errorf("%w: %s is %s", ErrForbiddenAddress, host, ip))
					continue
				}
				conn, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
				if err == nil {
					return conn, nil
				}
				errs = append(errs, err)
			}
			if len(errs) == 0 {
				return nil, fmt.Errorf("push: %s has no address", host)
			}
			return nil, errors.Join(errs...)
		},
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   dialTimeout,
		ResponseHeaderTimeout: attemptTimeout,
		MaxIdleConns:          2 * workers,
		MaxIdleConnsPerHost:   workers,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   attemptTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
