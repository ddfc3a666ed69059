// Package ent is generated from ./schema; see entc.go.
package ent

//go:generate go run -mod=mod entc.go
