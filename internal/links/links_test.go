package links

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// fixture is a revision of four pages and a file:
//
//	intro                (pg_intro)
//	guide                (pg_guide, "# Guide" then "## Setup")
//	  setup              (pg_setup, "## Linux")
//	  more               (pg_more, a link page to guide)
//
// and the file "diagram.png" (fil_diagram). from is the page whose
// markdown is md.
func fixture(from, md string) *content.Content {
	page := func(id, slug, markdown string) *content.Page {
		p := &content.Page{ID: id, Type: enum.PageTypeDocument, Title: slug, Slug: slug, Markdown: markdown}
		if id == from {
			p.Markdown = md
		}
		return p
	}
	return &content.Content{
		Pages: []*content.Node{
			{Page: page("pg_intro", "intro", "Welcome.")},
			{Page: page("pg_guide", "guide", "## Setup\n\nText."), Children: []*content.Node{
				{Page: page("pg_setup", "setup", "## Linux\n\n## Linux\n")},
				{Page: &content.Page{ID: "pg_more", Type: enum.PageTypeLink, Title: "More", Slug: "more"}},
			}},
		},
		Files: []*content.File{{ID: "fil_diagram", Name: "diagram.png"}, {ID: "fil_spaced", Name: "my diagram.png"}},
	}
}

var inApp = Options{InApp: []string{"https://app.bindery.test", "https://api.bindery.test/"}}

func TestAnalyzeOneLink(t *testing.T) {
	const (
		ok     = enum.ContentReferenceStatusOk
		broken = enum.ContentReferenceStatusBroken
		app    = enum.ContentReferenceStatusInApp
		ref    = enum.ContentReferenceRelationReference
		embeds = enum.ContentReferenceRelationDependsOn
		page   = enum.ContentReferenceKindPage
		file   = enum.ContentReferenceKindFile
		anchor = enum.ContentReferenceKindAnchor
		url    = enum.ContentReferenceKindUrl
	)
	for _, tc := range []struct {
		name, from, md string
		want           Target
		status         enum.ContentReferenceStatus
		relation       enum.ContentReferenceRelation
	}{
		{"sibling with .md", "pg_intro", "[g](guide.md)", Target{Kind: page, Page: "pg_guide"}, ok, ref},
		{"sibling without .md", "pg_intro", "[g](guide)", Target{Kind: page, Page: "pg_guide"}, ok, ref},
		{"folder README", "pg_intro", "[g](guide/README.md)", Target{Kind: page, Page: "pg_guide"}, ok, ref},
		{"nested from a leaf", "pg_intro", "[s](./guide/setup.md)", Target{Kind: page, Page: "pg_setup"}, ok, ref},
		{"relative to a folder page", "pg_guide", "[s](setup.md)", Target{Kind: page, Page: "pg_setup"}, ok, ref},
		{"up a folder", "pg_setup", "[i](../intro.md)", Target{Kind: page, Page: "pg_intro"}, ok, ref},
		{"sibling of a nested leaf", "pg_setup", "[g](README.md)", Target{Kind: page, Page: "pg_guide"}, ok, ref},
		{"from the top", "pg_setup", "[s](/guide/setup)", Target{Kind: page, Page: "pg_setup"}, ok, ref},
		{"the top README is the first page", "pg_setup", "[home](/README.md)", Target{Kind: page, Page: "pg_intro"}, ok, ref},
		{"percent-encoded", "pg_intro", "[g](gu%69de.md)", Target{Kind: page, Page: "pg_guide"}, ok, ref},
		{"page ID", "pg_intro", "[s](pg_setup)", Target{Kind: page, Page: "pg_setup"}, ok, ref},
		{"missing page ID", "pg_intro", "[x](pg_gone)", Target{Kind: page, missing: "pg_gone"}, broken, ref},
		{"missing page", "pg_intro", "[x](setup.md)", Target{Kind: page, missing: "setup"}, broken, ref},
		{"missing nested page", "pg_guide", "[x](install.md)", Target{Kind: page, missing: "guide/install"}, broken, ref},
		{"anchor of the page", "pg_guide", "## Setup\n\n[s](#setup)", Target{Kind: anchor, Page: "pg_guide", Anchor: "setup"}, ok, ref},
		{"missing anchor of the page", "pg_guide", "[s](#install)", Target{Kind: anchor, Page: "pg_guide", Anchor: "install"}, broken, ref},
		{"anchor of another page", "pg_intro", "[l](guide/setup.md#linux)", Target{Kind: anchor, Page: "pg_setup", Anchor: "linux"}, ok, ref},
		{"a repeated heading's anchor", "pg_intro", "[l](guide/setup.md#linux-1)", Target{Kind: anchor, Page: "pg_setup", Anchor: "linux-1"}, ok, ref},
		{"missing anchor of another page", "pg_intro", "[l](guide/setup.md#mac)", Target{Kind: anchor, Page: "pg_setup", Anchor: "mac"}, broken, ref},
		{"anchor of a missing page", "pg_intro", "[l](nope.md#mac)", Target{Kind: anchor, Anchor: "mac", missing: "nope"}, broken, ref},
		{"file link", "pg_intro", "[d](.gitbook/assets/diagram.png)", Target{Kind: file, File: "fil_diagram"}, ok, ref},
		{"file link from a nested page", "pg_setup", "[d](../.gitbook/assets/diagram.png)", Target{Kind: file, File: "fil_diagram"}, ok, ref},
		{"encoded file name", "pg_intro", "![d](.gitbook/assets/my%20diagram.png)", Target{Kind: file, File: "fil_spaced"}, ok, embeds},
		{"image", "pg_intro", "![d](.gitbook/assets/diagram.png)", Target{Kind: file, File: "fil_diagram"}, ok, embeds},
		{"image of a missing file", "pg_intro", "![d](.gitbook/assets/gone.png)", Target{Kind: file, missing: "gone.png"}, broken, embeds},
		{"image that is no file", "pg_intro", "![d](pics/a.png)", Target{Kind: file, missing: "pics/a.png"}, broken, embeds},
		{"external URL", "pg_intro", "[x](https://example.com/a)", Target{Kind: url, URL: "https://example.com/a"}, ok, ref},
		{"external image", "pg_intro", "![x](https://example.com/a.png)", Target{Kind: url, URL: "https://example.com/a.png"}, ok, embeds},
		{"autolink", "pg_intro", "<https://example.com>", Target{Kind: url, URL: "https://example.com"}, ok, ref},
		{"email", "pg_intro", "<ada@example.com>", Target{Kind: url, URL: "mailto:ada@example.com"}, ok, ref},
		{"in-app URL", "pg_intro", "[x](https://app.bindery.test/s/spc_1)", Target{Kind: url, URL: "https://app.bindery.test/s/spc_1"}, app, ref},
		{"in-app API URL", "pg_intro", "[x](https://API.bindery.test/v1/spaces)", Target{Kind: url, URL: "https://API.bindery.test/v1/spaces"}, app, ref},
		{"a host that only starts alike", "pg_intro", "[x](https://app.bindery.test.evil.com/)", Target{Kind: url, URL: "https://app.bindery.test.evil.com/"}, ok, ref},
		{"reference link", "pg_intro", "[g][r]\n\n[r]: guide.md", Target{Kind: page, Page: "pg_guide"}, ok, ref},
		{"escaped destination", "pg_intro", `[g](gu\_ide.md)`, Target{Kind: page, missing: "gu_ide"}, broken, ref},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Analyze(fixture(tc.from, tc.md), inApp)
			require.Len(t, a.Usages, 1)
			u := a.Usages[0]
			got := u.Target
			got.Href = ""
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.status, u.Status)
			assert.Equal(t, tc.relation, u.Relation)
			assert.Equal(t, []string{tc.from}, u.Pages)
		})
	}
}

func TestAnalyzeSkips(t *testing.T) {
	for _, md := range []string{"no links", "[empty]()", "[hash](#)", "`[code](x.md)`", "```\n[fenced](x.md)\n```", `<a href="x.md">html</a>`} {
		assert.Empty(t, Analyze(fixture("pg_intro", md), inApp).Usages, md)
	}
}

func TestAnalyzeGroupsTargets(t *testing.T) {
	c := fixture("pg_intro", "[g](guide.md) [again](./guide) ![d](.gitbook/assets/diagram.png) [d](.gitbook/assets/diagram.png) [x](gone.md)")
	c.Pages[1].Page.Markdown = "[i](../intro.md) [d](../.gitbook/assets/diagram.png) [x](../gone.md)"
	c.Pages[1].Page.Cover = &content.Cover{Ref: content.Ref{Kind: "file", File: "fil_gone"}}
	more := c.Pages[1].Children[1].Page
	more.Target = &content.Ref{Kind: "page", Page: "pg_guide"}
	a := Analyze(c, inApp)

	type row struct {
		kind     enum.ContentReferenceKind
		status   enum.ContentReferenceStatus
		relation enum.ContentReferenceRelation
		pages    []string
	}
	var got []row
	for _, u := range a.Usages {
		got = append(got, row{u.Target.Kind, u.Status, u.Relation, u.Pages})
	}
	assert.Equal(t, []row{
		// guide.md, from intro and from the link page "more".
		{enum.ContentReferenceKindPage, enum.ContentReferenceStatusOk, enum.ContentReferenceRelationReference, []string{"pg_intro", "pg_more"}},
		// The file is embedded by intro and linked by guide.
		{enum.ContentReferenceKindFile, enum.ContentReferenceStatusOk, enum.ContentReferenceRelationDependsOn, []string{"pg_intro", "pg_guide"}},
		// gone.md from intro, and ../gone.md from guide's folder: the same
		// missing page.
		{enum.ContentReferenceKindPage, enum.ContentReferenceStatusBroken, enum.ContentReferenceRelationReference, []string{"pg_intro", "pg_guide"}},
		// guide's cover, a file that is not there.
		{enum.ContentReferenceKindFile, enum.ContentReferenceStatusBroken, enum.ContentReferenceRelationDependsOn, []string{"pg_guide"}},
		{enum.ContentReferenceKindPage, enum.ContentReferenceStatusOk, enum.ContentReferenceRelationReference, []string{"pg_guide"}},
	}, got)
	assert.Equal(t, "guide.md", a.Usages[0].Target.Href, "as first written")
	assert.Equal(t, Stats{Total: 5, Broken: 2}, Count(a.Usages))

	assert.Equal(t, []string{"pg_intro", "pg_more"}, a.Backlinks("pg_guide"))
	assert.Equal(t, []string{"pg_guide"}, a.Backlinks("pg_intro"))
	assert.Empty(t, a.Backlinks("pg_setup"))
	assert.Equal(t, []string{"pg_intro", "pg_guide"}, a.FileBacklinks("fil_diagram"))
	assert.Empty(t, a.FileBacklinks("fil_spaced"))

	ofGuide := a.OfPage("pg_guide")
	require.Len(t, ofGuide, 4)
	for _, u := range ofGuide {
		assert.Equal(t, []string{"pg_guide"}, u.Pages)
	}
	assert.Len(t, a.Usages[1].Pages, 2, "OfPage leaves the analysis as it is")
	assert.Len(t, WithStatus(a.Usages, enum.ContentReferenceStatusBroken), 2)
	assert.Len(t, WithStatus(a.Usages, ""), 5)

	// IDs are stable and distinct.
	again := Analyze(c, inApp)
	ids := map[string]bool{}
	for i, u := range a.Usages {
		assert.Equal(t, u.ID, again.Usages[i].ID)
		ids[u.ID] = true
	}
	assert.Len(t, ids, len(a.Usages))
}

func TestNewlyBroken(t *testing.T) {
	base := Analyze(fixture("pg_intro", "[x](gone.md) [g](guide.md)"), inApp)
	cr := Analyze(fixture("pg_intro", "[x](gone.md) [y](also-gone.md) [g](guide.md#nope)"), inApp)
	assert.Equal(t, 1+1, NewlyBroken(cr.Usages, base.Usages), "also-gone.md and guide.md#nope")
	assert.Equal(t, 0, NewlyBroken(base.Usages, base.Usages))
}

func TestCacheParsesOnce(t *testing.T) {
	c := NewCache(2, inApp)
	loads := 0
	load := func(md string) func() (*content.Content, error) {
		return func() (*content.Content, error) { loads++; return fixture("pg_intro", md), nil }
	}
	a1, err := c.Get(Key{Pages: "p1"}, load("[g](guide.md)"))
	require.NoError(t, err)
	a2, err := c.Get(Key{Pages: "p1"}, load("ignored"))
	require.NoError(t, err)
	assert.Same(t, a1, a2)
	assert.Equal(t, int64(1), c.Parses())
	assert.Equal(t, 1, loads, "a hit does not even load the content")

	_, err = c.Get(Key{Pages: "p1", Files: "f1"}, load("x"))
	require.NoError(t, err)
	_, err = c.Get(Key{Pages: "p2"}, load("y"))
	require.NoError(t, err)
	assert.Equal(t, int64(3), c.Parses(), "other roots are other content")
	_, err = c.Get(Key{Pages: "p1"}, load("z"))
	require.NoError(t, err)
	assert.Equal(t, int64(4), c.Parses(), "the least recently used entry went when the cache was full")
}
