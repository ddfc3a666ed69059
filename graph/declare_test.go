package graph

import (
	"context"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/querycost"
)

// declared returns a resolver without a database, to inspect what its
// declarations produce.
func declared(t *testing.T) *Resolver {
	t.Helper()
	cfg := config.Default()
	cfg.SigningSecret = "declare-test-signing-secret-0123456789"
	return New(ent.NewClient(), cfg)
}

// TestEveryNodeHasAPolicy fails when a GraphQL type implements Node but no
// policy declares it: node(id:) could not find it, no loader would load it,
// and the read guard would not protect it.
func TestEveryNodeHasAPolicy(t *testing.T) {
	r := declared(t)
	s := r.Schema().Schema()
	protected := map[string]bool{}
	for _, name := range r.protectedTypes() {
		protected[name] = true
	}
	nodes := 0
	for _, def := range s.Types {
		if def.Kind != ast.Object || !implements(def, "Node") {
			continue
		}
		nodes++
		var p anyPolicy
		for _, x := range r.policies {
			if x.name() == def.Name {
				p = x
			}
		}
		if !assert.NotNil(t, p, "type %s implements Node but has no policy", def.Name) {
			continue
		}
		assert.Same(t, p, r.policyOf(p.idPrefix()), "%s: its ID prefix must route node(id:) to its policy", def.Name)
		assert.True(t, protected[def.Name], "%s: the read guard must protect it", def.Name)
		_, hasView := p.rules().Rules["view"]
		assert.True(t, hasView, "%s: its table needs a view rule", def.Name)
	}
	assert.GreaterOrEqual(t, nodes, 7)
	ld := r.newLoaders(nil)
	assert.Empty(t, ld.entities, "loaders are made on first use")
	for _, p := range r.policies {
		assert.Same(t, ld.entity(p), ld.entity(p), "%s: one loader per request", p.name())
	}
	assert.Len(t, ld.entities, len(r.policies), "every policy gets a loader")
	// Each lazy loader is made by its method, once per request; a lazy
	// field that none of these makes fails below.
	makers := map[string]func() any{
		"spaceCounts": func() any { return ld.spaceCounts() }, "orgAccess": func() any { return ld.orgAccess() },
		"sharedUsers": func() any { return ld.sharedUsers() }, "crComments": func() any { return ld.crComments() },
		"crContributors": func() any { return ld.crContributors() }, "replyCounts": func() any { return ld.replyCounts() },
		"reactions": func() any { return ld.reactions() }, "mentions": func() any { return ld.mentions() },
		"memberCounts": func() any { return ld.memberCounts() }, "teamCounts": func() any { return ld.teamCounts() },
		"mergedFrom":             func() any { return ld.mergedFrom() },
		"siteSpaceCounts":        func() any { return ld.siteSpaceCounts() },
		"sectionSiteSpaces":      func() any { return ld.sectionSiteSpaces() },
		"groupSections":          func() any { return ld.groupSections() },
		"installationSelections": func() any { return ld.installationSelections() },
		"integrationRefs":        func() any { return ld.integrationRefs() },
	}
	made := 0
	for name, mk := range makers {
		assert.Equal(t, reflect.ValueOf(mk()).Pointer(), reflect.ValueOf(mk()).Pointer(), "%s: one loader per request", name)
		made++
	}
	fields := reflect.ValueOf(ld.lazy)
	assert.Equal(t, fields.NumField(), made, "every lazy loader has its method")
	for i := range fields.NumField() {
		assert.False(t, fields.Field(i).IsNil(), "loader %s is not made", fields.Type().Field(i).Name)
	}
	// Each loader, and the cache of nested pages, is cleared after a
	// mutation.
	assert.Len(t, ld.clears, len(r.policies)+made+1, "every loader is cleared after a mutation")
}

func implements(def *ast.Definition, iface string) bool {
	for _, i := range def.Interfaces {
		if i == iface {
			return true
		}
	}
	return false
}

// TestEveryConnectionIsWeighted fails when a connection field escapes the
// complexity limit's weighing: each must cost in proportion to the items it
// may return.
func TestEveryConnectionIsWeighted(t *testing.T) {
	r := declared(t)
	es := r.Schema()
	fields := 0
	for _, def := range es.Schema().Types {
		for _, f := range def.Fields {
			if !querycost.IsConnection(f.Type.Name()) {
				continue
			}
			fields++
			small, ok := es.Complexity(context.Background(), def.Name, f.Name, 10, map[string]any{"first": int64(7)})
			require.True(t, ok, "%s.%s has no complexity", def.Name, f.Name)
			large, _ := es.Complexity(context.Background(), def.Name, f.Name, 10, map[string]any{"first": int64(70)})
			assert.Equal(t, 71, small, "%s.%s(first: 7) with items of cost 10", def.Name, f.Name)
			assert.Equal(t, 701, large, "%s.%s(first: 70) with items of cost 10", def.Name, f.Name)
		}
	}
	assert.GreaterOrEqual(t, fields, 7, "the schema's connection fields")
}
