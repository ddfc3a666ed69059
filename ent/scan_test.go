package ent_test

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/server/servertest"
)

// Every way of reading rows (ent's builders, ScanRows, ScanJoined) hands
// the same scan destinations to each row of a statement (reusedValues): each
// entity must still hold its own row, NULLs included after a row that had a
// value, and its own value of a column the entity does not know.
func TestRowsAreReadIntoTheirOwnEntities(t *testing.T) {
	t.Parallel()
	e := servertest.New(t)
	ctx := context.Background()
	deleted := time.Date(2026, 11, 27, 8, 30, 0, 0, time.UTC)
	mk := func(title, emoji string, deletedAt *time.Time, parent *string) *ent.Space {
		return e.Client.Space.Create().SetOrganizationID(e.Org.ID).SetTitle(title).SetEmoji(emoji).
			SetNillableDeletedAt(deletedAt).SetNillableParentID(parent).SaveX(ctx)
	}
	// In the order of their titles: values, then NULLs and empty strings,
	// then values again.
	guides := e.Client.Collection.Create().SetOrganizationID(e.Org.ID).SetTitle("Guides").SaveX(ctx)
	apis := e.Client.Collection.Create().SetOrganizationID(e.Org.ID).SetTitle("APIs").SaveX(ctx)
	a := mk("a", "🅰", &deleted, nil)
	b := mk("bb", "", nil, &guides.ID)
	c := mk("ccc", "🌊", nil, nil)
	d := mk("dddd", "", &deleted, &apis.ID)
	collections := map[string]*ent.Collection{guides.ID: guides, apis.ID: apis}
	want := []*ent.Space{a, b, c, d}

	check := func(t *testing.T, got []*ent.Space) {
		t.Helper()
		require.Len(t, got, len(want))
		for i, s := range got {
			assert.Equal(t, want[i].ID, s.ID)
			assert.Equal(t, want[i].Title, s.Title)
			assert.Equal(t, want[i].Emoji, s.Emoji, s.Title)
			assert.Equal(t, want[i].ParentID, s.ParentID, s.Title)
			if want[i].DeletedAt == nil {
				assert.Nil(t, s.DeletedAt, s.Title)
			} else if assert.NotNil(t, s.DeletedAt, s.Title) {
				assert.True(t, deleted.Equal(*s.DeletedAt), s.Title)
			}
			n, err := s.Value("title_length")
			require.NoError(t, err)
			assert.EqualValues(t, len(s.Title), n, "the column the entity does not know, of %s", s.Title)
		}
	}
	titleLength := func(s *sql.Selector) {
		s.AppendSelectExprAs(sql.Expr("LENGTH("+s.C(space.FieldTitle)+")"), "title_length")
	}

	t.Run("builder", func(t *testing.T) {
		got, err := e.Client.Space.Query().Where(space.OrganizationID(e.Org.ID)).
			Order(space.ByTitle()).Modify(titleLength).All(ctx)
		require.NoError(t, err)
		check(t, got)
	})

	spaces := func(d string) *sql.Selector {
		s := sql.Dialect(d).Select().From(sql.Table(space.Table))
		for _, c := range space.Columns {
			s.AppendSelect(s.C(c))
		}
		titleLength(s)
		return s.Where(sql.EQ(s.C(space.FieldOrganizationID), e.Org.ID)).OrderBy(s.C(space.FieldTitle))
	}
	t.Run("ScanRows", func(t *testing.T) {
		query, args := spaces(e.DB.Dialect).Query()
		rows, err := e.DB.SQL.QueryContext(ctx, query, args...)
		require.NoError(t, err)
		got, err := e.Client.Space.ScanRows(&sql.Rows{ColumnScanner: rows})
		require.NoError(t, err)
		check(t, got)
	})

	t.Run("ScanJoined", func(t *testing.T) {
		s := spaces(e.DB.Dialect)
		parent := sql.Dialect(e.DB.Dialect).Table(collection.Table).As("parent")
		s.LeftJoin(parent).On(s.C(space.FieldParentID), parent.C(collection.FieldID))
		for _, c := range collection.Columns {
			s.AppendSelectAs(parent.C(c), "parent__"+c)
		}
		query, args := s.Query()
		rows, err := e.DB.SQL.QueryContext(ctx, query, args...)
		require.NoError(t, err)
		got, parents, err := ent.ScanJoined(&sql.Rows{ColumnScanner: rows}, e.Client.Space.Part(""), e.Client.Collection.Part("parent__"))
		require.NoError(t, err)
		check(t, got)
		require.Len(t, parents, len(want))
		for i, p := range parents {
			if want[i].ParentID == nil {
				assert.Nil(t, p, want[i].Title)
			} else if assert.NotNil(t, p, want[i].Title) {
				assert.Equal(t, *want[i].ParentID, p.ID)
				assert.Equal(t, collections[p.ID].Title, p.Title)
			}
		}
	})
}
