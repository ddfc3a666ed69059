package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layer is a level of the dependency rule: a package may import packages of
// its own layer or a lower one.
type layer int

const (
	// outside is for tools and test-only packages, which are no part of
	// the server: they may import anything, and nothing layered may
	// import them.
	outside   layer = iota
	base            // internal/... and ent/...
	app             // graph
	transport       // rest, reader, signin
	wiring          // server
	command         // cmd/bindery
)

func (l layer) String() string {
	return [...]string{"outside the layers", "internal/ent", "graph", "rest", "server", "cmd"}[l]
}

// placement places every package of the module, by its path in the module
// ("." is the module's root). An entry ending in "/..." places the
// packages below it that no exact entry places.
var placement = map[string]layer{
	// go:generate's entry point: a package comment and directives.
	".": outside,

	"cmd/bindery":      command,
	"cmd/benchload":    outside, // the load benchmark: runs bin/bindery
	"cmd/newmigration": outside, // writes migration files at development time
	"cmd/testidp":      outside, // a SAML identity provider to try sign-in with
	"cmd/testgit":      outside, // a Git server to try Git sync with

	"server":            wiring,
	"server/playground": wiring,
	"server/servertest": wiring, // the whole server in-process, for tests

	"rest":                     transport,
	"reader":                   transport, // published sites, as HTML
	"app":                      transport, // the app's read-only views, as HTML
	"signin":                   transport, // sign-in pages and providers' callbacks
	"ui":                       transport, // what the server's own HTML pages share
	"rest/internal/openapigen": outside,   // generator of rest/openapi.json

	"graph":                 app,
	"graph/generated":       app,
	"graph/gqlexec":         app,
	"graph/model":           app,
	"graph/internal/gqlgen": outside, // runs gqlgen
	// A small schema run through the same generation and rewrites, for
	// the test that field middleware and directives still run.
	"graph/internal/gqlgen/testschema":      outside,
	"graph/internal/gqlgen/testschema/exec": outside,
	"graph/model/internal/gen":              outside, // generator of the connection types

	// ent writes one package per type; its output and the schema are the
	// bottom together with internal/.
	"ent/...": base,

	"internal/adaptive":             base,
	"internal/apperr":               base,
	"internal/auth":                 base,
	"internal/authz":                base,
	"internal/clock":                base,
	"internal/condition":            base,
	"internal/config":               base,
	"internal/content":              base,
	"internal/content/contenttest":  base,
	"internal/doclinks":             outside, // a test of the docs' links
	"internal/document":             base,
	"internal/enum":                 base,
	"internal/enum/internal/gen":    outside, // generator of the enumerations
	"internal/enum/internal/naming": base,
	"internal/events":               base,
	"internal/filehttp":             base,
	"internal/gitbook":              base,
	"internal/gitsync":              base,
	"internal/gitsync/gitsynctest":  outside, // a Git server for tests
	"internal/id":                   base,
	"internal/importer":             base,
	"internal/integration":          base,
	"internal/layers":               outside, // this test
	"internal/lease":                base,
	"internal/links":                base,
	"internal/mdtext":               base,
	"internal/logctx":               base,
	"internal/lru":                  base,
	"internal/mail":                 base,
	"internal/merge":                base,
	"internal/openapi":              base,
	"internal/openapi/openapitest":  base,
	"internal/openapi/worker":       base,
	"internal/page":                 base,
	"internal/position":             base,
	"internal/pdf":                  base,
	"internal/purge":                base,
	"internal/querycost":            base,
	"internal/render":               base,
	"internal/search":               base,
	"internal/secrets":              base,
	"internal/secrets/rekey":        base,
	"internal/signedurl":            base,
	"internal/sitecustom":           base,
	"internal/sitestruct":           base,
	"internal/sqlplan":              base,
	"internal/store":                base,
	"internal/store/migrations":     base,
	"internal/telemetry":            base,
	"internal/validate":             base,
	"internal/visitor":              base,
	"internal/webhook":              base,
	"internal/webhook/deliver":      base,

	// Tests against third-party clients; only _test.go files.
	"e2e": outside,
}

// server is the binary that must not link a code generator.
const server = "cmd/bindery"

// generators are the packages (with those below them) that generate code
// at `go generate` and have no business in the server.
var generators = []string{
	"entgo.io/ent/entc",
	"entgo.io/contrib/entgql",
	"github.com/99designs/gqlgen/codegen",
	"github.com/99designs/gqlgen/api",
	"github.com/99designs/gqlgen/plugin",
	"golang.org/x/tools/go/packages",
}

// pkg is what go list says of a package.
type pkg struct {
	ImportPath string
	Imports    []string
	Module     *struct{ Main bool }
}

func TestDependencyRule(t *testing.T) {
	mod, pkgs := listPackages(t)
	for _, v := range checkLayers(mod, pkgs, placement) {
		t.Error(v)
	}
	for _, v := range checkGenerators(mod, server, pkgs, generators) {
		t.Error(v)
	}
}

// TestViolationsAreReported runs the checks on a made-up module, so that a
// rule that stopped finding anything would fail here even while the real
// module keeps it.
func TestViolationsAreReported(t *testing.T) {
	const mod = "example.com/m"
	main := &struct{ Main bool }{true}
	pkgs := []pkg{
		{ImportPath: mod + "/cmd/bindery", Imports: []string{mod + "/server"}, Module: main},
		{ImportPath: mod + "/server", Imports: []string{mod + "/graph"}, Module: main},
		{ImportPath: mod + "/graph", Imports: []string{mod + "/rest", mod + "/ent/schema"}, Module: main},
		{ImportPath: mod + "/rest", Imports: []string{mod + "/graph", mod + "/graph/internal/gqlgen"}, Module: main},
		{ImportPath: mod + "/graph/internal/gqlgen", Imports: []string{"github.com/99designs/gqlgen/api"}, Module: main},
		{ImportPath: mod + "/ent/schema", Imports: []string{"entgo.io/contrib/entgql", "time"}, Module: main},
		{ImportPath: mod + "/internal/new", Module: main},
		{ImportPath: "entgo.io/contrib/entgql", Imports: []string{"entgo.io/ent/entc/gen"}},
		{ImportPath: "entgo.io/ent/entc/gen"},
		{ImportPath: "github.com/99designs/gqlgen/api"},
		{ImportPath: "time"},
	}
	table := map[string]layer{
		"cmd/bindery":           command,
		"server":                wiring,
		"rest":                  transport,
		"graph":                 app,
		"graph/internal/gqlgen": outside,
		"ent/...":               base,
		"internal/gone":         base,
	}
	got := append(checkLayers(mod, pkgs, table), checkGenerators(mod, "cmd/bindery", pkgs, generators)...)
	want := []string{
		"graph imports rest: graph may import only its own layer or lower (cmd → server → rest → graph → internal/ent), and rest is above it",
		"internal/gone is placed in the table of layers_test.go, but there is no such package: remove it",
		"internal/new is not placed in the table of layers_test.go: place it in its layer, or outside the layers if it is a tool",
		"rest imports graph/internal/gqlgen, which is outside the layers (a tool or test-only package): no part of the server may depend on it",
		"cmd/bindery links the code generator entgo.io/contrib/entgql: ent/schema imports it (cmd/bindery → server → graph → ent/schema → entgo.io/contrib/entgql)",
		"cmd/bindery links the code generator github.com/99designs/gqlgen/api: graph/internal/gqlgen imports it " +
			"(cmd/bindery → server → graph → rest → graph/internal/gqlgen → github.com/99designs/gqlgen/api)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// listPackages returns the module's path and the packages of the module
// with everything they depend on (test files aside), as the default build
// sees them.
func listPackages(t *testing.T) (string, []pkg) {
	t.Helper()
	gomod := strings.TrimSpace(run(t, ".", "go", "env", "GOMOD"))
	if gomod == "" || gomod == "/dev/null" {
		t.Fatal("not in a module")
	}
	dir := filepath.Dir(gomod)
	mod := strings.TrimSpace(run(t, dir, "go", "list", "-m"))
	out := run(t, dir, "go", "list", "-deps", "-json=ImportPath,Imports,Module", "./...")
	var pkgs []pkg
	for dec := json.NewDecoder(strings.NewReader(out)); ; {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return mod, pkgs
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// checkLayers returns a sentence for every package of module mod that the
// table does not place, every entry of the table that places nothing, and
// every import of a layered package that goes up or outside the layers.
func checkLayers(mod string, pkgs []pkg, table map[string]layer) []string {
	var out []string
	used := map[string]bool{}
	layerOf := map[string]layer{}
	for _, p := range pkgs {
		if p.Module == nil || !p.Module.Main {
			continue
		}
		rel := relative(mod, p.ImportPath)
		entry, ok := place(rel, table)
		if !ok {
			out = append(out, fmt.Sprintf("%s is not placed in the table of layers_test.go: "+
				"place it in its layer, or outside the layers if it is a tool", rel))
			continue
		}
		used[entry] = true
		layerOf[p.ImportPath] = table[entry]
	}
	for entry := range table {
		if !used[entry] {
			out = append(out, fmt.Sprintf("%s is placed in the table of layers_test.go, but there is no such package: remove it", entry))
		}
	}
	for _, p := range pkgs {
		from, ok := layerOf[p.ImportPath]
		if !ok || from == outside {
			continue
		}
		for _, imp := range p.Imports {
			to, ok := layerOf[imp]
			switch {
			case !ok:
			case to == outside:
				out = append(out, fmt.Sprintf("%s imports %s, which is outside the layers (a tool or test-only package): "+
					"no part of the server may depend on it", relative(mod, p.ImportPath), relative(mod, imp)))
			case to > from:
				out = append(out, fmt.Sprintf("%s imports %s: %s may import only its own layer or lower "+
					"(cmd → server → rest → graph → internal/ent), and %s is above it",
					relative(mod, p.ImportPath), relative(mod, imp), from, to))
			}
		}
	}
	slices.Sort(out)
	return out
}

// place returns the table's entry for the package at rel: its own, or the
// nearest "/..." entry above it.
func place(rel string, table map[string]layer) (string, bool) {
	if _, ok := table[rel]; ok {
		return rel, true
	}
	for dir := rel; dir != "."; dir = filepath.Dir(dir) {
		if _, ok := table[dir+"/..."]; ok {
			return dir + "/...", true
		}
	}
	return "", false
}

func relative(mod, path string) string {
	if path == mod {
		return "."
	}
	return strings.TrimPrefix(path, mod+"/")
}

// checkGenerators returns a sentence for every import by which the package
// at root (a path in module mod) comes to depend on a generator: the
// importer, the generator, and the shortest chain of imports that reaches
// it.
func checkGenerators(mod, root string, pkgs []pkg, generators []string) []string {
	root = mod + "/" + root
	imports := map[string][]string{}
	for _, p := range pkgs {
		imports[p.ImportPath] = p.Imports
	}
	isGenerator := func(path string) bool {
		return slices.ContainsFunc(generators, func(g string) bool { return path == g || strings.HasPrefix(path, g+"/") })
	}
	// Breadth first, so that each chain is a shortest one; generators are
	// not entered, so that only the imports leading into them are named.
	via := map[string]string{root: ""}
	var out []string
	for queue := []string{root}; len(queue) > 0; queue = queue[1:] {
		from := queue[0]
		for _, imp := range imports[from] {
			if isGenerator(imp) {
				chain := []string{relative(mod, imp)}
				for p := from; p != ""; p = via[p] {
					chain = append(chain, relative(mod, p))
				}
				slices.Reverse(chain)
				out = append(out, fmt.Sprintf("%s links the code generator %s: %s imports it (%s)",
					relative(mod, root), imp, relative(mod, from), strings.Join(chain, " → ")))
				continue
			}
			if _, seen := via[imp]; !seen {
				via[imp] = from
				queue = append(queue, imp)
			}
		}
	}
	slices.Sort(out)
	return out
}
