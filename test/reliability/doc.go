// Package reliability holds the long load tests of the static serve binary:
// a 60-second wrk flood across pages, assets and the API with serve's memory
// watched, and hundreds of slow clients that hold connections open with
// unfinished headers while normal clients are timed.
//
// Its tests start processes, need wrk and take about two minutes, so they
// build only with the reliability tag: `make reliability` (part of `make
// soak`), or `go test -tags reliability ./test/reliability`.
package reliability
