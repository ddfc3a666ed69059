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
	// Site is a published site of the demo spaces; SiteURL is where its
	// readers read it.
	Site    *ent.Site
	SiteURL string
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
		api, err := m.CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: orgID, Title: ptr("API reference"), Emoji: ptr("📘"),
			EditMode: &live})
		if err != nil {
			return err
		}
		if err := r.seedPages(ctx, api.Space.ID, apiPages); err != nil {
			return err
		}
		enterprise, err := m.CreateSpace(ctx, model.CreateSpaceInput{OrganizationID: orgID, Title: ptr("Enterprise"),
			Emoji: ptr("🏢"), EditMode: &live})
		if err != nil {
			return err
		}
		if err := r.seedPages(ctx, enterprise.Space.ID, enterprisePages); err != nil {
			return err
		}
		site, err := r.seedSite(ctx, orgID, guide.Space.ID, api.Space.ID, enterprise.Space.ID)
		if err != nil {
			return err
		}
		token, _, err := IssueToken(ctx, db, owner.ID, "First start", tokenExpiry)
		if err != nil {
			return err
		}
		out = &Seeded{Owner: owner, Organization: org.Organization, Token: token, Site: site, SiteURL: r.sitePublishedURL(site) + "/"}
		return nil
	})
	return out, err
}

func ptr[T any](v T) *T { return &v }

// demoPage is a page of the demo content: title, emoji and markdown,
// nested under the top-level page before it when nested is set.
type demoPage struct {
	title, emoji, markdown string
	nested                 bool
}

// demoPages are the demo space's pages.
var demoPages = []demoPage{
	{"Welcome", "👋", "This space shows how **Bindery** keeps documentation: pages in a tree, every edit a\nrevision, and changes reviewed in *change requests* before they reach the main content.\n\n## What is here\n\n- **Installation** explains how to run the server.\n- **Writing pages** covers markdown.\n- An open change request adds a troubleshooting section.\n", false},
	{"Installation", "📦", "Bindery is one binary. With Go installed:\n\n```sh\nmake run\n```\n\nIt starts on an empty SQLite file and prints an API token.\n\n> Set `BINDERY_DATABASE_URL` to a `postgres://` URL to use PostgreSQL.\n", false},
	{"Configuration", "⚙️", "Every setting is an environment variable. The most used:\n\n1. `BINDERY_ADDR`, the listen address.\n2. `BINDERY_DATABASE_URL`, SQLite or PostgreSQL.\n3. `BINDERY_PUBLIC_URL`, the URL clients reach.\n", true},
	{"Writing pages", "✍️", "Pages are markdown: headings, lists, code, quotes, images and [links](https://commonmark.org).\n\nEdit a live space directly, or open a change request, edit there, and merge it.\n", false},
}

// apiPages are the demo API reference's pages.
var apiPages = []demoPage{
	{"Overview", "📘", "Bindery answers two APIs over one truth: **GraphQL** at `/graphql` and **REST** at `/v1`, " +
		"compatible with GitBook's public API.\n\n| API | Address | For |\n|---|---|---|\n" +
		"| GraphQL | `/graphql` | dashboards, exploring in the playground |\n| REST | `/v1` | existing GitBook clients and integrations |\n\n" +
		"## Authentication\n\nSend an API token as a bearer token:\n\n```sh\ncurl -H \"Authorization: Bearer $TOKEN\" http://localhost:8080/v1/user\n```\n", false},
	{"Spaces", "🗂️", "A space holds pages and files, with every edit kept as a revision.\n\n" +
		"## List the spaces of an organization\n\n```js\nconst res = await fetch(`/v1/orgs/${org}/spaces`, {\n  headers: { Authorization: `Bearer ${token}` },\n});\nconst { items } = await res.json();\n```\n\n" +
		"- [x] Pages nest to any depth\n- [x] Change requests merge three ways\n- [ ] Your idea here\n", false},
	{"Search", "🔎", "Search ranks pages by where the words appear: titles first, then headings, then text.\n\n" +
		"```graphql\nquery {\n  space(id: \"spc_...\") {\n    search(query: \"install\") { nodes { title path } }\n  }\n}\n```\n", true},
}

// enterprisePages are the pages of the demo site's section for visitors on
// the enterprise plan.
var enterprisePages = []demoPage{
	{"Single sign-on", "🔐", "This section is adaptive content: the demo site shows it only to visitors whose " +
		"claims say `plan` is `enterprise`.\n\n> Make such a visitor's link with " +
		"`bin/bindery site visitor-link --site <site ID> --claims '{\"plan\":\"enterprise\"}'`.\n", false},
}

// seedContent fills the demo space with pages, switches it to change
// requests, and opens one with an edit.
func (r *Resolver) seedContent(ctx context.Context, spaceID string) error {
	m := r.Mutation()
	if err := r.seedPages(ctx, spaceID, demoPages); err != nil {
		return err
	}
	install, err := r.revisionPageByPathOf(ctx, spaceID, "installation")
	if err != nil {
		return err
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

// seedPages creates pages in a space's main content.
func (r *Resolver) seedPages(ctx context.Context, spaceID string, pages []demoPage) error {
	var top string
	for _, p := range pages {
		in := model.CreatePageInput{SpaceID: &spaceID, Title: p.title, Emoji: ptr(p.emoji), Markdown: ptr(p.markdown)}
		if p.nested {
			in.ParentPageID = ptr(top)
		}
		res, err := r.Mutation().CreatePage(ctx, in)
		if err != nil {
			return fmt.Errorf("creating demo page %q: %w", p.title, err)
		}
		if !p.nested {
			top = res.Page.ID()
		}
	}
	return nil
}

// revisionPageByPathOf is the ID of the page at path in a space's main
// content.
func (r *Resolver) revisionPageByPathOf(ctx context.Context, spaceID, path string) (string, error) {
	rev, err := r.SpaceRevision(ctx, spaceID)
	if err != nil {
		return "", err
	}
	p, err := r.revisionPageByPath(ctx, rev, path)
	if err != nil {
		return "", err
	}
	if p == nil {
		return "", fmt.Errorf("the demo page %q is missing", path)
	}
	return p.Node.Page.ID, nil
}

// seedSite publishes the demo spaces as a public site of three sections,
// the third adaptive content for visitors on the enterprise plan, with a
// visitor signing key to make their links with.
func (r *Resolver) seedSite(ctx context.Context, orgID, guide, api, enterprise string) (*ent.Site, error) {
	m := r.Mutation()
	site, err := m.CreateSite(ctx, model.CreateSiteInput{OrganizationID: orgID, Title: ptr("Bindery Demo Docs")})
	if err != nil {
		return nil, err
	}
	id := site.Site.ID
	var last string
	for _, sec := range []struct{ space, title string }{{guide, "Guides"}, {api, "API reference"}, {enterprise, "Enterprise"}} {
		s, err := m.CreateSiteSection(ctx, model.CreateSiteSectionInput{SiteID: id, SpaceID: sec.space, Title: ptr(sec.title)})
		if err != nil {
			return nil, err
		}
		last = s.SiteSection.ID
	}
	if _, err := m.UpdateSiteSection(ctx, model.UpdateSiteSectionInput{ID: last,
		Condition: graphql.OmittableOf(ptr(`visitor.claims.plan == "enterprise"`))}); err != nil {
		return nil, err
	}
	schema, err := model.NewJSON(map[string]any{
		"type": "object", "additionalProperties": false,
		"properties": map[string]any{
			"plan": map[string]any{"type": "string", "enum": []string{"free", "enterprise"}, "description": "The visitor's plan"},
		},
	})
	if err != nil {
		return nil, err
	}
	if _, err := m.UpdateSiteAdaptiveSchema(ctx, model.UpdateSiteAdaptiveSchemaInput{SiteID: id, JSONSchema: schema}); err != nil {
		return nil, err
	}
	if _, err := m.UpdateSite(ctx, model.UpdateSiteInput{ID: id, AdaptiveContent: ptr(true)}); err != nil {
		return nil, err
	}
	if _, err := m.RotateSiteVisitorAuthKey(ctx, model.RotateSiteVisitorAuthKeyInput{SiteID: id}); err != nil {
		return nil, err
	}
	pub, err := m.PublishSite(ctx, model.PublishSiteInput{ID: id})
	if err != nil {
		return nil, err
	}
	return pub.Site, nil
}
