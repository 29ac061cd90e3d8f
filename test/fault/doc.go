// Package fault plays the faults of the website's stores end to end: the
// real Firestore emulator killed under load while a real server on the
// Firestore store keeps serving its pages and live streams, then brought
// back. It holds tests only; they need the emulator
// and take about 65 s (a 60 s load, the emulator started twice), so they
// build only with the emulator and slow tags: `make test` runs them, as
// `go test -tags emulator,slow ./test/fault`.
// ROBOHORNETS_FAULT_LOAD shortens the load for quick local runs, like
// ROBOHORNETS_FAULT_LOAD=36s; the default is the required 60 s.
package fault
