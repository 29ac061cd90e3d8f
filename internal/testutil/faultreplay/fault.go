// Package faultreplay makes the upstream APIs of the pit display fail on
// purpose: an http.Handler in front of a replay server (or of any handler
// serving Nexus under /nexus/ and TBA under /tba/) that answers late,
// wrongly, in pieces or not at all, as told at run time or by a schedule.
// It serves tests and the replay daemon of the end-to-end tests; the
// product's replay server, which the demo runs, never fails on purpose.
package faultreplay

import (
	"slices"
	"time"
)

// Fault is a way for an upstream API to fail. Its values are the words of
// POST /control, which tests in other processes send.
type Fault string

// The faults. None serves normally.
const (
	None Fault = ""
	// Slow answers only after Options.SlowDelay, beyond the client's timeout.
	Slow Fault = "slow"
	// Hang accepts the request and never answers: only the client giving
	// up, or the server closing, ends it.
	Hang Fault = "hang"
	// Status500 answers 500 Internal Server Error.
	Status500 Fault = "500"
	// Status403 answers 403 Forbidden, as to a key that was revoked.
	Status403 Fault = "403"
	// Malformed answers with the first half of the JSON, and a
	// Content-Length that says so.
	Malformed Fault = "malformed"
	// Truncated starts a good answer whose Content-Length announces the
	// whole body, sends half of it and drops the connection.
	Truncated Fault = "truncated"
	// TruncatedChunked starts a good answer without a Content-Length
	// (chunked), sends half of it and drops the connection.
	TruncatedChunked Fault = "truncated-chunked"
	// Huge answers 200 with a valid JSON body of 50 MiB, over any sane
	// limit. It is streamed: the server never holds it in memory.
	Huge Fault = "huge"
	// Down closes the connection without an answer.
	Down Fault = "down"
	// Flap alternates every Options.FlapEvery between Options.FlapFault
	// and good answers, starting with the fault.
	Flap Fault = "flap"
)

// known are all the faults but None, in the order of their docs.
var known = []Fault{Slow, Hang, Status500, Status403, Malformed, Truncated, TruncatedChunked, Huge, Down, Flap}

// Valid reports whether f is one of the faults, or None, so that a fault
// named on a command line or in a request can be checked before use.
func (f Fault) Valid() bool {
	return f == None || slices.Contains(known, f)
}

// DefaultFlapEvery is the default of Options.FlapEvery: a link that goes
// down and up every few seconds.
const DefaultFlapEvery = 5 * time.Second

// defaultSlowDelay is the default of Options.SlowDelay: longer than any
// client of an event API waits.
const defaultSlowDelay = 30 * time.Second

// hugeSize is the length of Huge's body: 50 MiB, ten times what any client
// of an event API should take.
const hugeSize = 50 << 20
