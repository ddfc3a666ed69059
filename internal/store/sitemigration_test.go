package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	atlasmigrate "ariga.io/atlas/sql/migrate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/sitesection"
	"github.com/bindery/bindery/ent/sitesectiongroup"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/internal/store/migrations"
)

// The migration that adds the unique indexes of a site's structure first
// mends what concurrent writers could leave behind, on both databases:
// repeated paths, several defaults or none, and sections and groups in two
// orders of their own, which it merges into one, as the published
// structure showed them.
func TestSiteStructureMigrationMendsClashes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, freshDSN(t))
	require.NoError(t, db.Migrate(ctx))
	file := "site_structure_invariants.sql"
	indexes := []string{"sitesection_site_default", "sitesection_site_id_path", "sitespace_root_default",
		"sitespace_root_path", "sitespace_section_default", "sitespace_section_path"}
	// The database as it was before that migration.
	for _, ix := range indexes {
		_, err := db.SQL.ExecContext(ctx, "DROP INDEX "+ix)
		require.NoError(t, err)
	}

	c := db.NewClient()
	org := c.Organization.Create().SetTitle("Acme").SaveX(ctx)
	sp := c.Space.Create().SetOrganizationID(org.ID).SetTitle("Guide").SaveX(ctx)
	s := c.Site.Create().SetOrganizationID(org.ID).SetTitle("Docs").SaveX(ctx)
	t0 := time.Now().UTC().Truncate(time.Second)
	g1 := c.SiteSectionGroup.Create().SetSiteID(s.ID).SetTitle("G1").SetPosition(1024).SaveX(ctx)
	g2 := c.SiteSectionGroup.Create().SetSiteID(s.ID).SetTitle("G2 (empty)").SetPosition(2048).SaveX(ctx)
	section := func(siteID, path string, pos float64, def bool, group *string, age int) *ent.SiteSection {
		return c.SiteSection.Create().SetSiteID(siteID).SetTitle("T " + path).SetPath(path).SetPosition(pos).
			SetIsDefault(def).SetNillableGroupID(group).SetCreatedAt(t0.Add(time.Duration(age) * time.Second)).SaveX(ctx)
	}
	a := section(s.ID, "docs", 1024, true, nil, 0)
	b := section(s.ID, "docs", 2048, true, nil, 1)
	cc := section(s.ID, "api", 3072, false, &g1.ID, 2)
	d := section(s.ID, "x", 4096, false, nil, 3)
	e := section(s.ID, "y", 5120, false, &g1.ID, 4)
	// Another site: no default section, and site-spaces at its root with a
	// repeated path and no default.
	other := c.Site.Create().SetOrganizationID(org.ID).SetTitle("Other").SaveX(ctx)
	x := section(other.ID, "x", 2048, false, nil, 0)
	y := section(other.ID, "y", 1024, false, nil, 1)
	siteSpace := func(siteID string, sectionID *string, path string, pos float64, def bool, age int) *ent.SiteSpace {
		return c.SiteSpace.Create().SetSiteID(siteID).SetNillableSectionID(sectionID).SetSpaceID(sp.ID).SetPath(path).
			SetPosition(pos).SetIsDefault(def).SetCreatedAt(t0.Add(time.Duration(age) * time.Second)).SaveX(ctx)
	}
	v1 := siteSpace(s.ID, &a.ID, "v", 1024, true, 0)
	v2 := siteSpace(s.ID, &a.ID, "v", 2048, true, 1)
	third := c.Site.Create().SetOrganizationID(org.ID).SetTitle("Third").SaveX(ctx)
	r1 := siteSpace(third.ID, nil, "r", 2048, false, 0)
	r2 := siteSpace(third.ID, nil, "r", 1024, false, 1)

	dir, err := migrations.Dir(db.Dialect)
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	var stmts []string
	for _, f := range files {
		if strings.HasSuffix(f.Name(), file) {
			ss, err := atlasmigrate.FileStmts(atlasDriver(t, db), f)
			require.NoError(t, err)
			stmts = append(stmts, ss...)
		}
	}
	require.NotEmpty(t, stmts, "no file ends with %s", file)
	tx, err := db.SQL.BeginTx(ctx, nil)
	require.NoError(t, err)
	for _, stmt := range stmts {
		_, err := tx.ExecContext(ctx, stmt)
		require.NoError(t, err, stmt)
	}
	require.NoError(t, tx.Commit())

	sec := func(id string) *ent.SiteSection { return c.SiteSection.GetX(ctx, id) }
	ss := func(id string) *ent.SiteSpace { return c.SiteSpace.GetX(ctx, id) }
	assert.Equal(t, "docs", sec(a.ID).Path, "the older keeps its path")
	assert.Equal(t, "docs-"+b.ID, sec(b.ID).Path)
	assert.True(t, sec(a.ID).IsDefault)
	assert.False(t, sec(b.ID).IsDefault, "the first by position stays the default")
	assert.True(t, sec(y.ID).IsDefault, "the first by position becomes the default")
	assert.False(t, sec(x.ID).IsDefault)
	assert.Equal(t, "v", ss(v1.ID).Path)
	assert.Equal(t, "v-"+v2.ID, ss(v2.ID).Path)
	assert.True(t, ss(v1.ID).IsDefault)
	assert.False(t, ss(v2.ID).IsDefault)
	assert.Equal(t, "r", ss(r1.ID).Path)
	assert.Equal(t, "r-"+r2.ID, ss(r2.ID).Path)
	assert.True(t, ss(r2.ID).IsDefault, "the first by position")
	assert.False(t, ss(r1.ID).IsDefault)

	// One order: the sections as they were, each group just before its
	// first section, the empty group last.
	var order []string
	for _, it := range c.SiteSection.Query().Where(sitesection.SiteID(s.ID)).AllX(ctx) {
		order = append(order, it.ID)
	}
	positions := map[string]float64{}
	for _, it := range c.SiteSection.Query().Where(sitesection.SiteID(s.ID)).AllX(ctx) {
		positions[it.ID] = it.Position
	}
	for _, g := range c.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(s.ID)).AllX(ctx) {
		positions[g.ID] = g.Position
	}
	want := []string{a.ID, b.ID, g1.ID, cc.ID, d.ID, e.ID, g2.ID}
	for i, id := range want {
		assert.Equal(t, float64(1024*(i+1)), positions[id], "%d: %s", i, id)
	}
	assert.Equal(t, float64(1024), sec(y.ID).Position)
	assert.Equal(t, float64(2048), sec(x.ID).Position)
	assert.Len(t, order, 5)

	// The indexes hold from now on.
	_, err = c.SiteSpace.Update().Where(sitespace.ID(v2.ID)).SetPath("v").Save(ctx)
	assert.True(t, ent.IsConstraintError(err), "%v", err)
	_, err = c.SiteSection.Update().Where(sitesection.ID(b.ID)).SetIsDefault(true).Save(ctx)
	assert.True(t, ent.IsConstraintError(err), "%v", err)
}
