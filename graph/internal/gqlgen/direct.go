package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"sort"
	"strings"
)

// direct makes the generated code marshal a field read straight from its
// object's struct without graphql.ResolveField, when nothing ResolveField
// does can matter for it.
//
// gqlgen runs every field through ResolveField: a FieldContext (and an
// error value for its children), a context holding it, closures for the
// resolver and the marshaller, the field middleware, a recover, and the
// value boxed in an interface: about eight allocations and a dozen calls to
// write, say, a change request's ID. A nested read of 500 change requests
// has thousands of such fields, and that was most of its CPU.
//
// A field qualifies when all of this holds, checked on the generated code:
//   - its resolver is `return obj.F, nil`: a struct field, no method, no
//     arguments (its field context is a plain NewScalarFieldContext that is
//     neither a method nor a resolver), no directive (no middleware chain);
//   - its marshaller cannot fail and reads nothing from the context: an
//     enum's `return v`, an optional scalar's nil check, or a required
//     scalar from a producer that never answers null (neverNull).
//
// Such a field cannot panic and cannot fail, but a field middleware may
// still want to see it (an authorization check, per-field tracing), so the
// shortcut is taken only when the operation has no field middleware but
// gqlexec.ResolversOnly's (gqlexec.Plain, one comparison): the field's body
// starts with `if gqlexec.Plain(ec.OperationContext) { return
// ec.marshalX(ctx, field.Selections, obj.F) }`, which writes the JSON
// ResolveField would, and goes on with gqlgen's code otherwise. A String,
// ID, Int or Boolean field is answered there by gqlexec.StringAt and its
// kind, with a pointer to the struct's field rather than a copy boxed in a
// closure (inPlace; see graph/gqlexec/scalar.go). A directive
// on the field gives it a middleware chain, so it never qualifies.
// Everything else keeps gqlgen's code alone. The rewrite fails when it
// qualifies no field at all, as it would if a gqlgen upgrade changed the
// shape of the generated code.
func direct(src []byte) ([]byte, int, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, 0, err
	}
	methods := map[string]*ast.FuncDecl{}
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Body != nil {
			methods[fn.Name.Name] = fn
		}
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for name, fn := range methods {
		if !strings.HasPrefix(name, "_") {
			continue
		}
		field, marshal, ok := directField(fn, methods, fset)
		if !ok {
			continue
		}
		answer := "ec." + marshal + "(ctx, field.Selections, obj." + field + ")"
		if at, ok := inPlace(methods[marshal], fset); ok {
			answer = fmt.Sprintf(at, "obj."+field)
		}
		at := fset.Position(fn.Body.Lbrace).Offset + 1
		edits = append(edits, edit{
			from: at,
			to:   at,
			text: "\n\tif gqlexec.Plain(ec.OperationContext) {\n\t\treturn " + answer + "\n\t}",
		})
	}
	if len(edits) == 0 {
		return nil, 0, fmt.Errorf("no field qualified for direct marshalling: gqlgen changed the shape of its field code; see graph/internal/gqlgen/direct.go")
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.from], append([]byte(e.text), out[e.to:]...)...)
	}
	return out, len(edits), nil
}

// directField reports whether the field function fn qualifies, with the
// struct field it reads and the marshaller it calls.
func directField(fn *ast.FuncDecl, methods map[string]*ast.FuncDecl, fset *token.FileSet) (field, marshal string, ok bool) {
	if len(fn.Type.Params.List) != 3 || len(fn.Type.Params.List[2].Names) != 1 || fn.Type.Params.List[2].Names[0].Name != "obj" {
		return "", "", false
	}
	call, ok := onlyReturn(fn.Body).(*ast.CallExpr)
	if !ok || !isSelector(call.Fun, "graphql", "ResolveField") || len(call.Args) != 9 {
		return "", "", false
	}
	// The field context: a scalar's, neither a method nor a resolver.
	fcCall, ok := funcLitReturn(call.Args[3]).(*ast.CallExpr)
	if !ok {
		return "", "", false
	}
	fcName, ok := ecMethod(fcCall.Fun)
	if !ok || methods[fcName] == nil {
		return "", "", false
	}
	scalar, ok := onlyReturn(methods[fcName].Body).(*ast.CallExpr)
	if !ok || !isSelector(scalar.Fun, "graphql", "NewScalarFieldContext") || len(scalar.Args) != 5 ||
		!isIdent(scalar.Args[2], "false") || !isIdent(scalar.Args[3], "false") {
		return "", "", false
	}
	// The resolver: `return obj.F, nil`.
	res, ok := funcLitResults(call.Args[4])
	if !ok || len(res) != 2 || !isIdent(res[1], "nil") {
		return "", "", false
	}
	sel, ok := res[0].(*ast.SelectorExpr)
	if !ok || !isIdent(sel.X, "obj") {
		return "", "", false
	}
	// No middleware chain.
	if !isIdent(call.Args[5], "nil") {
		return "", "", false
	}
	// The marshaller.
	mCall, ok := funcLitReturn(call.Args[6]).(*ast.CallExpr)
	if !ok {
		return "", "", false
	}
	mName, ok := ecMethod(mCall.Fun)
	if !ok || methods[mName] == nil || !cannotFail(methods[mName].Body, fset) {
		return "", "", false
	}
	return sel.Sel.Name, mName, true
}

// inPlaceAnswers are the gqlexec functions that answer a String, ID, Int or
// Boolean field with a pointer to its struct's field (see
// graph/gqlexec/scalar.go), by the Go type the marshaller takes and the
// producer it calls: a format of the field's expression.
var inPlaceAnswers = map[[2]string]string{
	{"string", "graphql.MarshalString"}:  "gqlexec.StringAt(ec.OperationContext, &%s)",
	{"string", "graphql.MarshalID"}:      "gqlexec.StringAt(ec.OperationContext, &%s)",
	{"int", "graphql.MarshalInt"}:        "gqlexec.IntAt(ec.OperationContext, &%s)",
	{"bool", "graphql.MarshalBoolean"}:   "gqlexec.BooleanAt(ec.OperationContext, &%s)",
	{"*string", "graphql.MarshalString"}: "gqlexec.OptionalStringAt(ec.OperationContext, %s)",
	{"*string", "graphql.MarshalID"}:     "gqlexec.OptionalStringAt(ec.OperationContext, %s)",
	{"*int", "graphql.MarshalInt"}:       "gqlexec.OptionalIntAt(ec.OperationContext, %s)",
	{"*bool", "graphql.MarshalBoolean"}:  "gqlexec.OptionalBooleanAt(ec.OperationContext, %s)",
}

// inPlace returns the format of the in-place answer (inPlaceAnswers) of a
// field whose marshaller, already known to be safe (cannotFail), is m.
func inPlace(m *ast.FuncDecl, fset *token.FileSet) (string, bool) {
	params := m.Type.Params.List
	if len(params) != 3 || len(params[2].Names) != 1 {
		return "", false
	}
	var t bytes.Buffer
	if err := printer.Fprint(&t, fset, params[2].Type); err != nil {
		return "", false
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, m.Body); err != nil {
		return "", false
	}
	for _, p := range neverNull {
		if strings.Contains(b.String(), p+"(") {
			f, ok := inPlaceAnswers[[2]string{t.String(), p}]
			return f, ok
		}
	}
	return "", false
}

// neverNull are the scalar producers that always answer a value, never
// graphql.Null, so that a required scalar's null check cannot fire.
var neverNull = []string{
	"graphql.MarshalID", "graphql.MarshalString", "graphql.MarshalInt", "graphql.MarshalInt32",
	"graphql.MarshalInt64", "graphql.MarshalBoolean", "model.MarshalDateTime",
}

// safeMarshallers are the bodies of the marshallers that cannot fail and
// use no context, with P for a producer of neverNull.
var safeMarshallers = []string{
	// An enum, or an optional enum.
	`{return v}`,
	`{if v == nil {return graphql.Null}; return v}`,
	// A required scalar.
	`{_ = sel; res := P(v); if res == graphql.Null {if !graphql.HasFieldError(ctx, graphql.GetFieldContext(ctx)) {` +
		`graphql.AddErrorf(ctx, "the requested element is null which the schema does not allow")}}; return res}`,
	// An optional scalar.
	`{if v == nil {return graphql.Null}; _ = sel; _ = ctx; res := P(*v); return res}`,
}

// cannotFail reports whether a marshaller's body is one of safeMarshallers.
func cannotFail(body *ast.BlockStmt, fset *token.FileSet) bool {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, body); err != nil {
		return false
	}
	text := compact(b.String())
	for _, p := range neverNull {
		text = strings.ReplaceAll(text, p+"(", "P(")
	}
	for _, s := range safeMarshallers {
		if text == compact(s) {
			return true
		}
	}
	return false
}

// compact removes the layout of a printed block, so that bodies compare by
// their tokens: statements are separated by "; ".
func compact(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	s = strings.Join(lines, "; ")
	s = strings.ReplaceAll(s, "{; ", "{")
	s = strings.ReplaceAll(s, "; }", "}")
	return s
}

func onlyReturn(body *ast.BlockStmt) ast.Expr {
	if body == nil || len(body.List) != 1 {
		return nil
	}
	r, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return nil
	}
	return r.Results[0]
}

func funcLitResults(e ast.Expr) ([]ast.Expr, bool) {
	lit, ok := e.(*ast.FuncLit)
	if !ok || len(lit.Body.List) != 1 {
		return nil, false
	}
	r, ok := lit.Body.List[0].(*ast.ReturnStmt)
	if !ok {
		return nil, false
	}
	return r.Results, true
}

func funcLitReturn(e ast.Expr) ast.Expr {
	res, ok := funcLitResults(e)
	if !ok || len(res) != 1 {
		return nil
	}
	return res[0]
}

// ecMethod returns the name of a method of the execution context, ec.name.
func ecMethod(e ast.Expr) (string, bool) {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || !isIdent(sel.X, "ec") {
		return "", false
	}
	return sel.Sel.Name, true
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, pkg) && sel.Sel.Name == name
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
