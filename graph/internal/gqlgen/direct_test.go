package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fieldCode is a field function as gqlgen v0.17.95 writes it, with its
// field context and marshaller; the test cases vary one part each.
func fieldCode(name, resolver, middleware, fieldContext, marshal, marshalBody string) string {
	return `package generated

func (ec *executionContext) _T_` + name + `(ctx context.Context, field graphql.CollectedField, obj *ent.T) (ret graphql.Marshaler) {
	return graphql.ResolveField(
		ctx,
		ec.OperationContext,
		field,
		func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
			return ec.fieldContext_T_` + name + `(ctx, field)
		},
		func(ctx context.Context) (any, error) {
			` + resolver + `
		},
		` + middleware + `,
		func(ctx context.Context, selections ast.SelectionSet, v string) graphql.Marshaler {
			return ec.` + marshal + `(ctx, selections, v)
		},
		true,
		true,
	)
}
func (ec *executionContext) fieldContext_T_` + name + `(_ context.Context, field graphql.CollectedField) (fc *graphql.FieldContext, err error) {
	` + fieldContext + `
}

func (ec *executionContext) ` + marshal + `(ctx context.Context, sel ast.SelectionSet, v ` + goType(marshal) + `) graphql.Marshaler {
` + marshalBody + `
}
`
}

// goType is the Go type a marshaller named as gqlgen names them takes.
func goType(marshal string) string {
	switch {
	case strings.Contains(marshal, "ᚖ"):
		return "*string"
	case strings.HasSuffix(marshal, "2int64"):
		return "int64"
	}
	return "string"
}

const (
	plainResolver = `return obj.Name, nil`
	plainContext  = `return graphql.NewScalarFieldContext("T", field, false, false, errors.New("no child fields"))`
	requiredBody  = `	_ = sel
	res := graphql.MarshalString(v)
	if res == graphql.Null {
		if !graphql.HasFieldError(ctx, graphql.GetFieldContext(ctx)) {
			graphql.AddErrorf(ctx, "the requested element is null which the schema does not allow")
		}
	}
	return res`
)

func TestDirect(t *testing.T) {
	cases := []struct {
		name                                               string
		resolver, middleware, fieldContext, marshal, mBody string
		direct                                             bool
		// answer is what a direct field answers; by default its
		// marshaller's answer.
		answer string
	}{
		{"required string", plainResolver, "nil", plainContext, "marshalNString2string", requiredBody, true,
			"gqlexec.StringAt(ec.OperationContext, &obj.Name)"},
		{"required ID", plainResolver, "nil", plainContext, "marshalNID2string",
			strings.Replace(requiredBody, "graphql.MarshalString", "graphql.MarshalID", 1), true,
			"gqlexec.StringAt(ec.OperationContext, &obj.Name)"},
		{"a required scalar answered by copy", plainResolver, "nil", plainContext, "marshalNInt2int64",
			strings.Replace(requiredBody, "graphql.MarshalString", "graphql.MarshalInt64", 1), true, ""},
		{"enum", plainResolver, "nil", plainContext, "marshalNE2E", "\treturn v", true, ""},
		{"optional scalar", plainResolver, "nil", plainContext, "marshalOString2ᚖstring",
			"\tif v == nil {\n\t\treturn graphql.Null\n\t}\n\t_ = sel\n\t_ = ctx\n\tres := graphql.MarshalString(*v)\n\treturn res", true,
			"gqlexec.OptionalStringAt(ec.OperationContext, obj.Name)"},
		{"a method", `return obj.Name(), nil`, "nil", plainContext, "marshalNString2string", requiredBody, false, ""},
		{"a resolver", `return ec.resolvers.T().Name(ctx, obj)`, "nil", plainContext, "marshalNString2string", requiredBody, false, ""},
		{"a directive", plainResolver, "func(ctx context.Context, next graphql.Resolver) graphql.Resolver { return next }",
			plainContext, "marshalNString2string", requiredBody, false, ""},
		{"a method's field context", plainResolver, "nil",
			`return graphql.NewScalarFieldContext("T", field, true, false, errors.New("no child fields"))`,
			"marshalNString2string", requiredBody, false, ""},
		{"arguments", plainResolver, "nil", "fc = &graphql.FieldContext{}\n\treturn fc, ec.args(ctx, field)",
			"marshalNString2string", requiredBody, false, ""},
		{"a producer that may answer null", plainResolver, "nil", plainContext, "marshalNJSON2map",
			strings.Replace(requiredBody, "graphql.MarshalString", "graphql.MarshalMap", 1), false, ""},
		{"a marshaller that fails", plainResolver, "nil", plainContext, "marshalNFloat2float64",
			"\tres := graphql.MarshalFloatContext(v)\n\treturn graphql.WrapContextMarshaler(ctx, res)", false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := fieldCode("name", c.resolver, c.middleware, c.fieldContext, c.marshal, c.mBody)
			// A qualifying field elsewhere in the file, so that the
			// rewrite does not fail for finding none.
			src += strings.TrimPrefix(fieldCode("other", plainResolver, "nil", plainContext, "marshalNString2stringOther",
				requiredBody), "package generated\n")
			out, n, err := direct([]byte(src))
			require.NoError(t, err)
			answer := c.answer
			if answer == "" {
				answer = "ec." + c.marshal + "(ctx, field.Selections, obj.Name)"
			}
			want := "func (ec *executionContext) _T_name(ctx context.Context, field graphql.CollectedField, obj *ent.T) " +
				"(ret graphql.Marshaler) {\n\tif gqlexec.Plain(ec.OperationContext) {\n\t\treturn " + answer +
				"\n\t}\n\treturn graphql.ResolveField("
			if c.direct {
				require.Equal(t, 2, n)
				require.Contains(t, string(out), want)
			} else {
				require.Equal(t, 1, n)
				require.NotContains(t, string(out), want)
				require.Contains(t, string(out), "return ec.fieldContext_T_name(ctx, field)")
			}
		})
	}
}

// TestDirectNone: code where no field qualifies is a gqlgen whose output
// changed shape, and the rewrite says so rather than doing nothing.
func TestDirectNone(t *testing.T) {
	_, _, err := direct([]byte(fieldCode("name", `return obj.Name(), nil`, "nil", plainContext, "m", requiredBody)))
	require.ErrorContains(t, err, "no field qualified")
}
