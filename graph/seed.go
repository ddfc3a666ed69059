package graph

import (
	"context"
	"fmt"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/enum"
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
// issues a token for the owner that expires at tokenExpiry (nil: never). On
// a database that has users it does nothing and returns nil. It is atomic: a failed seed leaves nothing behind.
// lock serializes seeding between replicas starting together (see
// store.DB.LockSeed).
func (r *Resolver) Seed(ctx context.Context, ownerEmail string, tokenExpiry *time.Time, lock func(context.Context, *ent.Client) error) (*Seeded, error) {
	var out *Seeded
	err := store.WithTx(ctx, r.client, func(ctx context.Context, db *ent.Client) error {
		if err := lock(ctx, db); err != nil {
			return err
		}
		n, err := db.User.Query().Count(internal(ctx, "whether the database is empty"))
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
		live := enum.EditModeLive
		guide, err := m.CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: orgID, ParentID: &handbook.Collection.ID,
			Title: ptr("Getting started"), Emoji: ptr("👋"), EditMode: &live})
		if err != nil {
			return err
		}
		if err := r.seedContent(ctx, guide.Space.ID); err != nil {
			return err
		}
		if _, err := m.CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: orgID, Title: ptr("API reference"), Emoji: ptr("📘")}); err != nil {
			return err
		}
		token, _, err := IssueToken(ctx, db, owner.ID, "First start", tokenExpiry)
		if err != nil {
			return err
		}
		out = &Seeded{Owner: owner, Organization: org.Organization, Token: token}
		return nil
	})
	return out, err
}

func ptr[T any](v T) *T { return &v }

// demoPages are the demo space's pages: title, emoji and markdown, nested
// under the page before them when nested is set.
var demoPages = []struct {
	title, emoji, markdown string
	nested                 bool
}{
	{"Welcome", "👋", "# Welcome\n\nThis space shows how **Bindery** keeps documentation: pages in a tree, every edit a\nrevision, and changes reviewed in *change requests* before they reach the main content.\n\n## What is here\n\n- **Installation** explains how to run the server.\n- **Writing pages** covers markdown.\n- An open change request adds a troubleshooting section.\n", false},
	{"Installation", "📦", "# Installation\n\nBindery is one binary. With Go installed:\n\n```sh\nmake run\n```\n\nIt starts on an empty SQLite file and prints an API token.\n\n> Set `BINDERY_DATABASE_URL` to a `postgres://` URL to use PostgreSQL.\n", false},
	{"Configuration", "⚙️", "# Configuration\n\nEvery setting is an environment variable. The most used:\n\n1. `BINDERY_ADDR`, the listen address.\n2. `BINDERY_DATABASE_URL`, SQLite or PostgreSQL.\n3. `BINDERY_PUBLIC_URL`, the URL clients reach.\n", true},
	{"Writing pages", "✍️", "# Writing pages\n\nPages are markdown: headings, lists, code, quotes, images and [links](https://commonmark.org).\n\nEdit a live space directly, or open a change request, edit there, and merge it.\n", false},
}

// seedContent fills the demo space with pages, switches it to change
// requests, and opens one with an edit.
func (r *Resolver) seedContent(ctx context.Context, spaceID string) error {
	m := r.Mutation()
	var top, install string
	for _, p := range demoPages {
		in := model.CreatePageInput{SpaceID: &spaceID, Title: p.title, Emoji: ptr(p.emoji), Markdown: ptr(p.markdown)}
		if p.nested {
			in.ParentPageID = ptr(top)
		}
		res, err := m.CreatePage(ctx, in)
		if err != nil {
			return fmt.Errorf("creating demo page %q: %w", p.title, err)
		}
		if !p.nested {
			top = res.Page.ID()
		}
		if p.title == "Installation" {
			install = res.Page.ID()
		}
	}
	if _, err := m.UpdateSpace(ctx, model.UpdateSpaceInput{ID: spaceID, EditMode: graphql.OmittableOf[*enum.EditMode](nil)}); err != nil {
		return err
	}
	cr, err := m.CreateChangeRequest(ctx, model.CreateChangeRequestInput{SpaceID: spaceID, Subject: ptr("Add a troubleshooting section")})
	if err != nil {
		return err
	}
	crID := cr.ChangeRequest.ID
	_, err = m.SetPageMarkdown(ctx, model.SetPageMarkdownInput{ChangeRequestID: &crID, PageID: install,
		Markdown: demoPages[1].markdown + "\n## Troubleshooting\n\nIf the port is taken, set `BINDERY_ADDR=127.0.0.1:9090`.\n"})
	return err
}
