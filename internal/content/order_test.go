package content

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/internal/enum"
)

func page(id, slug string, typ enum.PageType, hidden bool, children ...*Node) *Node {
	return &Node{Page: &Page{ID: id, Slug: slug, Type: typ, Hidden: hidden}, Children: children}
}

func TestOrder(t *testing.T) {
	doc, group, link := enum.PageTypeDocument, enum.PageTypeGroup, enum.PageTypeLink
	hiddenGroup := page("g2", "secret", group, true, page("d5", "inside", doc, false))
	l := page("l1", "site", link, false)
	l.Page.Target = &Ref{Kind: "url", URL: "https://example.com"}
	toHidden := page("l2", "to-hidden", link, false)
	toHidden.Page.Target = &Ref{Kind: "page", Page: "d5"}
	o := NewOrder([]*Node{
		page("g1", "start", group, false, page("d1", "intro", doc, false), page("d2", "more", doc, false)),
		page("d3", "hidden", doc, true),
		hiddenGroup, l, toHidden,
		page("d4", "last", doc, false),
	})
	at := func(p string) int { return o.ByPath[p] }
	assert.Equal(t, at("start/intro"), o.First(0), "the first readable page")
	assert.Equal(t, at("start/intro"), o.FirstUnder(at("start")))
	assert.Equal(t, -1, o.FirstUnder(at("secret")), "a hidden group shows nothing")
	assert.Equal(t, at("start/more"), o.Next(at("start/intro")))
	assert.Equal(t, at("last"), o.Next(at("start/more")), "hidden pages are skipped in order")
	assert.Equal(t, at("start/more"), o.Prev(at("last")))
	assert.False(t, o.Readable(at("secret/inside")), "under a hidden page")

	for path, want := range map[string]bool{
		"": true, "start": true, "start/intro": true, "hidden": true, "secret": false,
		"site": true, "to-hidden": false, "nope": false,
	} {
		assert.Equal(t, want, o.Shows(path, false), path)
	}
	assert.False(t, o.Shows("start", true), "a group has no markdown")
	assert.True(t, o.Shows("start/intro", true))
	i, url := o.LinkTarget(at("site"))
	assert.Equal(t, -1, i)
	assert.Equal(t, "https://example.com", url)
}
