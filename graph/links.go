package graph

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/links"
	"github.com/bindery/bindery/internal/page"
)

// linkCacheEntries bounds the link analyses kept in memory: one per
// revision content read recently.
const linkCacheEntries = 256

// LinkCache is the cache of link analyses, which tests read to see that a
// second read of a revision's links parses nothing.
func (r *Resolver) LinkCache() *links.Cache { return r.linkCache }

// Orders of the lists of link analysis. Usages run in the order their
// targets are first used in the page tree, pages in tree order.
var (
	usagesInOrder = page.SliceOrder[*model.ContentReferenceUsage]{
		Name: "links", KeyType: page.KeyInt,
		Key: func(u *model.ContentReferenceUsage) any { return u.Usage.Order },
		ID:  func(u *model.ContentReferenceUsage) string { return u.Usage.ID },
	}
	pagesInTreeOrder = page.SliceOrder[*linkingPage]{
		Name: "backlinks", KeyType: page.KeyInt,
		Key: func(p *linkingPage) any { return p.order },
		ID:  func(p *linkingPage) string { return p.id },
	}
)

// linkingPage is a page that links to something, with its place in its
// list.
type linkingPage struct {
	id    string
	order int
}

// linkAnalysis returns the link analysis of a revision the viewer can see:
// from the cache, or else analysed from its content. A revision's content
// roots name it, so an analysis cached for one revision serves every
// revision with the same pages and files.
func (r *Resolver) linkAnalysis(ctx context.Context, rev *ent.Revision) (*links.Analysis, error) {
	return r.linkCache.Get(links.KeyOf(roots(rev)), func() (*content.Content, error) {
		c, err := r.contentOf(ctx, rev)
		if err != nil {
			return nil, err
		}
		return c.Content, nil
	})
}

// scopedUsages are the usages of a scope: the whole revision, or one page
// of it, which must be there.
func (r *Resolver) scopedUsages(ctx context.Context, sc *model.LinkScope) ([]*links.Usage, error) {
	a, err := r.linkAnalysis(ctx, sc.Revision)
	if err != nil {
		return nil, err
	}
	if sc.PageID == "" {
		return a.Usages, nil
	}
	return a.OfPage(sc.PageID), nil
}

// links lists the link usages of a revision, or of one page of it
// (pageID), of the given status or all.
func (r *Resolver) links(ctx context.Context, rev *ent.Revision, pageID string, status *enum.ContentReferenceStatus,
	args page.Args) (*model.ContentReferenceUsageConnection, error) {
	sc := &model.LinkScope{Revision: rev, PageID: pageID}
	us, err := r.scopedUsages(ctx, sc)
	if err != nil {
		return nil, err
	}
	if status != nil {
		us = links.WithStatus(us, *status)
	}
	items := make([]*model.ContentReferenceUsage, len(us))
	for i, u := range us {
		items[i] = &model.ContentReferenceUsage{Usage: u, Revision: rev}
	}
	conn, err := page.PaginateSlice(items, usagesInOrder, args)
	if err != nil {
		return nil, err
	}
	out := model.NewContentReferenceUsageConnection(conn)
	out.Scope = sc
	return out, nil
}

// linkStats counts the usages of a scope whatever the list's status
// filter. Of a change request's revision, it also counts the targets broken
// there that the space's current content does not break, in the same
// scope.
func (r *Resolver) linkStats(ctx context.Context, sc *model.LinkScope) (*model.ContentReferencesStats, error) {
	us, err := r.scopedUsages(ctx, sc)
	if err != nil {
		return nil, err
	}
	s := links.Count(us)
	out := &model.ContentReferencesStats{Total: s.Total, Broken: &model.ContentReferencesBrokenStats{Total: s.Broken}}
	if sc.Revision.ChangeRequestID == nil {
		return out, nil
	}
	main, err := r.SpaceRevision(ctx, sc.Revision.SpaceID)
	if err != nil {
		return nil, err
	}
	base, err := r.scopedUsages(ctx, &model.LinkScope{Revision: main, PageID: sc.PageID})
	if err != nil {
		return nil, err
	}
	n := links.NewlyBroken(us, base)
	out.Broken.ChangeRequest = &n
	return out, nil
}

// usagePage and usageFile are the page or file a usage points at, when the
// revision has it.
func (r *Resolver) usagePage(ctx context.Context, u *model.ContentReferenceUsage) (*model.RevisionPage, error) {
	if u.Usage.Target.Page == "" {
		return nil, nil
	}
	return r.revisionPage(ctx, u.Revision, u.Usage.Target.Page)
}

func (r *Resolver) usageFile(ctx context.Context, u *model.ContentReferenceUsage) (*model.RevisionFile, error) {
	if u.Usage.Target.File == "" {
		return nil, nil
	}
	return r.revisionFile(ctx, u.Revision, u.Usage.Target.File)
}

// usageLocations are the pages that use a usage's target.
func (r *Resolver) usageLocations(ctx context.Context, u *model.ContentReferenceUsage) ([]*model.RevisionPage, error) {
	return r.pagesOf(ctx, u.Revision, u.Usage.Pages)
}

// pagesOf wraps pages of a revision by ID, in the order given.
func (r *Resolver) pagesOf(ctx context.Context, rev *ent.Revision, ids []string) ([]*model.RevisionPage, error) {
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	out := make([]*model.RevisionPage, 0, len(ids))
	for _, id := range ids {
		if p := pageOf(rev, c.Content, id); p != nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// pageBacklinks lists the other pages of a revision that link to one of
// its pages.
func (r *Resolver) pageBacklinks(ctx context.Context, rev *ent.Revision, pageID string, args page.Args) (*model.RevisionPageConnection, error) {
	return r.backlinks(ctx, rev, args, func(a *links.Analysis) []string { return a.Backlinks(pageID) })
}

// fileBacklinks lists the pages of a revision that use one of its files.
func (r *Resolver) fileBacklinks(ctx context.Context, rev *ent.Revision, fileID string, args page.Args) (*model.RevisionPageConnection, error) {
	return r.backlinks(ctx, rev, args, func(a *links.Analysis) []string { return a.FileBacklinks(fileID) })
}

// backlinks paginates the pages that of returns, and wraps the window's.
func (r *Resolver) backlinks(ctx context.Context, rev *ent.Revision, args page.Args,
	of func(*links.Analysis) []string) (*model.RevisionPageConnection, error) {
	a, err := r.linkAnalysis(ctx, rev)
	if err != nil {
		return nil, err
	}
	ids := of(a)
	items := make([]*linkingPage, len(ids))
	for i, id := range ids {
		items[i] = &linkingPage{id: id, order: i}
	}
	conn, err := page.PaginateSlice(items, pagesInTreeOrder, args)
	if err != nil {
		return nil, err
	}
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	return model.NewRevisionPageConnection(page.Map(conn, func(p *linkingPage) *model.RevisionPage {
		return pageOf(rev, c.Content, p.id)
	})), nil
}
