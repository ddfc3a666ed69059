package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// gqlgen's code asks the resolver root for a type's resolver every time a
// field with a resolver runs (ec.Resolvers.ChangeRequest().CreatedBy(...)),
// and gqlgen's resolver layout answers with a new one each time
// (`return &changeRequestResolver{r}`): an allocation for every such field
// of every object, 500 in a nested read of 500 change requests and their
// authors. A type's resolver is a stateless view of the root, so
// cacheResolvers makes NewExecutableSchema ask the root for each once and
// keep them in a resolverRoot that answers with those.

// newSchema is how NewExecutableSchema hands the schema its resolvers.
const newSchema = "Resolvers: cfg.Resolvers,"

func cacheResolvers(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(newSchema)); n != 1 {
		return nil, fmt.Errorf("%d places hand the schema cfg.Resolvers where 1 was expected: gqlgen changed "+
			"NewExecutableSchema; see graph/internal/gqlgen/resolvers.go", n)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var root *ast.InterfaceType
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts := s.(*ast.TypeSpec); ts.Name.Name == "ResolverRoot" {
				root, _ = ts.Type.(*ast.InterfaceType)
			}
		}
	}
	if root == nil || len(root.Methods.List) == 0 {
		return nil, fmt.Errorf("no ResolverRoot interface with methods: gqlgen changed it; see graph/internal/gqlgen/resolvers.go")
	}
	var fields, made, methods strings.Builder
	for _, m := range root.Methods.List {
		fn, ok := m.Type.(*ast.FuncType)
		if !ok || len(m.Names) != 1 || len(fn.Params.List) != 0 || fn.Results == nil || len(fn.Results.List) != 1 {
			return nil, fmt.Errorf("ResolverRoot has a method that is not `Type() TypeResolver`: gqlgen changed it; " +
				"see graph/internal/gqlgen/resolvers.go")
		}
		res, ok := fn.Results.List[0].Type.(*ast.Ident)
		if !ok {
			return nil, fmt.Errorf("ResolverRoot's %s answers a type of another package; see graph/internal/gqlgen/resolvers.go", m.Names[0].Name)
		}
		name := m.Names[0].Name
		fmt.Fprintf(&fields, "\tof%s %s\n", name, res.Name)
		fmt.Fprintf(&made, "\t\tof%s: r.%s(),\n", name, name)
		fmt.Fprintf(&methods, "\nfunc (r *resolverRoot) %s() %s { return r.of%s }\n", name, res.Name, name)
	}
	src = bytes.Replace(src, []byte(newSchema), []byte("Resolvers: newResolverRoot(cfg.Resolvers),"), 1)
	return append(src, fmt.Sprintf(`
// resolverRoot is a resolver root whose resolver of each type was asked for
// once, when the schema was made (graph/internal/gqlgen/resolvers.go).
type resolverRoot struct {
%s}

func newResolverRoot(r ResolverRoot) ResolverRoot {
	if r == nil {
		return nil
	}
	return &resolverRoot{
%s	}
}
%s`, fields.String(), made.String(), methods.String())...), nil
}
