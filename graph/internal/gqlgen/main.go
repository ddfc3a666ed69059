// Command gqlgen runs gqlgen's code generator as `gqlgen generate` does,
// with gqlgen.yml, and then makes the generated code marshal lists of
// objects with gqlexec.MarshalSlice instead of
// graphql.MarshalSliceConcurrently (see package graph/gqlexec for why).
// gqlgen has no option or plugin hook for it: its exec template names the
// function. The rewrite fails loudly when the generated code stops calling
// it, as a gqlgen upgrade might; drop it when gqlgen can marshal lists
// without a goroutine per element itself.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
	"golang.org/x/tools/imports"
)

const (
	concurrent = "graphql.MarshalSliceConcurrently("
	sequential = "gqlexec.MarshalSlice("
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gqlgen:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		return err
	}
	if err := api.Generate(cfg); err != nil {
		return err
	}
	return rewrite(cfg.Exec.Filename)
}

// rewrite replaces the concurrent list marshalling in the generated file.
func rewrite(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	n := bytes.Count(src, []byte(concurrent))
	if n == 0 {
		return fmt.Errorf("%s calls no %s: gqlgen changed how it marshals lists; see graph/gqlexec", path, concurrent)
	}
	src = bytes.ReplaceAll(src, []byte(concurrent), []byte(sequential))
	src = bytes.Replace(src, []byte("import (\n"), []byte("import (\n\t\"github.com/bindery/bindery/graph/gqlexec\"\n"), 1)
	out, err := imports.Process(path, src, nil)
	if err != nil {
		return fmt.Errorf("formatting %s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}
