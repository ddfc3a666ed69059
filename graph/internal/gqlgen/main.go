// Command gqlgen runs gqlgen's code generator as `gqlgen generate` does,
// with gqlgen.yml, and then makes these rewrites in the generated code:
//   - lists of objects are marshalled with gqlexec.MarshalSlice instead of
//     graphql.MarshalSliceConcurrently (see package graph/gqlexec for why);
//   - fields read straight from their object's struct are marshalled
//     without graphql.ResolveField (see direct.go);
//   - an object computes its path for deferred fragments (@defer) only when
//     it has some: graphql.GetPath walks the field contexts up to the root
//     and allocates the path, for every object of every response, and
//     ProcessDeferredGroup returns at once without deferred fragments. That
//     was 9% of the CPU of a nested read of 500 change requests;
//   - no map of the input unmarshallers is built for each operation (see
//     unmarshalers.go);
//   - an object's answer is written by gqlexec.Object, not by its field
//     set (see there for why);
//   - an object makes the field set and the map of its deferred fragments
//     when its first deferred field needs them, not always: two
//     allocations for each of the thousand objects of a nested read, and
//     almost no operation defers anything.
//
// gqlgen has no option or plugin hook for either: its exec template writes
// that code. Each rewrite fails loudly when the generated code stops having
// the shape it expects, as a gqlgen upgrade might; drop them when gqlgen
// does the same itself.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
	"golang.org/x/tools/imports"
)

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
	fieldSet     = "\n\treturn out\n}\n"
	objectAnswer = "\n\treturn gqlexec.Object(fields, out)\n}\n"

	deferredSets     = "\tdeferredFieldSet := graphql.NewFieldSet(nil)\n\tdeferLabelToView := make(map[string]*graphql.FieldSetView)\n"
	deferredSetsLazy = "\tvar deferredFieldSet *graphql.FieldSet // made for the first deferred field\n\tvar deferLabelToView map[string]*graphql.FieldSetView\n"
	deferredField    = "\t\t\tif field.IsDeferred() {\n\t\t\t\tdeferredFieldSet.AddField(field)\n"
	deferredFieldNew = "\t\t\tif field.IsDeferred() {\n\t\t\t\tif deferredFieldSet == nil {\n" +
		"\t\t\t\t\tdeferredFieldSet, deferLabelToView = graphql.NewFieldSet(nil), map[string]*graphql.FieldSetView{}\n" +
		"\t\t\t\t}\n\t\t\t\tdeferredFieldSet.AddField(field)\n"

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
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gqlgen:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		return err
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
	return rewrite(cfg.Exec.Filename)
}

// rewrite makes the rewrites of the package comment in the generated file.
func rewrite(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	n := bytes.Count(src, []byte(concurrent))
	if n == 0 {
		return fmt.Errorf("%s calls no %s: gqlgen changed how it marshals lists; see graph/gqlexec", path, concurrent)
	}
	src = bytes.ReplaceAll(src, []byte(concurrent), []byte(sequential))
	groups, calls := bytes.Count(src, []byte(deferredGroup)), bytes.Count(src, []byte("ec.ProcessDeferredGroup("))
	if groups == 0 || groups != calls {
		return fmt.Errorf("%s: %d of its %d calls of ProcessDeferredGroup have the expected form: gqlgen changed how objects "+
			"start deferred fragments; see graph/internal/gqlgen", path, groups, calls)
	}
	src = bytes.ReplaceAll(src, []byte(deferredGroup), []byte(deferredGroupIfAny))
	sets, answers := bytes.Count(src, []byte("out := graphql.NewFieldSet(fields)")), bytes.Count(src, []byte(fieldSet))
	if sets == 0 || sets != answers {
		return fmt.Errorf("%s: %d of its %d objects answer their field set as expected: gqlgen changed how objects "+
			"answer; see graph/gqlexec/object.go", path, answers, sets)
	}
	src = bytes.ReplaceAll(src, []byte(fieldSet), []byte(objectAnswer))
	if n := bytes.Count(src, []byte(deferredSets)); n != sets {
		return fmt.Errorf("%s: %d of its %d objects make their deferred field set as expected: gqlgen changed how objects "+
			"defer fields; see graph/internal/gqlgen", path, n, sets)
	}
	deferred := bytes.Count(src, []byte(deferredField))
	if deferred == 0 || deferred != bytes.Count(src, []byte("deferredFieldSet.AddField(")) {
		return fmt.Errorf("%s: %d deferred fields of the expected form of %d: gqlgen changed how objects defer fields; "+
			"see graph/internal/gqlgen", path, deferred, bytes.Count(src, []byte("deferredFieldSet.AddField(")))
	}
	src = bytes.ReplaceAll(src, []byte(deferredSets), []byte(deferredSetsLazy))
	src = bytes.ReplaceAll(src, []byte(deferredField), []byte(deferredFieldNew))
	if src, _, err = direct(src); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if src, err = dropUnmarshalerMap(src); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	src = bytes.Replace(src, []byte("import (\n"), []byte("import (\n\t\"github.com/bindery/bindery/graph/gqlexec\"\n"), 1)
	out, err := imports.Process(path, src, nil)
	if err != nil {
		return fmt.Errorf("formatting %s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}
