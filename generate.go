// Package bindery is a self-hosted backend for a documentation platform. See
// README.md.
//
// All code generation runs from here, in order: the enumerations (Go and
// GraphQL), ent with entgql (which writes graph/schema/ent.graphqls), the
// GraphQL connection types, and gqlgen. `make test` checks that the
// committed output is current.
package bindery

//go:generate go run ./internal/enum/internal/gen
//go:generate go -C ent run -mod=mod entc.go
//go:generate go run ./graph/model/internal/gen
//go:generate go run ./graph/internal/gqlgen
//go:generate go run ./rest/internal/openapigen
