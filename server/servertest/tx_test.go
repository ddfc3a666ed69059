package servertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/store"
)

// The server's client fails a write outside a transaction, and fails the
// test with it even where the caller only logs the error. Writes in a
// transaction, marked ones and a test's fixtures pass.
func TestServerWritesNeedATransaction(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	e := New(r)
	ctx := context.Background()
	create := func(ctx context.Context, c *ent.Client, email string) error {
		return c.User.Create().SetEmail(email).SetDisplayName("Someone").Exec(ctx)
	}

	err := create(ctx, e.DB.Client, "stray@example.com")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "OpCreate of User outside a transaction")
	require.Len(t, r.failed, 1, "the test fails")
	assert.Contains(t, r.failed[0], "tx_test.go:", "the failure names the writer")

	require.NoError(t, store.WithTx(ctx, e.DB.Client, func(ctx context.Context, tx *ent.Client) error {
		return create(ctx, tx, "inside@example.com")
	}))
	require.NoError(t, create(store.OutsideTx(ctx), e.DB.Client, "marked@example.com"))
	require.NoError(t, create(ctx, e.Client, "fixture@example.com"))
	assert.Len(t, r.failed, 1)
	n, err := e.Client.User.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 4, n, "the owner and the three writes that passed")
}
