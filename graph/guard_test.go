package graph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server/servertest"
)

// TestUnscopedReadFailsClosed holds the read guard to its promise: on the
// application's client, a query of a protected type that no policy accounts
// for fails, whatever its shape, so a resolver that forgets authorization
// fails loudly instead of leaking.
func TestUnscopedReadFailsClosed(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	app := e.DB.Client // the client the server reads through
	ctx := context.Background()
	var unscoped *store.ErrUnscopedRead

	_, err := app.Space.Query().All(ctx)
	require.True(t, errors.As(err, &unscoped), "All: %v", err)
	assert.Equal(t, "Space", unscoped.Type)
	_, err = app.Organization.Query().Count(ctx)
	assert.True(t, errors.As(err, &unscoped), "Count: %v", err)
	_, err = app.User.Query().Exist(ctx)
	assert.True(t, errors.As(err, &unscoped), "Exist: %v", err)
	_, err = app.Space.Query().Select(space.FieldTitle).Strings(ctx)
	assert.True(t, errors.As(err, &unscoped), "Select: %v", err)
	_, err = app.Organization.Get(ctx, e.Org.ID)
	assert.True(t, errors.As(err, &unscoped), "Get: %v", err)

	n, err := app.Organization.Query().Count(store.InternalRead(ctx, "the test"))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	n, err = app.Organization.Query().Count(store.ScopedRead(ctx))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	// Types no policy declares are not guarded.
	_, err = app.ContentObject.Query().Count(ctx)
	assert.NoError(t, err)
}
