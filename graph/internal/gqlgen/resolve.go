package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
)

// resolveWithoutClosures makes a field of an object resolve through
// gqlexec.ResolveField, with functions that capture nothing, instead of
// graphql.ResolveField with closures over the execution context and the
// object (see graph/gqlexec/resolve.go for why).
//
// A field qualifies when its function is `_T_f(ctx, field, obj)` and ends
// with `return graphql.ResolveField(ctx, ec.OperationContext, field, F, R,
// nil, M, recover, nonNull)` where:
//   - F is `func(ctx, field) { return ec.fieldContext_T_f(ctx, field) }`,
//     which becomes the method expression
//     (*executionContext).fieldContext_T_f;
//   - R, the resolver, names no `field`: it becomes a literal that takes
//     ec and obj as arguments, so that its body means what it meant;
//   - the middleware chain is nil: a directive's chain keeps gqlgen's code;
//   - M is `func(ctx, selections, v) { return ec.marshalX(ctx, selections,
//     v) }`, which becomes (*executionContext).marshalX.
//
// Fields of the root types (no obj) and every other shape keep gqlgen's
// code. The rewrite fails when no field qualifies, as it would if a gqlgen
// upgrade changed the shape of the generated code.
func resolveWithoutClosures(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return string(src[off(n.Pos()):off(n.End())]) }
	fields := 0
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || fn.Body == nil || len(fn.Body.List) == 0 {
			continue
		}
		params := fn.Type.Params.List
		if len(params) != 3 || len(params[2].Names) != 1 || params[2].Names[0].Name != "obj" ||
			len(params[1].Names) != 1 || params[1].Names[0].Name != "field" {
			continue
		}
		ret, ok := fn.Body.List[len(fn.Body.List)-1].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		call, ok := ret.Results[0].(*ast.CallExpr)
		if !ok || !isSelector(call.Fun, "graphql", "ResolveField") || len(call.Args) != 9 ||
			!isIdent(call.Args[2], "field") || !isIdent(call.Args[5], "nil") {
			continue
		}
		initName, ok := forwarded(call.Args[3], "ctx", "field")
		if !ok {
			continue
		}
		marshalName, ok := forwarded(call.Args[6], "ctx", "selections", "v")
		if !ok {
			continue
		}
		resolver, ok := call.Args[4].(*ast.FuncLit)
		if !ok || names(resolver.Body, "field") || len(resolver.Type.Params.List) != 1 {
			continue
		}
		edits = append(edits,
			edit{off(call.Fun.Pos()), off(call.Fun.End()), "gqlexec.ResolveField"},
			edit{off(call.Args[2].Pos()), off(call.Args[2].End()), "field, ec, obj"},
			edit{off(call.Args[3].Pos()), off(call.Args[3].End()), "(*executionContext)." + initName},
			edit{off(resolver.Type.Params.Pos()), off(resolver.Type.Params.End()),
				"(ctx context.Context, ec *executionContext, obj " + text(params[2].Type) + ")"},
			// The middleware chain goes with the comma after it.
			edit{off(call.Args[5].Pos()), off(call.Args[6].Pos()), ""},
			edit{off(call.Args[6].Pos()), off(call.Args[6].End()), "(*executionContext)." + marshalName},
		)
		fields++
	}
	if fields == 0 {
		return nil, fmt.Errorf("no field resolves as expected: gqlgen changed the shape of its field code; see graph/internal/gqlgen/resolve.go")
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.from], append([]byte(e.text), out[e.to:]...)...)
	}
	return out, nil
}

// forwarded returns the method of ec that the function literal e only
// forwards its arguments, named args, to: `func(args) { return
// ec.name(args) }`.
func forwarded(e ast.Expr, args ...string) (string, bool) {
	lit, ok := e.(*ast.FuncLit)
	if !ok {
		return "", false
	}
	var params []string
	for _, p := range lit.Type.Params.List {
		for _, n := range p.Names {
			params = append(params, n.Name)
		}
	}
	call, ok := funcLitReturn(lit).(*ast.CallExpr)
	if !ok || len(call.Args) != len(args) || fmt.Sprint(params) != fmt.Sprint(args) {
		return "", false
	}
	for i, a := range call.Args {
		if !isIdent(a, args[i]) {
			return "", false
		}
	}
	return ecMethod(call.Fun)
}

// names reports whether the identifier name appears in n.
func names(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
