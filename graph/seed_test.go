package graph_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/server/servertest"
)

// TestSeedCreatesDemoContent checks the first start's demo: pages with
// markdown, and an open change request with an edit.
func TestSeedCreatesDemoContent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, servertest.FreshDSN(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	cfg := config.Default()
	cfg.SigningSecret = "seed-test-signing-secret-0123456789"
	require.NoError(t, cfg.Finish())
	r := graph.New(db.Client, cfg)
	seeded, err := r.Seed(ctx, "owner@example.com", nil, func(context.Context, *ent.Client) error { return nil })
	require.NoError(t, err)
	require.NotNil(t, seeded)

	db.Client = db.NewClient() // inspect behind the application's read guard
	cr, err := db.Client.ChangeRequest.Query().Where(changerequest.StatusEQ(enum.ChangeRequestStatusOpen)).Only(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Add a troubleshooting section", cr.Subject)
	assert.NotEqual(t, cr.RevisionInitialID, cr.RevisionID, "the change request holds an edit")

	rev, err := db.Client.Revision.Get(ctx, cr.RevisionID)
	require.NoError(t, err)
	crContent, err := r.RevisionContent(r.WithLoaders(ctx), rev)
	require.NoError(t, err)
	require.Len(t, crContent.Pages, 3)
	assert.Equal(t, "Welcome", crContent.Pages[0].Page.Title)
	assert.Contains(t, crContent.Pages[0].Page.Markdown, "## What is here")
	require.Len(t, crContent.Pages[1].Children, 1, "Configuration is nested under Installation")
	assert.Contains(t, crContent.Pages[1].Page.Markdown, "## Troubleshooting")

	s, err := db.Client.Space.Get(ctx, cr.SpaceID)
	require.NoError(t, err)
	assert.Nil(t, s.EditMode, "the demo space changes through change requests")
	main, err := db.Client.Revision.Get(ctx, *s.RevisionID)
	require.NoError(t, err)
	mainContent, err := r.RevisionContent(r.WithLoaders(ctx), main)
	require.NoError(t, err)
	assert.NotContains(t, mainContent.Pages[1].Page.Markdown, "Troubleshooting", "the main content is untouched")
}
