//go:build !bindery_norewrite

package testschema_test

// rewritten: the generated code has Bindery's rewrites.
const rewritten = true
