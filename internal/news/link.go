package news

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// firestoreTarget is Firestore's gRPC endpoint, the client library's default.
const firestoreTarget = "dns:///firestore.googleapis.com:443"

// linkRetryMax caps the wait between two attempts of a link to connect
// while Firestore is away, and so how late it notices Firestore's return.
const linkRetryMax = time.Second

// link follows whether Firestore can be reached, on a gRPC connection of its
// own that makes no call: only the connection's state is read, which costs
// nothing, and while Firestore is away it tries to connect every second.
//
// The client library hides an outage from a listener: it retries the broken
// stream itself, behind three backoffs of its own (its connection's, up to
// 2 min; opening the stream's, up to 1 min; the stream's, up to 1 min), so
// after Firestore is back a listener may stay silent for tens of seconds.
// A link tells Watch when to start a fresh listener instead.
//
// It sees an outage that refuses or resets connections (a server, proxy or
// emulator that went down); on a silent network it sees nothing, and the
// library's own retries are all there is.
type link struct {
	conn *grpc.ClientConn
}

// newLink returns a link to the Firestore emulator that
// FIRESTORE_EMULATOR_HOST names, as the client library reads it, or else
// to Firestore. It connects on the first waitReturn.
func newLink() (*link, error) {
	target, creds := firestoreTarget, credentials.NewTLS(nil)
	if host := os.Getenv("FIRESTORE_EMULATOR_HOST"); host != "" {
		host = strings.TrimPrefix(strings.TrimPrefix(host, "http://"), "https://")
		target, creds = "passthrough:///"+host, insecure.NewCredentials()
	}
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(creds),
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 250 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: linkRetryMax},
			MinConnectTimeout: 5 * time.Second,
		}),
		// A connection that makes no call would otherwise be closed as idle
		// after 30 min, and the link would be blind until it connects again.
		grpc.WithIdleTimeout(0),
	)
	if err != nil {
		return nil, fmt.Errorf("news: link to firestore %s: %w", target, err)
	}
	return &link{conn: conn}, nil
}

// waitReturn connects the link and waits for Firestore to come back after
// an outage: it returns true once the link, after it failed to connect, is
// up again, and false when ctx ends first. A first connection is no return,
// nor is a connection that closes and opens again at once (a server may
// close idle connections): a listener loses nothing then.
func (l *link) waitReturn(ctx context.Context) bool {
	lost := false
	for {
		state := l.conn.GetState()
		switch state {
		case connectivity.Idle:
			l.conn.Connect()
		case connectivity.TransientFailure:
			lost = true
		case connectivity.Ready:
			if lost {
				return true
			}
		}
		if !l.conn.WaitForStateChange(ctx, state) {
			return false
		}
	}
}

// close closes the link's connection.
func (l *link) close() error { return l.conn.Close() }
