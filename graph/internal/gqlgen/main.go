// Command gqlgen runs gqlgen's code generator as `gqlgen generate` does,
// with gqlgen.yml, keeps its output as it is for builds with the
// bindery_norewrite tag (generated_norewrite.go), and then makes these
// rewrites in the generated code, named as -without takes them:
//   - slices: lists of objects are marshalled with gqlexec.MarshalSlice
//     instead of graphql.MarshalSliceConcurrently (see package
//     graph/gqlexec for why);
//   - direct: fields read straight from their object's struct are
//     marshalled without graphql.ResolveField when the operation has no
//     field middleware that needs them (see direct.go);
//   - defer-path: an object computes its path for deferred fragments
//     (@defer) only when it has some: graphql.GetPath walks the field
//     contexts up to the root and allocates the path, for every object of
//     every response, and ProcessDeferredGroup returns at once without
//     deferred fragments;
//   - unmarshalers: no map of the input unmarshallers is built for each
//     operation (see unmarshalers.go);
//   - defer-sets: an object makes the field set and the map of its
//     deferred fragments when its first deferred field needs them, not
//     always: two allocations for each object, and almost no operation
//     defers anything;
//   - object: an object's answer is a gqlexec.Answer, which holds its
//     field set and writes it, not gqlgen's field set (see there for why);
//   - later: an object's fields with resolvers are queued on its Answer
//     and dispatched by it, not by its field set, in the objects that
//     queue them all the same way (the root query's go through its root
//     field middleware and keep gqlgen's code);
//   - collect: an object's fields are collected through
//     gqlexec.CollectFields, which remembers them for the other elements
//     of its list (see graph/gqlexec/collect.go);
//   - typename: __typename is answered with a constant gqlexec.TypeName,
//     which takes no allocation;
//   - resolve: a field of an object resolves through
//     gqlexec.ResolveField, with functions that capture nothing, rather
//     than graphql.ResolveField with closures (see resolve.go).
//   - resolvers: the resolver root's resolver of each type is asked for
//     once, when the schema is made, not for every field that runs one
//     (see resolvers.go).
//   - buffers: a query's and a mutation's answer are written into a
//     buffer from gqlexec.ResponseBuffer, pooled when the transport lends
//     them (see graph/gqlexec/buffer.go).
//
// gqlgen has no option or plugin hook for either: its exec template writes
// that code. Each rewrite fails loudly when the generated code stops having
// the shape it expects, and generation fails when gqlgen is not the
// version they were verified against (verifiedGQLGen); drop them when
// gqlgen does the same itself.
//
// -rewrite-only rewrites the kept output again without running gqlgen,
// and -without leaves out some rewrites: with both, the variants of an A/B
// measurement are made in seconds (docs/architecture.md, "Rewrites of
// generated code").
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
	"golang.org/x/tools/imports"
)

// verifiedGQLGen is the gqlgen the rewrites were verified against: their
// patterns match its output, the A/B measurement showed each one paying,
// and the middleware test (graph/internal/gqlgen/testschema) passed.
const verifiedGQLGen = "v0.17.95"

// verifiedEnt is the ent that the rewrite of its row reading
// (ent/template/scan.tmpl, reusedValues) was verified against: it hooks
// into the query template and relies on how sqlgraph scans rows.
const verifiedEnt = "v0.14.5"

// norewriteTag is the build tag under which gqlgen's output is used as it
// is, and the server answers POST requests with gqlgen's transport.
const norewriteTag = "bindery_norewrite"

const (
	concurrent = "graphql.MarshalSliceConcurrently("
	sequential = "gqlexec.MarshalSlice("

	deferredGroup = `	atomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))

	ec.ProcessDeferredGroup(graphql.DeferredGroup{
		Defers:   deferLabelToView,
		Path:     graphql.GetPath(ctx),
		FieldSet: deferredFieldSet,
		Context:  ctx,
	})
`
	newFieldSet      = "out := graphql.NewFieldSet(fields)"
	newAnswer        = "answer := gqlexec.NewObject(fields)\n\tout := answer.FieldSet()"
	fieldSet         = "\n\treturn out\n}\n"
	objectAnswerCode = "\n\treturn answer\n}\n"

	concurrently = "out.Concurrently("
	laterField   = "out.Concurrently(i, func(ctx context.Context) graphql.Marshaler { return innerFunc(ctx, out) })"
	laterAnswer  = "answer.Later(i, innerFunc)"
	dispatch     = "\tout.Dispatch(ctx)\n"
	dispatchLate = "\tanswer.Dispatch(ctx)\n"

	collectFields     = "fields := graphql.CollectFields(ec.OperationContext, sel, "
	collectFieldsList = "fields := gqlexec.CollectFields(ctx, ec.OperationContext, sel, "

	deferredSets     = "\tdeferredFieldSet := graphql.NewFieldSet(nil)\n\tdeferLabelToView := make(map[string]*graphql.FieldSetView)\n"
	deferredSetsLazy = "\tvar deferredFieldSet *graphql.FieldSet // made for the first deferred field\n\tvar deferLabelToView map[string]*graphql.FieldSetView\n"
	deferredField    = "\t\t\tif field.IsDeferred() {\n\t\t\t\tdeferredFieldSet.AddField(field)\n"
	deferredFieldNew = "\t\t\tif field.IsDeferred() {\n\t\t\t\tif deferredFieldSet == nil {\n" +
		"\t\t\t\t\tdeferredFieldSet, deferLabelToView = graphql.NewFieldSet(nil), map[string]*graphql.FieldSetView{}\n" +
		"\t\t\t\t}\n\t\t\t\tdeferredFieldSet.AddField(field)\n"

	deferredRun = "deferredFieldSet.Concurrently(fieldIndex, func(ctx context.Context) graphql.Marshaler {\n" +
		"\t\t\t\t\treturn innerFunc(ctx, deferredFieldSet)\n"
	deferredRunCopy = "deferredSet := deferredFieldSet // captured, the variable itself would live on the heap in every object\n" +
		"\t\t\t\tdeferredSet.Concurrently(fieldIndex, func(ctx context.Context) graphql.Marshaler {\n" +
		"\t\t\t\t\treturn innerFunc(ctx, deferredSet)\n"

	deferredGroupIfAny = `	if len(deferLabelToView) > 0 {
		atomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))
		ec.ProcessDeferredGroup(graphql.DeferredGroup{
			Defers:   deferLabelToView,
			Path:     graphql.GetPath(ctx),
			FieldSet: deferredFieldSet,
			Context:  ctx,
		})
	}
`
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gqlgen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gqlgen", flag.ContinueOnError)
	rewriteOnly := fs.Bool("rewrite-only", false, "rewrite the kept output of gqlgen again, without running gqlgen")
	without := fs.String("without", "", "comma-separated rewrites to leave out (for an A/B measurement)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	skip := map[string]bool{}
	for _, name := range strings.Split(*without, ",") {
		if name == "" {
			continue
		}
		if !known(name) {
			return fmt.Errorf("-without: no rewrite is named %q", name)
		}
		skip[name] = true
	}
	if err := checkVersion(); err != nil {
		return err
	}
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		return err
	}
	path := cfg.Exec.Filename
	plainPath := filepath.Join(filepath.Dir(path), "generated_norewrite.go")
	if *rewriteOnly {
		src, err := os.ReadFile(plainPath)
		if err != nil {
			return err
		}
		return rewriteFile(path, bytes.Replace(src, []byte(buildLine(norewriteTag)), nil, 1), skip)
	}
	// gqlgen logs every binding it weighed on every run (a field that gets
	// a resolver because no Go field matches, a type it cannot bind to):
	// notes, not problems. They are shown only when generation fails.
	var notes bytes.Buffer
	log.SetOutput(&notes)
	err = api.Generate(cfg)
	log.SetOutput(os.Stderr)
	if err != nil {
		_, _ = os.Stderr.Write(notes.Bytes())
		return err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := os.WriteFile(plainPath, append([]byte(buildLine(norewriteTag)), src...), 0o644); err != nil {
		return err
	}
	return rewriteFile(path, src, skip)
}

// buildLine is the build constraint that opens a file built only with tag.
func buildLine(tag string) string { return "//go:build " + tag + "\n\n" }

// checkVersion fails when the gqlgen this command was built with is not
// the one the rewrites were verified against.
func checkVersion() error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("no build information to read gqlgen's version from")
	}
	for _, m := range info.Deps {
		if m.Path != "github.com/99designs/gqlgen" {
			continue
		}
		if m.Replace != nil {
			m = m.Replace
		}
		if m.Version != verifiedGQLGen {
			return stale("gqlgen", m.Version, verifiedGQLGen, "verifiedGQLGen")
		}
		return checkEnt()
	}
	return fmt.Errorf("gqlgen is not among the modules of this command's build")
}

// checkEnt fails when the go.mod of the module being generated requires
// another ent than the one the rewrite of its row reading was verified
// against. This command does not link ent, so its build information does
// not name it.
func checkEnt() error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(mod), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && f[0] == "entgo.io/ent" {
					if f[1] != verifiedEnt {
						return stale("ent", f[1], verifiedEnt, "verifiedEnt")
					}
					return nil
				}
			}
			return fmt.Errorf("%s requires no entgo.io/ent", filepath.Join(dir, "go.mod"))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// stale is the error of a generator whose version differs from the one
// the rewrites were verified against.
func stale(module, version, verified, constant string) error {
	return fmt.Errorf("%s is %s, but the rewrites of generated code were verified against %s: re-verify them "+
		"(the A/B measurement of docs/architecture.md, \"Rewrites of generated code\", and "+
		"go test ./graph/internal/gqlgen/... with and without -tags %s), then set %s in "+
		"graph/internal/gqlgen/main.go to %s", module, version, verified, norewriteTag, constant, version)
}

// rewriteFile writes to path gqlgen's output src with the rewrites of the
// package comment but those of skip, built without norewriteTag.
func rewriteFile(path string, src []byte, skip map[string]bool) error {
	for _, r := range rewrites {
		if skip[r.name] {
			continue
		}
		var err error
		if src, err = r.apply(src); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	src = bytes.Replace(src, []byte("import (\n"), []byte("import (\n\t\"github.com/bindery/bindery/graph/gqlexec\"\n"), 1)
	out, err := imports.Process(path, append([]byte(buildLine("!"+norewriteTag)), src...), nil)
	if err != nil {
		return fmt.Errorf("formatting %s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

func known(name string) bool {
	for _, r := range rewrites {
		if r.name == name {
			return true
		}
	}
	return false
}

// rewrites are the rewrites of the package comment, in the order they are
// made.
var rewrites = []struct {
	name  string
	apply func([]byte) ([]byte, error)
}{
	{"slices", marshalSlices},
	{"defer-path", deferPathIfAny},
	{"defer-sets", lazyDeferSets},
	{"object", objectAnswer},
	{"later", laterFields},
	{"collect", collectRemembered},
	{"typename", typeNames},
	{"direct", func(src []byte) ([]byte, error) { out, _, err := direct(src); return out, err }},
	{"resolve", resolveWithoutClosures},
	{"unmarshalers", dropUnmarshalerMap},
	{"resolvers", cacheResolvers},
	{"buffers", lentBuffers},
}

// answerBuffer is how a query's and a mutation's answer are written.
const (
	answerBuffer     = "\t\t\tvar buf bytes.Buffer\n\t\t\tdata.MarshalGQL(&buf)\n"
	lentAnswerBuffer = "\t\t\tbuf := gqlexec.ResponseBuffer(ctx)\n\t\t\tdata.MarshalGQL(buf)\n"
)

// lentBuffers is the rewrite "buffers".
func lentBuffers(src []byte) ([]byte, error) {
	// A query's answer, and a mutation's when the schema has mutations.
	if n := bytes.Count(src, []byte(answerBuffer)); n == 0 || n > 2 {
		return nil, fmt.Errorf("%d answers of a query or a mutation are written as expected: gqlgen changed its Exec; "+
			"see graph/gqlexec/buffer.go", n)
	}
	return bytes.ReplaceAll(src, []byte(answerBuffer), []byte(lentAnswerBuffer)), nil
}

// marshalSlices is the rewrite "slices".
func marshalSlices(src []byte) ([]byte, error) {
	if bytes.Count(src, []byte(concurrent)) == 0 {
		return nil, fmt.Errorf("it calls no %s: gqlgen changed how it marshals lists; see graph/gqlexec", concurrent)
	}
	return bytes.ReplaceAll(src, []byte(concurrent), []byte(sequential)), nil
}

// deferPathIfAny is the rewrite "defer-path".
func deferPathIfAny(src []byte) ([]byte, error) {
	groups, calls := bytes.Count(src, []byte(deferredGroup)), bytes.Count(src, []byte("ec.ProcessDeferredGroup("))
	if groups == 0 || groups != calls {
		return nil, fmt.Errorf("%d of its %d calls of ProcessDeferredGroup have the expected form: gqlgen changed how objects "+
			"start deferred fragments; see graph/internal/gqlgen", groups, calls)
	}
	return bytes.ReplaceAll(src, []byte(deferredGroup), []byte(deferredGroupIfAny)), nil
}

// objectAnswer is the rewrite "object".
func objectAnswer(src []byte) ([]byte, error) {
	sets, answers := bytes.Count(src, []byte(newFieldSet)), bytes.Count(src, []byte(fieldSet))
	if sets == 0 || sets != answers {
		return nil, fmt.Errorf("%d of its %d objects answer their field set as expected: gqlgen changed how objects "+
			"answer; see graph/gqlexec/object.go", answers, sets)
	}
	src = bytes.ReplaceAll(src, []byte(newFieldSet), []byte(newAnswer))
	return bytes.ReplaceAll(src, []byte(fieldSet), []byte(objectAnswerCode)), nil
}

// laterFields is the rewrite "later". It works a function at a time: an
// object whose field set queued a field any other way and dispatched it
// through the Answer would never resolve that field.
func laterFields(src []byte) ([]byte, error) {
	funcs := bytes.SplitAfter(src, []byte("\n}\n"))
	rewritten := 0
	for i, fn := range funcs {
		if !bytes.Contains(fn, []byte(newAnswer)) || bytes.Count(fn, []byte(dispatch)) != 1 {
			continue
		}
		// The comment "don't run the out.Concurrently() call below" is not
		// a call.
		calls := bytes.Count(fn, []byte(concurrently+"i, "))
		if calls != bytes.Count(fn, []byte(laterField)) {
			continue
		}
		fn = bytes.ReplaceAll(fn, []byte(laterField), []byte(laterAnswer))
		funcs[i] = bytes.Replace(fn, []byte(dispatch), []byte(dispatchLate), 1)
		rewritten++
	}
	if rewritten == 0 {
		return nil, fmt.Errorf("no object queues its fields as expected: gqlgen changed how objects resolve fields " +
			"with resolvers; see graph/gqlexec/object.go")
	}
	return bytes.Join(funcs, nil), nil
}

// collectRemembered is the rewrite "collect".
func collectRemembered(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(collectFields)); n == 0 || n != bytes.Count(src, []byte("graphql.CollectFields(")) {
		return nil, fmt.Errorf("%d of its calls of CollectFields have the expected form: gqlgen changed how objects "+
			"collect their fields; see graph/gqlexec/collect.go", n)
	}
	return bytes.ReplaceAll(src, []byte(collectFields), []byte(collectFieldsList)), nil
}

// typeNameField is how gqlgen answers an object's __typename.
var typeNameField = regexp.MustCompile(`(case "__typename":\n\t+out\.Values\[i\] = )graphql\.MarshalString\(("[_A-Za-z][_0-9A-Za-z]*")\)`)

// typeNames is the rewrite "typename".
func typeNames(src []byte) ([]byte, error) {
	n := len(typeNameField.FindAllIndex(src, -1))
	if n == 0 || n != bytes.Count(src, []byte(`case "__typename":`)) {
		return nil, fmt.Errorf("%d of its answers to __typename have the expected form: gqlgen changed how objects "+
			"answer it; see graph/gqlexec/object.go", n)
	}
	return typeNameField.ReplaceAll(src, []byte("${1}gqlexec.TypeName(${2})")), nil
}

// lazyDeferSets is the rewrite "defer-sets".
func lazyDeferSets(src []byte) ([]byte, error) {
	if sets, n := bytes.Count(src, []byte(newFieldSet)), bytes.Count(src, []byte(deferredSets)); n == 0 || n != sets {
		return nil, fmt.Errorf("%d of its %d objects make their deferred field set as expected: gqlgen changed how objects "+
			"defer fields; see graph/internal/gqlgen", n, sets)
	}
	deferred, adds := bytes.Count(src, []byte(deferredField)), bytes.Count(src, []byte("deferredFieldSet.AddField("))
	if deferred != adds {
		return nil, fmt.Errorf("%d deferred fields of the expected form of %d: gqlgen changed how objects defer fields; "+
			"see graph/internal/gqlgen", deferred, adds)
	}
	if runs := bytes.Count(src, []byte(deferredRun)); runs != bytes.Count(src, []byte("deferredFieldSet.Concurrently(")) {
		return nil, fmt.Errorf("%d deferred fields run in the expected form: gqlgen changed how objects defer fields; "+
			"see graph/internal/gqlgen", runs)
	}
	src = bytes.ReplaceAll(src, []byte(deferredSets), []byte(deferredSetsLazy))
	// The set is made lazily, so the variable is assigned after the
	// closures of the deferred fields are made: they capture a copy.
	src = bytes.ReplaceAll(src, []byte(deferredRun), []byte(deferredRunCopy))
	return bytes.ReplaceAll(src, []byte(deferredField), []byte(deferredFieldNew)), nil
}
