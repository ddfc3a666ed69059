package server

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/validate"
)

// The stable extensions.code of each GraphQL document limit.
const (
	codeTokens    = "TOKEN_LIMIT_EXCEEDED"
	codeFields    = "FIELD_LIMIT_EXCEEDED"
	codeAliases   = "ALIAS_LIMIT_EXCEEDED"
	codeMutations = "MUTATION_LIMIT_EXCEEDED"
)

// documentLimitCodes are the codes of a document refused for its size or
// cost before it runs. Such a refusal is a GraphQL request error, like a
// validation error: 200 in application/json, 400 without data in
// application/graphql-response+json (see requestErrorWriter).
var documentLimitCodes = map[string]bool{
	codeTokens: true, codeFields: true, codeAliases: true, codeMutations: true, codeDepth: true,
	"COMPLEXITY_LIMIT_EXCEEDED": true,
}

// gqlgen answers an error raised before execution with 200 unless its code
// is registered as a protocol error, which it answers with 422, and
// requestErrorWriter then with the status the media type asks for. So are
// BAD_USER_INPUT, for the text of literals, and the document limits.
func init() {
	errcode.RegisterErrorType(apperr.InvalidArgument.Code(), errcode.KindProtocol)
	for code := range documentLimitCodes {
		errcode.RegisterErrorType(code, errcode.KindProtocol)
	}
}

// documentLimits refuses a GraphQL document that is too big to validate
// or to plan, before gqlgen validates it. gqlgen parses and validates in
// one step, and validation is where a small document costs the most, so
// this extension, which runs first, parses the document itself, with the
// token limit, and measures it:
//   - tokens, which bound the parser's work;
//   - fields as written, and aliased fields, which is how one field is
//     asked for many times;
//   - selections as reached: each operation and each fragment definition
//     with the fragments it spreads inlined, as validation walks and
//     execution plans them (see expanded);
//   - fields of one response key in one merged selection set (see
//     maxSameKey), which validation compares pairwise.
//
// Measured on this repository's schema, before these limits, validation
// alone took 9 s for `{ viewer { id id ... } }` with 8,000 `id`s, 9.6 s for
// a chain of 1,000 fragments each spreading the next, and 0.3 s for 30
// copies of `organizations { nodes { id ×30 } } }`, whose subselections
// merge into 900 `id`s; each is now refused in about a millisecond. The
// limits after validation (depth, complexity) and execution walk the same
// expansion, so bounding it bounds them too.
//
// It also checks the text of the document's string literals, as the
// transports check every other string of a request (see checkLiterals).
//
// A document in gqlgen's cache of validated documents passed all this
// before, and is not parsed again.
type documentLimits struct {
	tokens, fields, aliases int
	validated               graphql.Cache[*ast.QueryDocument]
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentLimits{}

func (documentLimits) ExtensionName() string                   { return "DocumentLimits" }
func (documentLimits) Validate(graphql.ExecutableSchema) error { return nil }

func (l documentLimits) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if _, ok := l.validated.Get(ctx, p.Query); ok {
		return nil
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, l.tokens)
	if err != nil {
		if gerr, ok := err.(*gqlerror.Error); ok && gerr.Message == fmt.Sprintf("exceeded token limit of %d", l.tokens) {
			return limitError(codeTokens, fmt.Sprintf("The document has more than %d tokens", l.tokens), l.tokens)
		}
		// gqlgen parses it again and reports the syntax error.
		return nil
	}
	if gerr := l.measure(doc); gerr != nil {
		return gerr
	}
	if err := checkLiterals(p.Query, doc); err != nil {
		return appGraphQLError(err)
	}
	return nil
}

// expandFactor scales the field limit into the limit of selections as
// reached through fragments.
const expandFactor = 10

// maxSameKey bounds how many fields of one selection set share a response
// key, once fragments are inlined and the selection sets of fields that
// share a key are merged, as validation and execution merge them. A client
// that spreads many fragments of one type, each with `id` and `__typename`
// as Apollo and Relay write them, stays far below it.
const maxSameKey = 50

func (l documentLimits) measure(doc *ast.QueryDocument) *gqlerror.Error {
	var w written
	roots := make([]ast.SelectionSet, 0, len(doc.Operations)+len(doc.Fragments))
	for _, op := range doc.Operations {
		roots = append(roots, op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		roots = append(roots, f.SelectionSet)
	}
	for _, set := range roots {
		w.count(set)
	}
	reachLimit := expandFactor * l.fields
	switch {
	case w.fields > l.fields:
		return limitError(codeFields, fmt.Sprintf("The document has %d fields; the limit is %d", w.fields, l.fields), l.fields)
	case w.aliases > l.aliases:
		return limitError(codeAliases, fmt.Sprintf("The document has %d aliased fields; the limit is %d", w.aliases, l.aliases), l.aliases)
	case expanded(doc, roots, reachLimit) > reachLimit:
		return limitError(codeFields, fmt.Sprintf("The document reaches more than %d selections through its fragments", reachLimit), reachLimit)
	}
	// The expansion is bounded now, and so is the work of merging.
	for _, set := range roots {
		if key := repeatedKey(doc, []ast.SelectionSet{set}); key != "" {
			return limitError(codeFields, fmt.Sprintf(
				"The document asks for %q more than %d times in one selection set, counting fragments and merged fields", key, maxSameKey),
				maxSameKey)
		}
	}
	return nil
}

func limitError(code, msg string, limit int) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": code, "limit": limit}}
}

// written counts the fields and aliases a document writes.
type written struct{ fields, aliases int }

func (w *written) count(set ast.SelectionSet) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			w.fields++
			if s.Alias != s.Name {
				w.aliases++
			}
			w.count(s.SelectionSet)
		case *ast.InlineFragment:
			w.count(s.SelectionSet)
		}
	}
}

// expanded returns the number of selections (fields, fragment spreads and
// inline fragments) of the roots once every fragment spread is followed by
// its fragment's selections, or a number past limit once it passes it.
// That is what validation walks, and execution plans: a chain of 1,000
// fragments, each only spreading the next, took 9.6 s, as every fragment
// definition is walked with the whole chain below it. A fragment's size is computed once, and sizes stop growing
// past the limit, so that fragments spreading fragments twice at each level
// cannot overflow it: the count costs one pass over the document. A
// fragment cycle, which validation refuses, counts as empty.
func expanded(doc *ast.QueryDocument, roots []ast.SelectionSet, limit int) int {
	sizes := map[string]int{}
	var size func(set ast.SelectionSet) int
	size = func(set ast.SelectionSet) int {
		n := 0
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				n += 1 + size(s.SelectionSet)
			case *ast.InlineFragment:
				n += 1 + size(s.SelectionSet)
			case *ast.FragmentSpread:
				n++
				fs, ok := sizes[s.Name]
				if !ok {
					sizes[s.Name] = 0 // a cycle meets 0
					if f := doc.Fragments.ForName(s.Name); f != nil {
						fs = size(f.SelectionSet)
					}
					sizes[s.Name] = fs
				}
				n += fs
			}
			n = min(n, limit+1)
		}
		return n
	}
	total := 0
	for _, set := range roots {
		total = min(total+size(set), limit+1)
	}
	return total
}

// repeatedKey returns a response key that one selection set asks for more
// than maxSameKey times, or "". The sets are merged, as the selection sets
// of fields that share a response key are: `organizations { a }` and
// `organizations { b }` make one `organizations { a b }`. Its work is
// bounded by the expanded size of the document.
func repeatedKey(doc *ast.QueryDocument, sets []ast.SelectionSet) string {
	counts := map[string]int{}
	subsets := map[string][]ast.SelectionSet{}
	var keys []string
	var gather func(set ast.SelectionSet, spreading map[string]bool)
	gather = func(set ast.SelectionSet, spreading map[string]bool) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if counts[s.Alias] == 0 {
					keys = append(keys, s.Alias)
				}
				counts[s.Alias]++
				if len(s.SelectionSet) > 0 {
					subsets[s.Alias] = append(subsets[s.Alias], s.SelectionSet)
				}
			case *ast.InlineFragment:
				gather(s.SelectionSet, spreading)
			case *ast.FragmentSpread:
				if f := doc.Fragments.ForName(s.Name); f != nil && !spreading[s.Name] {
					spreading[s.Name] = true
					gather(f.SelectionSet, spreading)
					delete(spreading, s.Name)
				}
			}
		}
	}
	for _, set := range sets {
		gather(set, map[string]bool{})
	}
	for _, k := range keys {
		if counts[k] > maxSameKey {
			return k
		}
	}
	for _, k := range keys {
		if subs := subsets[k]; len(subs) > 0 {
			if key := repeatedKey(doc, subs); key != "" {
				return key
			}
		}
	}
	return ""
}

// checkLiterals checks the text of every string literal of the document:
// arguments of fields and directives, and default values of variables.
// Variables are JSON and checked with the request body (see
// checkGraphQLParams). The GraphQL lexer decodes "\u0000" to NUL, and
// writes U+FFFD for an escaped surrogate, even for the two halves of a
// valid pair, so those are refused too, as written: the source of each
// such literal is found with a second pass of the lexer, only for documents
// that hold an escape at all.
func checkLiterals(src string, doc *ast.QueryDocument) error {
	w := literalWalk{surrogates: surrogateLiterals(src)}
	for _, op := range doc.Operations {
		for _, v := range op.VariableDefinitions {
			if err := w.value(v.DefaultValue, "$"+v.Variable); err != nil {
				return err
			}
		}
		if err := w.directives(op.Directives, ""); err != nil {
			return err
		}
		if err := w.selections(op.SelectionSet, ""); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		if err := w.directives(f.Directives, ""); err != nil {
			return err
		}
		if err := w.selections(f.SelectionSet, ""); err != nil {
			return err
		}
	}
	return nil
}

type literalWalk struct {
	// surrogates holds the start, in runes, of each string literal that
	// escapes a surrogate.
	surrogates map[int]bool
}

func (w literalWalk) selections(set ast.SelectionSet, path string) error {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			p := join(path, s.Name)
			for _, a := range s.Arguments {
				if err := w.value(a.Value, p+"."+a.Name); err != nil {
					return err
				}
			}
			if err := w.directives(s.Directives, p); err != nil {
				return err
			}
			if err := w.selections(s.SelectionSet, p); err != nil {
				return err
			}
		case *ast.InlineFragment:
			if err := w.directives(s.Directives, path); err != nil {
				return err
			}
			if err := w.selections(s.SelectionSet, path); err != nil {
				return err
			}
		case *ast.FragmentSpread:
			if err := w.directives(s.Directives, path); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w literalWalk) directives(ds ast.DirectiveList, path string) error {
	for _, d := range ds {
		for _, a := range d.Arguments {
			if err := w.value(a.Value, join(path, "@"+d.Name)+"."+a.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w literalWalk) value(v *ast.Value, path string) error {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case ast.StringValue, ast.BlockValue:
		if err := validate.Text(v.Raw); err != nil {
			return apperr.Invalid(path, "%s", err.Error())
		}
		if v.Position != nil && w.surrogates[v.Position.Start] {
			return apperr.Invalid(path, "%s", validate.ErrSurrogate.Error())
		}
	case ast.ListValue:
		for i, c := range v.Children {
			if err := w.value(c.Value, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case ast.ObjectValue:
		for _, c := range v.Children {
			if err := w.value(c.Value, path+"."+c.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// surrogateLiterals lexes src again and returns the start, in runes, of each
// string literal whose source escapes a surrogate; nil when src holds no
// escape at all. Token positions count runes, so the byte offset is carried
// along as the tokens come, in order.
func surrogateLiterals(src string) map[int]bool {
	if !strings.Contains(src, `\u`) {
		return nil
	}
	found := map[int]bool{}
	lx := lexer.New(&ast.Source{Input: src})
	bytePos, runePos := 0, 0
	seek := func(r int) {
		for runePos < r && bytePos < len(src) {
			_, w := utf8.DecodeRuneInString(src[bytePos:])
			bytePos += w
			runePos++
		}
	}
	for {
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			return found
		}
		if tok.Kind != lexer.String {
			continue
		}
		seek(tok.Pos.Start)
		start := bytePos
		seek(tok.Pos.End)
		if validate.EscapesSurrogate(src[start:bytePos]) {
			found[tok.Pos.Start] = true
		}
	}
}

// mutationLimit refuses an operation with more root mutation fields than
// max, before any runs. Root mutation fields run one after the other, each
// in its own transaction, so their number is the number of transactions a
// request holds the database for; a client with more to do sends more
// requests, which the rate limit sees.
type mutationLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = mutationLimit{}

func (mutationLimit) ExtensionName() string                   { return "MutationLimit" }
func (mutationLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (m mutationLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || oc.Operation.Operation != ast.Mutation {
		return nil
	}
	if n := len(rootFields(oc)); n > m.max {
		return limitError(codeMutations, fmt.Sprintf("The operation has %d mutations; the limit is %d per request", n, m.max), m.max)
	}
	return nil
}

// rootFields returns the names of the root fields the operation selects,
// through fragments, one per response key; __typename is not counted.
func rootFields(oc *graphql.OperationContext) []string {
	keys := map[string]string{}
	var collect func(set ast.SelectionSet, visiting map[string]bool)
	collect = func(set ast.SelectionSet, visiting map[string]bool) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if s.Name != "__typename" {
					keys[s.Alias] = s.Name
				}
			case *ast.InlineFragment:
				collect(s.SelectionSet, visiting)
			case *ast.FragmentSpread:
				if f := oc.Doc.Fragments.ForName(s.Name); f != nil && !visiting[s.Name] {
					visiting[s.Name] = true
					collect(f.SelectionSet, visiting)
				}
			}
		}
	}
	collect(oc.Operation.SelectionSet, map[string]bool{})
	names := make([]string, 0, len(keys))
	for _, name := range keys {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
