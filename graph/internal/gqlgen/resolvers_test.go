package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

const resolverRootCode = `package generated

func NewExecutableSchema(cfg Config) graphql.ExecutableSchema {
	return &executableSchema{SchemaData: cfg.Schema, Resolvers: cfg.Resolvers, Directives: cfg.Directives}
}

type ResolverRoot interface {
	ChangeRequest() ChangeRequestResolver
	Query() QueryResolver
}
`

// The schema keeps a resolver root that answers with the resolvers it
// asked the configured root for once, one for each of ResolverRoot's
// methods.
func TestCacheResolvers(t *testing.T) {
	out, err := cacheResolvers([]byte(resolverRootCode))
	require.NoError(t, err)
	s := string(out)
	require.Contains(t, s, "Resolvers: newResolverRoot(cfg.Resolvers),")
	require.Contains(t, s, "\tofChangeRequest ChangeRequestResolver\n\tofQuery QueryResolver\n}")
	require.Contains(t, s, "\t\tofChangeRequest: r.ChangeRequest(),\n\t\tofQuery: r.Query(),\n")
	require.Contains(t, s, "func (r *resolverRoot) ChangeRequest() ChangeRequestResolver { return r.ofChangeRequest }")
	require.Contains(t, s, "func (r *resolverRoot) Query() QueryResolver { return r.ofQuery }")
}

// Code of another shape fails the rewrite rather than passing unchanged.
func TestCacheResolversChangedShape(t *testing.T) {
	for name, src := range map[string]string{
		"no cfg.Resolvers": `package generated
type ResolverRoot interface { Query() QueryResolver }
`,
		"no ResolverRoot": `package generated
func NewExecutableSchema(cfg Config) any { return &executableSchema{Resolvers: cfg.Resolvers,} }
`,
		"a method with arguments": `package generated
func NewExecutableSchema(cfg Config) any { return &executableSchema{Resolvers: cfg.Resolvers,} }
type ResolverRoot interface { Query(ctx context.Context) QueryResolver }
`,
	} {
		_, err := cacheResolvers([]byte(src))
		require.Error(t, err, name)
	}
}
