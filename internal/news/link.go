package news

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
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
// a listener neither says Firestore is gone nor, once Firestore is back,
// hears from it again for tens of seconds. A link tells Watch both: when
// Firestore is lost, so that the news stops claiming to be live, and when
// it is back, so that a fresh listener starts at once.
//
// It sees an outage that refuses or resets connections (a server, proxy or
// emulator that went down); on a silent network it sees nothing, and the
// library's own retries are all there is.
type link struct {
	conn *grpc.ClientConn

	mu sync.Mutex
	// down is what the link last saw: its last attempt to connect failed
	// and it has not been ready since. Every waiter moves it, so each one
	// sees a change another waiter saw first.
	down bool
}

// newLink returns a link to the Firestore emulator that
// FIRESTORE_EMULATOR_HOST names, as the client library reads it, or else
// to Firestore. It connects on the first await.
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

// isDown reports whether Firestore was unreachable when the link last
// looked.
func (l *link) isDown() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.down
}

// await connects the link and follows it until Firestore is unreachable
// (down) or reachable (!down), and returns true then, at once if it already
// is; it returns false when ctx ends first.
//
// Only a failed attempt to connect (TransientFailure) makes Firestore
// unreachable. A connection that closes and opens again at once (a server
// may close idle connections) passes through Idle and Connecting only: a
// listener loses nothing then. A first connection is no return either: the
// link is not down before it ever failed.
func (l *link) await(ctx context.Context, down bool) bool {
	for {
		state := l.conn.GetState()
		if l.see(state) == down {
			return true
		}
		if state == connectivity.Idle {
			l.conn.Connect()
		}
		if !l.conn.WaitForStateChange(ctx, state) {
			return false
		}
	}
}

// see records what state says of Firestore's reachability and returns
// whether it is down.
func (l *link) see(state connectivity.State) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch state {
	case connectivity.TransientFailure:
		l.down = true
	case connectivity.Ready:
		l.down = false
	}
	return l.down
}

// close closes the link's connection.
func (l *link) close() error { return l.conn.Close() }
