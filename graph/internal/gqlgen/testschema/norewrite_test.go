//go:build bindery_norewrite

package testschema_test

// rewritten: the generated code is gqlgen's as it is.
const rewritten = false
