package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDropUnmarshalerMap(t *testing.T) {
	exec := `func (e *executableSchema) Exec(ctx context.Context) graphql.ResponseHandler {
	ec := newExecutionContext(opCtx, e, make(chan graphql.DeferredResult))
	inputUnmarshalMap := graphql.BuildUnmarshalerMap(
		ec.unmarshalInputA,
		ec.unmarshalInputB,
	)
	first := true
	switch opCtx.Operation.Operation {
	case ast.Query:
		return func(ctx context.Context) *graphql.Response {
			if first {
				first = false
				ctx = graphql.WithUnmarshalerMap(ctx, inputUnmarshalMap)
				data = ec._Query(ctx, opCtx.Operation.SelectionSet)
			}
		}
	case ast.Mutation:
		return func(ctx context.Context) *graphql.Response {
			ctx = graphql.WithUnmarshalerMap(ctx, inputUnmarshalMap)
			data := ec._Mutation(ctx, opCtx.Operation.SelectionSet)
		}
	}
}
`
	out, err := dropUnmarshalerMap([]byte(exec))
	require.NoError(t, err)
	assert.NotContains(t, string(out), "UnmarshalerMap")
	assert.NotContains(t, string(out), "inputUnmarshalMap")
	assert.Contains(t, string(out), "\tfirst := true\n")
	assert.Contains(t, string(out), "\t\t\t\tfirst = false\n\t\t\t\tdata = ec._Query(")

	_, err = dropUnmarshalerMap([]byte(strings.Replace(exec, "BuildUnmarshalerMap", "BuildInputMap", 1)))
	assert.ErrorContains(t, err, "0 builds")
	_, err = dropUnmarshalerMap([]byte(strings.ReplaceAll(exec, "graphql.WithUnmarshalerMap(ctx, inputUnmarshalMap)", "graphql.WithInputs(ctx, inputUnmarshalMap)")))
	assert.ErrorContains(t, err, "not put in the context")
}

// TestNoUnmarshalInputFromContext: the generated code no longer puts the
// input unmarshallers in the context (dropUnmarshalerMap), so nothing may
// read them from there.
func TestNoUnmarshalInputFromContext(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasPrefix(filepath.Base(path), "unmarshalers") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		assert.NotContains(t, string(src), "UnmarshalInputFromContext", "%s reads input unmarshallers from the context, which the generated code no longer puts there", path)
		return nil
	})
	require.NoError(t, err)
}
