package graph

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// undescribedBudget is how many members of the GraphQL schema still have no
// description, by kind: the playground's docs pane and every generated
// client show these texts, so each type, field, argument, input field and
// enum value should say what it is. The budget only goes down: the test
// fails when a member without a description is added, and when members are
// described without lowering the budget, so that the figure stays true.
// `go test ./graph -run TestSchemaDescriptions -v` lists them.
var undescribedBudget = map[string]int{
	"type":        14,
	"field":       264,
	"argument":    70,
	"input field": 85,
	"enum value":  11,
}

// TestSchemaDescriptions holds the schema to undescribedBudget.
func TestSchemaDescriptions(t *testing.T) {
	missing := undescribed(declared(t).Schema().Schema())
	for kind, budget := range undescribedBudget {
		n := len(missing[kind])
		switch {
		case n > budget:
			t.Errorf("%d %ss have no description, more than the budget of %d; describe them in the schema (or, for "+
				"ent's types, with the field's Comment in ent/schema):\n  %s", n, kind, budget, strings.Join(missing[kind], "\n  "))
		case n < budget:
			t.Errorf("%d %ss have no description, fewer than the budget of %d: lower undescribedBudget[%q] to %d", n, kind, budget, kind, n)
		}
	}
	if testing.Verbose() {
		for kind, names := range missing {
			t.Logf("%s: %d undescribed\n  %s", kind, len(names), strings.Join(names, "\n  "))
		}
	}
}

// undescribed lists, by kind, the schema's members without a description,
// leaving out GraphQL's own types and directives.
func undescribed(s *ast.Schema) map[string][]string {
	missing := map[string][]string{}
	add := func(kind, name string) { missing[kind] = append(missing[kind], name) }
	for name, def := range s.Types {
		if def.BuiltIn || strings.HasPrefix(name, "__") {
			continue
		}
		if def.Description == "" {
			add("type", name)
		}
		for _, f := range def.Fields {
			where := fmt.Sprintf("%s.%s", name, f.Name)
			if f.Description == "" {
				if def.Kind == ast.InputObject {
					add("input field", where)
				} else {
					add("field", where)
				}
			}
			for _, a := range f.Arguments {
				if a.Description == "" && !describedByType(s, name, a) {
					add("argument", fmt.Sprintf("%s(%s)", where, a.Name))
				}
			}
		}
		for _, v := range def.EnumValues {
			if v.Description == "" {
				add("enum value", fmt.Sprintf("%s.%s", name, v.Name))
			}
		}
	}
	for _, names := range missing {
		sort.Strings(names)
	}
	return missing
}

// describedByType reports the one argument that its type documents: the
// input of a mutation (Relay's input object), when that type is described.
func describedByType(s *ast.Schema, parent string, a *ast.ArgumentDefinition) bool {
	if s.Mutation == nil || parent != s.Mutation.Name || a.Name != "input" {
		return false
	}
	t := s.Types[a.Type.Name()]
	return t != nil && t.Description != ""
}
