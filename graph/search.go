package graph

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/search"
)

// indexSpace brings the search index of space s from its previous content
// from to its new current content c, which differs from it by diff. It
// runs in the transaction that moves the space's revision, so the index
// never shows content the space does not have; and the index holds the
// previous content, so only the pages whose content or path changed are
// indexed again, and nothing is read. Without from, the index is compared
// with c instead, at the cost of one read.
func (r *Resolver) indexSpace(ctx context.Context, s *ent.Space, from *content.Loaded, c *content.Loaded, diff content.Diff) error {
	drv := r.db(ctx).Driver()
	if from == nil {
		return r.search.Sync(ctx, drv, s.ID, s.OrganizationID, searchDocs(c))
	}
	var changed []search.Doc
	for _, p := range diff.Pages {
		if search.Indexable(p.Page) {
			changed = append(changed, search.NewDoc(p.Page, p.Hash, p.Path))
		}
	}
	var removed []string
	for _, id := range append(slices.Clip(diff.Removed), diff.Existed...) {
		if n, _, _, err := from.Find(id); err == nil && search.Indexable(n.Page) {
			removed = append(removed, id) // indexed: out with it
		}
	}
	return r.search.Apply(ctx, drv, s.ID, s.OrganizationID, removed, changed)
}

// searchDocs returns the indexable pages of c.
func searchDocs(c *content.Loaded) []search.Doc {
	var docs []search.Doc
	c.Walk(func(n, _ *content.Node, path string) {
		if search.Indexable(n.Page) {
			docs = append(docs, search.NewDoc(n.Page, c.PageHash(n.Page.ID), path))
		}
	})
	return docs
}

// Orders of search results: by rank, best first; ties by ID.
var (
	searchPagesOrder = page.SliceOrder[search.Ranked]{Name: "search-pages", KeyType: page.KeyFloat, Desc: true,
		Key: func(h search.Ranked) any { return h.Rank }, ID: func(h search.Ranked) string { return h.PageID }}
	searchSpacesOrder = page.SliceOrder[search.SpaceRanked]{Name: "search-spaces", KeyType: page.KeyFloat, Desc: true,
		Key: func(h search.SpaceRanked) any { return h.Rank }, ID: func(h search.SpaceRanked) string { return h.SpaceID }}
)

// searchSpace returns the pages of a space's current content that match
// text, at most search.MaxRanked of them (see RankPages). s was loaded
// through its policy: whoever sees a space reads its content.
func (r *Resolver) searchSpace(ctx context.Context, s *ent.Space, text string, a page.Args) (*page.Connection[*search.PageHit], error) {
	q, err := search.ParseQuery("query", text)
	if err != nil {
		return nil, err
	}
	drv := r.db(ctx).Driver()
	ranked, err := r.search.RankPages(ctx, drv, s.ID, q)
	if err != nil {
		return nil, err
	}
	window, err := page.PaginateSlice(ranked, searchPagesOrder, a)
	if err != nil {
		return nil, err
	}
	hits, err := r.search.Pages(ctx, drv, q, window.Nodes())
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*search.PageHit, len(hits))
	for i := range hits {
		byID[hits[i].PageID] = &hits[i]
	}
	conn := page.Map(window, func(h search.Ranked) *search.PageHit { return byID[h.PageID] })
	// A page that an edit removed between the two statements is left out.
	conn.Edges = slices.DeleteFunc(conn.Edges, func(e *page.Edge[*search.PageHit]) bool { return e.Node == nil })
	return conn, nil
}

// SearchOrganization is /v1's search of the organization its path names.
// The organization's row is not read, a statement saved: whether the viewer
// sees an organization depends on its ID alone (see
// VisibleOrganizationID), and the results do not show it.
func (r *Resolver) SearchOrganization(ctx context.Context, orgID, text string, a page.Args) (*model.SearchSpaceResultConnection, error) {
	switch visible, err := r.VisibleOrganizationID(ctx, orgID); {
	case err != nil:
		return nil, err
	case visible == "":
		return nil, r.orgs.notFound()
	}
	c, err := r.searchOrganization(ctx, orgID, text, a)
	if err != nil {
		return nil, err
	}
	return model.NewSearchSpaceResultConnection(c), nil
}

// searchOrganization returns the live spaces of an organization that the
// viewer can see and whose current content matches text, each with its best
// pages.
func (r *Resolver) searchOrganization(ctx context.Context, orgID, text string, a page.Args) (*page.Connection[*search.SpaceHit], error) {
	q, err := search.ParseQuery("query", text)
	if err != nil {
		return nil, err
	}
	access, err := r.orgAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	ctx, scope := r.spaces.scoped(ctx, access)
	admitted := search.Spaces{Table: space.Table, ID: space.FieldID, Where: []func(*sql.Selector){
		space.OrganizationID(orgID), live(), scope,
	}}
	drv := r.db(ctx).Driver()
	ranked, err := r.search.RankSpaces(ctx, drv, orgID, q, admitted)
	if err != nil {
		return nil, err
	}
	return r.spaceHits(ctx, q, ranked, a)
}

// spaceHits pages ranked spaces and reads their best pages: the results of
// a search of several spaces, an organization's or a site's.
func (r *Resolver) spaceHits(ctx context.Context, q search.Query, ranked []search.SpaceRanked, a page.Args) (*page.Connection[*search.SpaceHit], error) {
	window, err := page.PaginateSlice(ranked, searchSpacesOrder, a)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(window.Edges))
	for i, e := range window.Edges {
		ids[i] = e.Node.SpaceID
	}
	// The spaces' rows, which results show, load in one batch.
	r.spaces.prefetch(ctx, ids)
	best, err := r.search.BestPages(ctx, r.db(ctx).Driver(), q, window.Nodes())
	if err != nil {
		return nil, err
	}
	return page.Map(window, func(h search.SpaceRanked) *search.SpaceHit {
		return &search.SpaceHit{SpaceID: h.SpaceID, Rank: h.Rank, Pages: best[h.SpaceID]}
	}), nil
}

// pageAppURL is the dashboard's URL of the page at path in a space.
func (r *Resolver) pageAppURL(spaceID, path string) string {
	return r.cfg.AppURL + "/s/" + spaceID + "/" + path
}

// searchSections presents the matching sections of a page hit.
func (r *Resolver) searchSections(h *search.PageHit) []*model.SearchSectionResult {
	out := make([]*model.SearchSectionResult, len(h.Sections))
	for i, s := range h.Sections {
		sec := &model.SearchSectionResult{ID: h.PageID, Title: s.Title, Path: h.Path, Body: s.Excerpt,
			AppURL: r.pageAppURL(h.SpaceID, h.Path)}
		if s.Anchor != "" {
			anchor := s.Anchor
			sec.ID, sec.Anchor = anchor, &anchor
			fragment := "#" + (&url.URL{Fragment: anchor}).EscapedFragment()
			sec.Path += fragment
			sec.AppURL += fragment
		}
		out[i] = sec
	}
	return out
}

// reindexSpace rebuilds the search index of a space from its current
// content, under its content lock.
func (r *Resolver) reindexSpace(ctx context.Context, id string) error {
	if err := r.lockSpaceContent(ctx, id); err != nil {
		return err
	}
	read := internal(ctx, "reindexing")
	s, err := r.db(ctx).Space.Get(read, id)
	if err != nil {
		return err
	}
	rev, err := r.db(ctx).Revision.Get(read, deref(s.RevisionID))
	if err != nil {
		return err
	}
	c, err := content.Load(ctx, r.objects(), roots(rev))
	if err != nil {
		return err
	}
	return r.indexSpace(ctx, s, nil, c, content.Diff{})
}

// ReindexSearch rebuilds the search index of every space from its current
// content, and calls done after each space. Each space is its own
// transaction, under the space's content lock, so it can run while servers
// serve. It is for an index that lacks content: a database from before
// search (`bindery search reindex`). Pages already indexed as they are
// cost nothing but their comparison. It acts for no viewer: it authorizes
// nothing, and answers nothing that loaders would hold.
func (r *Resolver) ReindexSearch(ctx context.Context, done func(spaceID string)) error {
	ctx = r.WithLoaders(ctx)
	ids, err := r.client.Space.Query().Order(ent.Asc(space.FieldID)).IDs(internal(ctx, "reindexing"))
	if err != nil {
		return err
	}
	for _, id := range ids {
		_, err := transact(ctx, r, func(ctx context.Context) (struct{}, error) {
			return struct{}{}, r.reindexSpace(ctx, id)
		})
		switch {
		case ent.IsNotFound(err):
			// Purged since the list was read.
		case err != nil:
			return fmt.Errorf("reindexing space %s: %w", id, err)
		default:
			done(id)
		}
	}
	return nil
}

// SearchSpaces returns the pages of the given spaces that match text, best
// first, at most limit of them, with the parsed query: the search of a
// published site, whose reader sees its spaces. Each space is searched as
// Space.search searches it, and the results are merged by rank.
func (r *Resolver) SearchSpaces(ctx context.Context, spaceIDs []string, text string, limit int) ([]*search.PageHit, search.Query, error) {
	q, err := search.ParseQuery("query", text)
	if err != nil {
		return nil, q, err
	}
	var out []*search.PageHit
	for _, id := range spaceIDs {
		s, _, err := r.spaces.get(ctx, id)
		if err != nil {
			return nil, q, err
		}
		c, err := r.searchSpace(ctx, s, text, page.Args{First: &limit})
		if err != nil {
			return nil, q, err
		}
		out = append(out, c.Nodes()...)
	}
	slices.SortStableFunc(out, func(a, b *search.PageHit) int { return cmp.Compare(b.Rank, a.Rank) })
	return out[:min(len(out), limit)], q, nil
}
