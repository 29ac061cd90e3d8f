// Package rules tests the Firestore security rules of the repository
// (firestore.rules at its root) on Google's Firestore emulator: clients
// without credentials and signed-in Firebase users are refused every read
// and write on every collection the program uses, while the server's own
// client library (admin credentials, which rules do not judge) still reads
// and writes. It holds tests only; those that need the emulator build with
// the emulator tag (`make test` runs them, as
// `go test -tags emulator ./test/rules`).
// Its one test without the tag checks firestore.indexes.json and
// firebase.json.
package rules
