// Package doclinks holds no code: its test reads every Go file of the
// module and checks that each doc link in their doc comments (a name in
// square brackets: Name, Name.Method, pkg.Name, pkg.Name.Method, or a full
// import path and a name) names something that exists, so that a renamed
// or removed name cannot leave a comment pointing at nothing. make check
// runs it, with the rest of go test ./...
package doclinks
