//go:build ignore

// entc.go generates the ent client and, through entgql, the GraphQL object
// types of ../ent.graphqls. It is run by `go generate ./ent`.
package main

import (
	"log"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
	entschema "entgo.io/ent/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

func main() {
	ex, err := entgql.NewExtension(
		entgql.WithSchemaGenerator(),
		entgql.WithSchemaPath("../graph/schema/ent.graphqls"),
		entgql.WithConfigPath("../gqlgen.yml"),
		entgql.WithWhereInputs(false),
		entgql.WithRelaySpec(true),
		// Lists are ordered by fixed orders, not by orderBy arguments.
		entgql.WithSchemaHook(func(_ *gen.Graph, s *ast.Schema) error {
			delete(s.Types, "OrderDirection")
			return nil
		}),
		// A type's schema.Comment annotation describes its GraphQL type.
		entgql.WithSchemaHook(func(g *gen.Graph, s *ast.Schema) error {
			name := (&entschema.CommentAnnotation{}).Name()
			for _, n := range g.Nodes {
				ant, _ := n.Annotations[name].(map[string]any)
				if text, ok := ant["Text"].(string); ok && s.Types[n.Name] != nil {
					s.Types[n.Name].Description = text
				}
			}
			return nil
		}),
		// The Query root is declared here, and a type extension (the
		// hand-written schema's extend type Query) cannot carry a
		// description, so it is given here.
		entgql.WithSchemaHook(func(_ *gen.Graph, s *ast.Schema) error {
			if q := s.Types["Query"]; q != nil {
				q.Description = "The root of every read: the viewer, any object by its ID, and the organizations, " +
					"collections, spaces, sites and integrations the viewer can see."
			}
			return nil
		}),
		// Bindery paginates with its own keyset cursors (package page), the
		// same for /v1 and GraphQL, so only the Node interface is generated.
		entgql.WithTemplates(gen.MustParse(gen.NewTemplate("gql_noder").
			Funcs(entgql.TemplateFuncs).ParseFiles("template/node.tmpl"))),
	)
	if err != nil {
		log.Fatalf("creating entgql extension: %v", err)
	}
	err = entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{
			gen.FeatureUpsert,
			gen.FeatureLock,
			gen.FeatureModifier,
			gen.FeatureExecQuery,
			gen.FeatureIntercept,
		},
	}, entc.Extensions(ex), entc.TemplateFiles("template/scan.tmpl"),
		// The schema's entgql annotations exist under this tag only (see
		// schema/internal/entgql), so that the server does not link entgql.
		entc.BuildTags("entc"))
	if err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}
