package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func node(id string, children ...*Node) *Node {
	return &Node{Page: &Page{ID: id}, Children: children}
}

func ptr(s string) *string { return &s }

// invalidField returns the field an InvalidError names, or fails.
func invalidField(t *testing.T, err error) string {
	t.Helper()
	var inv *InvalidError
	require.True(t, errors.As(err, &inv), "%v", err)
	return inv.Field
}

func TestChildren(t *testing.T) {
	c := &Content{Pages: []*Node{node("a", node("a1")), node("b")}}
	top, err := c.Children("")
	require.NoError(t, err)
	assert.Len(t, top, 2)
	under, err := c.Children("a")
	require.NoError(t, err)
	assert.Equal(t, "a1", under[0].Page.ID)
	_, err = c.Children("x")
	assert.Equal(t, "parentPageId", invalidField(t, err))
}

func TestIndex(t *testing.T) {
	sibs := []*Node{node("a"), node("b"), node("c")}
	for _, tc := range []struct {
		name          string
		before, after *string
		self          string
		want          int
	}{
		{"no position appends", nil, nil, "", -1},
		{"before the first", ptr("a"), nil, "", 0},
		{"after the last", nil, ptr("c"), "", 3},
		{"after one, not counting itself", nil, ptr("c"), "a", 2},
		{"before one, not counting itself", ptr("c"), nil, "b", 1},
	} {
		i, err := Index(sibs, tc.before, tc.after, tc.self)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, i, tc.name)
	}
	for name, tc := range map[string]struct {
		before, after *string
		self          string
	}{
		"both":          {ptr("a"), ptr("b"), ""},
		"itself":        {ptr("b"), nil, "b"},
		"not a sibling": {nil, ptr("x"), ""},
	} {
		_, err := Index(sibs, tc.before, tc.after, tc.self)
		assert.Equal(t, "position", invalidField(t, err), name)
	}
}

func TestLinkTarget(t *testing.T) {
	c := &Content{Pages: []*Node{node("a")}}
	for _, href := range []string{"https://example.com/x", "mailto:ann@example.com"} {
		r, err := c.LinkTarget(ptr(href), nil)
		require.NoError(t, err, href)
		assert.Equal(t, &Ref{Kind: "url", URL: href}, r)
	}
	r, err := c.LinkTarget(nil, ptr("a"))
	require.NoError(t, err)
	assert.Equal(t, &Ref{Kind: "page", Page: "a"}, r)

	for name, tc := range map[string]struct {
		href, page *string
		field      string
	}{
		"neither":        {nil, nil, "href"},
		"both":           {ptr("https://example.com"), ptr("a"), "href"},
		"not a URL":      {ptr("example.com/x"), nil, "href"},
		"ftp":            {ptr("ftp://example.com/x"), nil, "href"},
		"too long":       {ptr("https://example.com/" + strings.Repeat("a", MaxLinkURL)), nil, "href"},
		"an absent page": {nil, ptr("x"), "targetPageId"},
	} {
		_, err := c.LinkTarget(tc.href, tc.page)
		assert.Equal(t, tc.field, invalidField(t, err), name)
	}
}
