package graph

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/document"
	"github.com/bindery/bindery/internal/enum"
)

// roots are the content roots a revision points at.
func roots(rev *ent.Revision) content.Roots {
	return content.Roots{Pages: deref(rev.PagesRoot), Files: deref(rev.FilesRoot), Reusable: deref(rev.ReusableContentsRoot)}
}

// contentOf returns a revision's content, decoded once for every request
// (see content.Decoded). It is shared and must not be changed: edits work
// on a Fork.
func (r *Resolver) contentOf(ctx context.Context, rev *ent.Revision) (*content.Loaded, error) {
	l := loadersFrom(ctx)
	l.mu.Lock()
	c, ok := l.contents[rev.ID]
	l.mu.Unlock()
	if ok {
		return c, nil
	}
	c, err := r.decoded.Load(ctx, r.objects(), roots(rev))
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.contents[rev.ID] = c
	l.mu.Unlock()
	return c, nil
}

// RevisionContent returns the content of a revision the viewer can see, for
// /v1, which presents revisions whole.
func (r *Resolver) RevisionContent(ctx context.Context, rev *ent.Revision) (*content.Content, error) {
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	return c.Content, nil
}

// contentError turns an error of package content into an application error.
func contentError(err error, what string) error {
	var inv *content.InvalidError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &inv):
		return apperr.Invalid(inv.Field, "%s", inv.Msg)
	case errors.Is(err, content.ErrNotFound):
		return apperr.NotFoundf("%s not found", what)
	}
	return err
}

func (r *Resolver) revisionPages(ctx context.Context, rev *ent.Revision) ([]*model.RevisionPage, error) {
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	return model.RevisionPages(rev, c.Content, c.Pages, ""), nil
}

// revisionPage returns a page by ID, or nil when the revision has none.
func (r *Resolver) revisionPage(ctx context.Context, rev *ent.Revision, pageID string) (*model.RevisionPage, error) {
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	return pageOf(rev, c.Content, pageID), nil
}

// pageOf wraps the page with the given ID of c, the content of rev, or
// returns nil.
func pageOf(rev *ent.Revision, c *content.Content, pageID string) *model.RevisionPage {
	n, _, _, err := c.Find(pageID)
	if err != nil {
		return nil
	}
	path, _ := c.Path(pageID)
	return model.NewRevisionPage(rev, c, n, path)
}

// pageDocument is a page's JSON document, the one /v1 gives for
// format=document; nil for groups and links.
func pageDocument(p *model.RevisionPage) (model.JSON, error) {
	d, err := PageDocument(p)
	if err != nil || d == nil {
		return nil, err
	}
	return model.NewJSON(d)
}

// PageDocument is a page's document, which both APIs present and the
// reader of published sites renders; nil for groups and links.
func PageDocument(p *model.RevisionPage) (*document.Document, error) {
	return document.FromPage(p.In(), p.Node.Page)
}

func (r *Resolver) revisionPageByPath(ctx context.Context, rev *ent.Revision, path string) (*model.RevisionPage, error) {
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	n, err := c.ByPath(path)
	if err != nil {
		return nil, nil
	}
	return pageOf(rev, c.Content, n.Page.ID), nil
}

func (r *Resolver) revisionFiles(ctx context.Context, rev *ent.Revision) ([]*model.RevisionFile, error) {
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	out := make([]*model.RevisionFile, len(c.Files))
	for i, f := range c.Files {
		out[i] = r.fileModel(rev, f)
	}
	return out, nil
}

func (r *Resolver) revisionFile(ctx context.Context, rev *ent.Revision, fileID string) (*model.RevisionFile, error) {
	c, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	f, err := c.File(fileID)
	if err != nil {
		return nil, nil
	}
	return r.fileModel(rev, f), nil
}

// fileModel presents a file of rev with a download URL signed for an hour.
func (r *Resolver) fileModel(rev *ent.Revision, f *content.File) *model.RevisionFile {
	out := &model.RevisionFile{
		ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: f.Size,
		DownloadURL: r.FileURL(rev.SpaceID, f), Blob: f.Blob, Revision: rev,
	}
	if f.Width > 0 && f.Height > 0 {
		w, h := f.Width, f.Height
		out.Width, out.Height = &w, &h
	}
	return out
}

// SignedURLTTL is how long a signed file or PDF URL works.
const SignedURLTTL = time.Hour

// FileURL is the signed URL that serves a file's bytes (see server's files
// route): the capability to read it, handed only to those who can read the
// revision.
func (r *Resolver) FileURL(spaceID string, f *content.File) string {
	path := "/files/" + spaceID + "/" + f.Blob + "/" + url.PathEscape(f.Name)
	q := r.signer.Sign(path, url.Values{"type": {f.ContentType}}, r.clock().Add(SignedURLTTL))
	return r.cfg.PublicURL + path + "?" + q.Encode()
}

func (r *Resolver) revisionURLs(rev *ent.Revision) *model.RevisionURLs {
	return &model.RevisionURLs{
		Location: r.cfg.PublicURL + "/v1/spaces/" + rev.SpaceID + "/revisions/" + rev.ID,
		App:      r.cfg.AppURL + "/s/" + rev.SpaceID + "/~/revisions/" + rev.ID,
	}
}

// changeRequestNumber reads a /v1 change request reference: an ID, or the
// number of the change request in its space.
func changeRequestNumber(ref string) (int, bool) {
	n, err := strconv.Atoi(ref)
	return n, err == nil && n > 0
}

// revisionMergedFrom returns the change request whose merge made rev, or nil
// when rev is not a merge: one query, on the indexed revision_merged_id.
// A merge's parents cannot always tell: a change request merged without an
// edit of its own has no revision of its own, so both parents belong to the
// main content.
func (r *Resolver) revisionMergedFrom(ctx context.Context, rev *ent.Revision) (*ent.ChangeRequest, error) {
	if rev.Type != enum.RevisionTypeMerge {
		return nil, nil
	}
	cr, err := load(ctx, loadersFrom(ctx).mergedFrom(), rev.ID)
	if err != nil || cr == nil {
		return nil, err
	}
	// Shown through its policy all the same, which the primed row and the
	// space loaded already make free of statements.
	cr, _, err = r.changeRequests.get(ctx, cr.ID)
	return cr, err
}

// loadMergedFrom finds the change requests whose merges made revisions: one
// indexed query for any number of revisions.
func (r *Resolver) loadMergedFrom(ctx context.Context, revIDs []string) (map[string]*ent.ChangeRequest, error) {
	// The callers read the revisions, so their spaces, which are the change
	// requests'.
	crs, err := r.db(ctx).ChangeRequest.Query().Where(changerequest.RevisionMergedIDIn(revIDs...)).All(within(ctx))
	if err != nil {
		return nil, fmt.Errorf("finding merged change requests: %w", err)
	}
	l := r.changeRequests.loader(ctx)
	out := make(map[string]*ent.ChangeRequest, len(crs))
	for _, cr := range crs {
		l.Prime(ctx, cr.ID, cr)
		out[*cr.RevisionMergedID] = cr
	}
	return out, nil
}

// RevisionInSpace returns a revision of a space the viewer can see.
func (r *Resolver) RevisionInSpace(ctx context.Context, spaceID, revID string) (*ent.Revision, error) {
	if _, _, err := r.spaces.get(ctx, spaceID); err != nil {
		return nil, err
	}
	rev, err := r.revisionByID(ctx, revID)
	if err == nil && rev.SpaceID != spaceID {
		return nil, apperr.NotFoundf("Revision not found")
	}
	return rev, err
}

// SpaceRevision returns the current revision of a space the viewer can see.
func (r *Resolver) SpaceRevision(ctx context.Context, spaceID string) (*ent.Revision, error) {
	s, _, err := r.spaces.get(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return r.revisionByID(ctx, deref(s.RevisionID))
}
