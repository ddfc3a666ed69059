package graph

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/store"
)

// Seeded is what the first start created.
type Seeded struct {
	Owner        *ent.User
	Organization *ent.Organization
	Token        string
}

// Seed fills an empty database with an owner, an organization and a little
// demo content, all created through the same mutations the APIs use, and
// issues a token for the owner. On a database that has users it does
// nothing and returns nil. It is atomic: a failed seed leaves nothing behind.
// lock serializes seeding between replicas starting together (see
// store.DB.LockSeed).
func (r *Resolver) Seed(ctx context.Context, ownerEmail string, lock func(context.Context, *ent.Client) error) (*Seeded, error) {
	var out *Seeded
	err := store.WithTx(ctx, r.client, func(ctx context.Context, db *ent.Client) error {
		if err := lock(ctx, db); err != nil {
			return err
		}
		n, err := db.User.Query().Count(ctx)
		if err != nil || n > 0 {
			return err
		}
		owner, err := EnsureUser(ctx, db, ownerEmail)
		if err != nil {
			return fmt.Errorf("creating the owner: %w", err)
		}
		ctx = r.WithLoaders(auth.WithViewer(ctx, &auth.Viewer{User: owner}))
		m := r.Mutation()
		org, err := m.CreateOrganization(ctx, model.CreateOrganizationInput{Title: "Bindery Demo"})
		if err != nil {
			return err
		}
		orgID := org.Organization.ID
		handbook, err := m.CreateCollection(ctx, model.CreateCollectionInput{
			OrganizationID: orgID, Title: ptr("Handbook"), Description: ptr("How the team works"),
		})
		if err != nil {
			return err
		}
		for _, in := range []model.CreateSpaceInput{
			{OrganizationID: orgID, ParentID: &handbook.Collection.ID, Title: ptr("Getting started"), Emoji: ptr("👋")},
			{OrganizationID: orgID, Title: ptr("API reference"), Emoji: ptr("📘")},
		} {
			if _, err := m.CreateSpace(ctx, in); err != nil {
				return err
			}
		}
		token, _, err := IssueToken(ctx, db, owner.ID, "First start", nil)
		if err != nil {
			return err
		}
		out = &Seeded{Owner: owner, Organization: org.Organization, Token: token}
		return nil
	})
	return out, err
}

func ptr[T any](v T) *T { return &v }
