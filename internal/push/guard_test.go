package push

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

// TestCheckEndpoint: which endpoints a subscription may have, without and
// with AllowLoopback.
func TestCheckEndpoint(t *testing.T) {
	tests := []struct {
		endpoint string
		ok       bool // without AllowLoopback
		loopback bool // with it
	}{
		{"https://fcm.googleapis.com/fcm/send/abc:def", true, true},
		{"https://web.push.apple.com/QGuQyavXutnMH", true, true},
		{"https://updates.push.services.mozilla.com/wpush/v2/gAAAA", true, true},
		{"https://8.8.8.8/push", true, true},
		{"https://[2001:4860:4860::8888]/push", true, true},
		{"http://fcm.googleapis.com/fcm/send/abc", false, false},
		{"ftp://fcm.googleapis.com/x", false, false},
		{"https://user:pw@fcm.googleapis.com/x", false, false},
		{"https://localhost/x", false, false},
		{"https://push.localhost/x", false, false},
		{"https://intranet/x", false, false},
		{"https://127.0.0.1/x", false, true},
		{"https://127.8.9.10/x", false, true},
		{"http://127.0.0.1:8090/notify/x", false, true},
		{"http://[::1]:8090/notify/x", false, true},
		{"http://[::ffff:127.0.0.1]:8090/x", false, true},
		{"https://10.0.0.1/x", false, false},
		{"http://10.0.0.1/x", false, false},
		{"https://172.16.0.1/x", false, false},
		{"https://172.31.255.254/x", false, false},
		{"https://192.168.1.1/x", false, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://169.254.1.1/x", false, false},
		{"https://100.64.0.1/x", false, false},
		{"https://100.127.255.254/x", false, false},
		{"https://0.0.0.0/x", false, false},
		{"https://[::]/x", false, false},
		{"https://224.0.0.1/x", false, false},
		{"https://255.255.255.255/x", false, false},
		{"https://[fc00::1]/x", false, false},
		{"https://[fd12:3456::1]/x", false, false},
		{"https://[fe80::1]/x", false, false},
		{"https://[ff02::1]/x", false, false},
		{"https://[::ffff:10.0.0.1]/x", false, false},
		{"https://[64:ff9b::a00:1]/x", false, false},
		{"not a url", false, false},
		{"https://" + strings.Repeat("a", MaxEndpointBytes) + ".com/", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.endpoint[:min(len(tt.endpoint), 60)], func(t *testing.T) {
			if err := checkEndpoint(tt.endpoint, false); (err == nil) != tt.ok {
				t.Errorf("without loopback: %v, want ok %v", err, tt.ok)
			}
			if err := checkEndpoint(tt.endpoint, true); (err == nil) != tt.loopback {
				t.Errorf("with loopback: %v, want ok %v", err, tt.loopback)
			}
		})
	}
}

// TestClientRefusesPrivateAddresses: the pushes' client refuses, when it
// sends, every address that is not public, named in the URL or resolved
// from a name, and with AllowLoopback all but loopback ones; it follows no
// redirect.
func TestClientRefusesPrivateAddresses(t *testing.T) {
	rc := newReceiver(t, nil)
	port := rc.Listener.Addr().(interface{ AddrPort() netip.AddrPort }).AddrPort().Port()
	addrs := []string{
		"127.0.0.1", "127.1.2.3", "10.0.0.1", "172.16.0.1", "192.168.0.1", "169.254.169.254", "169.254.0.1",
		"100.64.0.1", "0.0.0.0", "::1", "fc00::1", "fd00::1", "fe80::1", "::", "::ffff:127.0.0.1", "224.0.0.1",
	}
	for _, loopback := range []bool{false, true} {
		for _, addr := range addrs {
			ip := netip.MustParseAddr(addr)
			if loopback && ip.Unmap().IsLoopback() {
				continue
			}
			name := addr
			if !loopback {
				name += " without loopback"
			}
			t.Run(name, func(t *testing.T) {
				resolve := func(context.Context, string) ([]netip.Addr, error) { return []netip.Addr{ip}, nil }
				client := newClient(resolve, loopback, 1)
				for _, target := range []string{
					"http://" + netip.AddrPortFrom(ip, port).String() + "/sub",
					"http://push.example.com:" + itoa(port) + "/sub",
				} {
					resp, err := client.Get(target)
					if err == nil {
						_ = resp.Body.Close()
					}
					if !errors.Is(err, ErrForbiddenAddress) {
						t.Errorf("GET %s: %v, want ErrForbiddenAddress", target, err)
					}
				}
			})
		}
	}
	if got := rc.total.Load(); got != 0 {
		t.Errorf("the receiver got %d requests", got)
	}
	// A name that resolves to loopback at send time is refused without
	// AllowLoopback, and reaches it with it.
	toLoopback := func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	target := "http://push.example.com:" + itoa(port) + "/sub"
	if _, err := newClient(toLoopback, false, 1).Get(target); !errors.Is(err, ErrForbiddenAddress) {
		t.Errorf("a name resolving to loopback: %v, want ErrForbiddenAddress", err)
	}
	resp, err := newClient(toLoopback, true, 1).Get(target)
	if err != nil {
		t.Fatalf("a name resolving to loopback with AllowLoopback: %v", err)
	}
	_ = resp.Body.Close()
	// A redirect is returned, never followed, even to a public address.
	for _, to := range []string{"http://169.254.169.254/latest", "http://10.0.0.1/", "https://fcm.googleapis.com/"} {
		redirecting := newReceiver(t, func(w http.ResponseWriter, r *http.Request) bool {
			http.Redirect(w, r, to, http.StatusFound)
			return false
		})
		resp, err := newClient(toLoopback, true, 1).Get(redirecting.URL + "/sub")
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusFound {
			t.Errorf("redirect to %s: %s, want the 302 itself", to, resp.Status)
		}
	}
}

// itoa formats a port.
func itoa(p uint16) string { return strconv.Itoa(int(p)) }
