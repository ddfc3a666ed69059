package graph

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strconv"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/pdf"
)

// This file serves what signed URLs point at. A signed URL is a capability:
// it was handed out, for one hour, to a viewer allowed to read the content,
// so serving it checks the signature (see server) and that the content still
// exists, not the bearer.

// changeRequestPDFURL is the signed URL of a change request's content as a PDF. The URL
// names the change request's current revision, so it prints the content as
// it was when the URL was made.
func (r *Resolver) changeRequestPDFURL(ctx context.Context, cr *ent.ChangeRequest, pageID *string, only bool) (string, error) {
	if pageID != nil {
		rev, err := r.revisionByID(ctx, cr.RevisionID)
		if err != nil {
			return "", err
		}
		c, err := r.contentOf(ctx, rev)
		if err != nil {
			return "", err
		}
		if _, _, _, err := c.Find(*pageID); err != nil {
			return "", apperr.Invalid("page", "page %q is not in the change request's content", *pageID)
		}
	} else if only {
		return "", apperr.Invalid("only", "only needs a page")
	}
	path := "/pdf/" + cr.SpaceID + "/" + cr.RevisionID
	params := url.Values{}
	if pageID != nil {
		params.Set("page", *pageID)
		params.Set("only", strconv.FormatBool(only))
	}
	q := r.signer.Sign(path, params, r.clock().Add(SignedURLTTL))
	return r.cfg.PublicURL + path + "?" + q.Encode(), nil
}

// errGone is content a signed URL pointed at that no longer exists.
var errGone = apperr.NotFoundf("The content no longer exists")

// RenderPDF renders a revision of a space, or one page of it with its nested
// pages, or the page alone, as a PDF.
func (r *Resolver) RenderPDF(ctx context.Context, spaceID, revID, pageID string, only bool) ([]byte, error) {
	ctx = internal(ctx, "a signed URL is the capability")
	rev, err := r.client.Revision.Get(ctx, revID)
	if err != nil || rev.SpaceID != spaceID {
		return nil, errGone
	}
	s, err := r.client.Space.Query().Where(space.ID(spaceID), space.DeletedAtIsNil()).Only(ctx)
	if err != nil {
		return nil, errGone
	}
	c, err := r.decoded.Load(ctx, r.objects(), roots(rev))
	if err != nil {
		return nil, err
	}
	nodes, depth := c.Pages, 0
	if pageID != "" {
		n, _, _, err := c.Find(pageID)
		if err != nil {
			return nil, errGone
		}
		nodes = []*content.Node{n}
		if only {
			nodes = []*content.Node{{Page: n.Page}}
		}
	}
	var pages []pdf.Page
	var walk func([]*content.Node, int)
	walk = func(ns []*content.Node, d int) {
		for _, n := range ns {
			if n.Page.Type != enum.PageTypeLink {
				pages = append(pages, pdf.Page{Title: n.Page.Title, Depth: d, Markdown: n.Page.Markdown})
			}
			walk(n.Children, d+1)
		}
	}
	walk(nodes, depth)
	title := s.Title
	if cr, err := r.client.ChangeRequest.Query().Where(changerequest.RevisionID(revID)).First(ctx); err == nil && cr.Subject != "" {
		title += ": " + cr.Subject
	}
	var buf bytes.Buffer
	if err := pdf.Render(&buf, title, pages); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// FileBlob returns the bytes of a file of a space. The signature covered the
// space and the blob; the space must still exist.
func (r *Resolver) FileBlob(ctx context.Context, spaceID, blob string) ([]byte, error) {
	ctx = internal(ctx, "a signed URL is the capability")
	ok, err := r.client.Space.Query().Where(space.ID(spaceID), space.DeletedAtIsNil()).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errGone
	}
	objs, err := r.objects().Get(ctx, []string{blob})
	if err != nil {
		return nil, err
	}
	o, found := objs[blob]
	if !found || o.Kind != enum.ObjectKindFile {
		return nil, errGone
	}
	return o.Data, nil
}

// IsGone reports whether err means the content behind a signed URL is gone.
func IsGone(err error) bool { return errors.Is(err, errGone) }
