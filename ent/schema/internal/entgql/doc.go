// Package entgql gives the ent schema entgql's annotations only where they
// are read: when entc loads the schema to generate code (build tag entc,
// set by ../../../entc.go). Package entgo.io/contrib/entgql holds the
// annotations together with the code generator (entc/gen, gqlgen's
// codegen, x/tools/go/packages), and the server links the schema, for its
// defaults, validators and hooks, through ent/runtime; importing entgql
// there would link the generators into the binary.
//
// Without the tag the functions return no annotation (nil): ent reads a
// schema's annotations only at generation, so the server's copy of the
// schema has fields, edges and hooks but no GraphQL annotations, rather than
// stand-ins for them. Add what the schema needs from entgql to both files.
package entgql
