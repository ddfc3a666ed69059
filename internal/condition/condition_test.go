package condition

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	for _, ok := range []string{`visitor.claims.isBetaUser`, `visitor.claims.plan == "enterprise"`,
		`visitor.claims.age > 18 && "eu" in visitor.claims.regions`} {
		assert.NoError(t, Check(ok), ok)
	}
	err := Check(`visitor.claims.plan == `)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 1, column")
	err = Check("visitor.claims.a &&\n  (visitor.claims.b")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 2")
	assert.Error(t, Check(`1 + 2`), "not a boolean")
	assert.ErrorContains(t, Check(`user.plan == "x"`), "unknown name user")
	assert.Error(t, Check(""), "empty")
	long := "visitor.claims.a == \"" + strings.Repeat("a", 1024-22) + "\""
	require.Len(t, long, 1024)
	assert.NoError(t, Check(long), "1024 characters")
	assert.Error(t, Check(long+" "), "1025 characters")
}

func TestEval(t *testing.T) {
	claims := map[string]any{"isBetaUser": true, "plan": "enterprise"}
	assert.True(t, Eval(`visitor.claims.isBetaUser`, claims))
	assert.True(t, Eval(`visitor.claims.plan == "enterprise"`, claims))
	assert.False(t, Eval(`visitor.claims.plan == "free"`, claims))
	assert.False(t, Eval(`visitor.claims.isBetaUser`, nil), "a missing claim does not hold")
	assert.False(t, Eval(`visitor.claims.n > 3`, claims), "a failing comparison does not hold")
}
