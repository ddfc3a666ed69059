// Package condition parses and evaluates the conditions of site sections and
// site-spaces: expressions over a visitor's claims, such as
// visitor.claims.isBetaUser or visitor.claims.plan == "enterprise". The
// expression language is github.com/expr-lang/expr's; a condition is
// compiled when it is saved, so a syntax error is the saver's 400 and never
// a reader's.
package condition

import (
	"errors"
	"fmt"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/bindery/bindery/internal/lru"
	"github.com/bindery/bindery/internal/validate"
)

// env is what a condition sees: the visitor and their claims. Claims are
// free-form (the adaptive schema describes them), so any member of
// visitor.claims compiles.
func env(claims map[string]any) map[string]any {
	if claims == nil {
		claims = map[string]any{}
	}
	return map[string]any{"visitor": map[string]any{"claims": claims}}
}

// compile compiles a condition to a program that returns a boolean.
func compile(s string) (*vm.Program, error) {
	if err := validate.Condition(s); err != nil {
		return nil, err
	}
	p, err := expr.Compile(s, expr.Env(env(nil)), expr.AsBool())
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("is not a valid expression: %s at line %d, column %d", fe.Message, fe.Line, fe.Column+1)
		}
		return nil, fmt.Errorf("is not a valid expression: %v", err)
	}
	return p, nil
}

// programs memoizes compile: a condition's text is all its program
// depends on, so the conditions of a site compile once, not at every
// request that reads the site.
var programs = lru.New[*vm.Program](4096, 1)

// Check checks that s is a condition: 1 to 1024 characters of an expression
// that evaluates to a boolean. Its error names the position of a syntax
// error.
func Check(s string) error {
	_, err := compile(s)
	return err
}

// Eval reports whether a condition holds for a visitor with the claims. A
// condition that fails at run time (a comparison of a missing claim, say)
// does not hold.
func Eval(s string, claims map[string]any) bool {
	p, ok := programs.Get(s)
	if !ok {
		var err error
		if p, err = compile(s); err != nil {
			return false
		}
		programs.Put(s, p, 1)
	}
	out, err := expr.Run(p, env(claims))
	if err != nil {
		return false
	}
	b, _ := out.(bool)
	return b
}
