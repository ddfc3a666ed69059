// Package layers holds the test of Bindery's dependency rule; it has no
// code. Packages are layered, top to bottom:
//
//	cmd/bindery → server → rest, reader → graph → internal/..., ent/...
//
// A package may import its own layer or a lower one, never a higher one, so
// that the application layer (graph) cannot grow a dependency on a
// transport, nor a transport on the server that wires it. Tools that run
// beside the server (the code generators, cmd/newmigration, cmd/benchload)
// and test-only packages stand outside the layers: they may import any
// layer, and no layered package may import them. The table that places
// every package is in layers_test.go; a package it does not place fails the
// test, so a new package starts with a decision about where it belongs.
//
// Tests are exempt: they may import any layer, since the one test helper
// that starts the whole server (server/servertest) serves every area's
// tests.
//
// The test also fails when the server binary (cmd/bindery) depends on a code
// generator: entc, entgql, gqlgen's codegen, api and plugins, or
// golang.org/x/tools/go/packages. They run at `go generate` only; linked
// into the server they would add tens of megabytes and nothing it uses. The
// ent schema, which the server links for its defaults, validators and
// hooks, therefore takes entgql's annotations from ent/schema/internal/entgql,
// which holds them only under the build tag entc.
package layers
