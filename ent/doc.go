// Package ent is generated from ./schema by entc.go; run `go generate ./...`
// from the repository root.
package ent
