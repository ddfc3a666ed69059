package main

import (
	"bytes"
	"fmt"
	"regexp"
)

// gqlgen's Exec builds, for every operation, a map from each input type to
// its unmarshaller, bound to the operation's execution context, and puts it
// in the context for graphql.UnmarshalInputFromContext: a custom scalar or
// input that unmarshals a nested input object by hand. Nothing in Bindery
// calls that function (TestNoUnmarshalInputFromContext holds it so), and
// the map of the schema's 120-odd inputs was 7% of the CPU of a GraphQL
// point read. dropUnmarshalerMap removes the map and the two places that
// put it in the context.

var (
	buildUnmarshalerMap = regexp.MustCompile(`(?s)\n\tinputUnmarshalMap := graphql\.BuildUnmarshalerMap\(\n.*?\n\t\)\n`)
	withUnmarshalerMap  = regexp.MustCompile(`\n\t+ctx = graphql\.WithUnmarshalerMap\(ctx, inputUnmarshalMap\)\n`)
)

func dropUnmarshalerMap(src []byte) ([]byte, error) {
	if n := len(buildUnmarshalerMap.FindAllIndex(src, -1)); n != 1 {
		return nil, fmt.Errorf("%d builds of the input unmarshaller map where 1 was expected: gqlgen changed its Exec; see graph/internal/gqlgen/unmarshalers.go", n)
	}
	src = buildUnmarshalerMap.ReplaceAll(src, []byte("\n"))
	if len(withUnmarshalerMap.FindAllIndex(src, -1)) == 0 {
		return nil, fmt.Errorf("the input unmarshaller map is not put in the context: gqlgen changed its Exec; see graph/internal/gqlgen/unmarshalers.go")
	}
	src = withUnmarshalerMap.ReplaceAll(src, []byte("\n"))
	if bytes.Contains(src, []byte("inputUnmarshalMap")) {
		return nil, fmt.Errorf("the input unmarshaller map has a use left: gqlgen changed its Exec; see graph/internal/gqlgen/unmarshalers.go")
	}
	return src, nil
}
