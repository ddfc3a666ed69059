package enum

//go:generate go run ./internal/gen
