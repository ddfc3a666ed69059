package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/validate"
)

// check runs a validation of package validate on an input field.
func check(field string, fn func(string) error, v string) error {
	if err := fn(v); err != nil {
		return apperr.Invalid(field, "%s", err.Error())
	}
	return nil
}

// pagePlace is a page's place among its siblings, from a position input
// that may be absent (see content.Index).
func pagePlace(sibs []*content.Node, pos *model.PagePositionInput, self string) (int, error) {
	if pos == nil {
		return -1, nil
	}
	return content.Index(sibs, pos.Before, pos.After, self)
}

// pageFields are the editable fields shared by create and update.
type pageFields struct {
	title, slug, emoji, icon, description, markdown *string
}

func (f pageFields) check() error {
	checks := []struct {
		field string
		fn    func(string) error
		v     *string
	}{
		{"title", validate.PageTitle, f.title}, {"slug", validate.PageSlug, f.slug},
		{"emoji", validate.Emoji, f.emoji}, {"icon", validate.IconName, f.icon},
		{"description", validate.PageDescription, f.description},
	}
	for _, c := range checks {
		if c.v != nil {
			if err := check(c.field, c.fn, *c.v); err != nil {
				return err
			}
		}
	}
	if f.markdown != nil && len(*f.markdown) > validate.MaxMarkdownBytes {
		return apperr.Invalid("markdown", "must be at most %d bytes", validate.MaxMarkdownBytes)
	}
	return nil
}

func (r *Resolver) createPage(ctx context.Context, in model.CreatePageInput) (*ent.Revision, *model.RevisionPage, error) {
	typ := enum.PageTypeDocument
	if in.Type != nil {
		typ = *in.Type
	}
	title := strings.TrimSpace(in.Title)
	f := pageFields{title: &title, slug: in.Slug, emoji: in.Emoji, icon: in.Icon, description: in.Description, markdown: in.Markdown}
	if err := f.check(); err != nil {
		return nil, nil, err
	}
	if typ != enum.PageTypeDocument && in.Markdown != nil {
		return nil, nil, apperr.Invalid("markdown", "only document pages have markdown")
	}
	if typ != enum.PageTypeLink && (in.Href != nil || in.TargetPageID != nil) {
		return nil, nil, apperr.Invalid("href", "only link pages have a target")
	}
	now := r.clock()
	p := &content.Page{
		ID: newPageID(), Type: typ, Title: title, Slug: content.Slugify(title),
		Emoji: deref(in.Emoji), Icon: deref(in.Icon), Description: deref(in.Description), Markdown: deref(in.Markdown),
		Hidden: deref(in.Hidden), NoIndex: deref(in.NoIndex), NoRobotsIndex: deref(in.NoRobotsIndex),
		CreatedAt: now, UpdatedAt: now,
	}
	if in.Slug != nil {
		p.Slug = *in.Slug
	}
	rev, c, err := r.edit(ctx, targetOf(in.SpaceID, in.ChangeRequestID, in.ExpectedRevisionID), "Create page "+title,
		func(_ context.Context, _ *editTarget, c *content.Content) error {
			if typ == enum.PageTypeLink {
				t, err := c.LinkTarget(in.Href, in.TargetPageID)
				if err != nil {
					return contentError(err, "Page")
				}
				p.Target = t
			}
			sibs, err := c.Children(deref(in.ParentPageID))
			if err != nil {
				return contentError(err, "Page")
			}
			i, err := pagePlace(sibs, in.Position, "")
			if err != nil {
				return contentError(err, "Page")
			}
			return contentError(c.Insert(deref(in.ParentPageID), i, &content.Node{Page: p}), "Page")
		})
	if err != nil {
		return nil, nil, err
	}
	return rev, pageOf(rev, c, p.ID), nil
}

func targetOf(spaceID, crID, expected *string) targetInput {
	return targetInput{SpaceID: spaceID, ChangeRequestID: crID, ExpectedRevisionID: expected}
}

// findPage returns a page of the content being edited, a fork, as the
// fork's own copy to change, with its parent.
func findPage(c *content.Content, pageID string) (*content.Node, *content.Node, error) {
	n, parent, err := c.Edit(pageID)
	if err != nil {
		return nil, nil, apperr.NotFoundf("Page not found")
	}
	return n, parent, nil
}

func (r *Resolver) updatePage(ctx context.Context, in model.UpdatePageInput) (*ent.Revision, *model.RevisionPage, error) {
	f := pageFields{title: in.Title, slug: in.Slug}
	f.emoji, _ = in.Emoji.ValueOK()
	f.icon, _ = in.Icon.ValueOK()
	f.description, _ = in.Description.ValueOK()
	if in.Title != nil {
		t := strings.TrimSpace(*in.Title)
		f.title = &t
	}
	if err := f.check(); err != nil {
		return nil, nil, err
	}
	rev, c, err := r.edit(ctx, targetOf(in.SpaceID, in.ChangeRequestID, in.ExpectedRevisionID), "Update page "+in.PageID,
		func(_ context.Context, _ *editTarget, c *content.Content) error {
			n, parent, err := findPage(c, in.PageID)
			if err != nil {
				return err
			}
			p := n.Page
			if f.title != nil {
				p.Title = *f.title
			}
			if in.Slug != nil {
				sibs := c.Pages
				if parent != nil {
					sibs = parent.Children
				}
				if content.UniqueSlug(sibs, *in.Slug, p.ID) != *in.Slug {
					return apperr.Conflictf("Another page under the same parent has the slug %q", *in.Slug)
				}
				p.Slug = *in.Slug
			}
			setString(in.Emoji, &p.Emoji)
			setString(in.Icon, &p.Icon)
			setString(in.Description, &p.Description)
			setBool(in.Hidden, &p.Hidden)
			setBool(in.NoIndex, &p.NoIndex)
			setBool(in.NoRobotsIndex, &p.NoRobotsIndex)
			if err := updateLayout(p, in.Layout); err != nil {
				return err
			}
			if err := updateCover(c, p, in.Cover); err != nil {
				return err
			}
			if in.Href != nil || in.TargetPageID != nil {
				if p.Type != enum.PageTypeLink {
					return apperr.Invalid("href", "only link pages have a target")
				}
				if p.Target, err = c.LinkTarget(in.Href, in.TargetPageID); err != nil {
					return contentError(err, "Page")
				}
			}
			p.UpdatedAt = r.clock()
			return nil
		})
	if err != nil {
		return nil, nil, err
	}
	return rev, pageOf(rev, c, in.PageID), nil
}

func setString(o graphql.Omittable[*string], dst *string) {
	if v, ok := o.ValueOK(); ok {
		*dst = deref(v)
	}
}

func setBool(v *bool, dst *bool) {
	if v != nil {
		*dst = *v
	}
}

func updateLayout(p *content.Page, o graphql.Omittable[*model.PageLayoutInput]) error {
	in, ok := o.ValueOK()
	if !ok {
		return nil
	}
	if p.Type != enum.PageTypeDocument {
		return apperr.Invalid("layout", "only document pages have a layout")
	}
	if in == nil {
		p.Layout = nil
		return nil
	}
	l := content.DefaultLayout()
	if p.Layout != nil {
		l = *p.Layout
	}
	if in.Width != nil {
		l.Width = *in.Width
	}
	if in.CoverSize != nil {
		l.CoverSize = *in.CoverSize
	}
	for _, b := range []struct {
		v   *bool
		dst *bool
	}{{in.Cover, &l.Cover}, {in.Title, &l.Title}, {in.Description, &l.Description},
		{in.TableOfContents, &l.TableOfContents}, {in.Outline, &l.Outline},
		{in.Pagination, &l.Pagination}, {in.Metadata, &l.Metadata}} {
		setBool(b.v, b.dst)
	}
	p.Layout = &l
	return nil
}

func updateCover(c *content.Content, p *content.Page, o graphql.Omittable[*model.PageCoverInput]) error {
	in, ok := o.ValueOK()
	if !ok {
		return nil
	}
	if in == nil {
		p.Cover = nil
		return nil
	}
	cv := &content.Cover{YPos: deref(in.YPos)}
	switch {
	case (in.FileID == nil) == (in.URL == nil):
		return apperr.Invalid("cover", "give either fileId or url")
	case in.FileID != nil:
		if _, err := c.File(*in.FileID); err != nil {
			return apperr.Invalid("cover", "file %q is not in the content", *in.FileID)
		}
		cv.Ref = content.Ref{Kind: "file", File: *in.FileID}
	default:
		if err := check("cover", validate.URL(2048), *in.URL); err != nil {
			return err
		}
		cv.Ref = content.Ref{Kind: "url", URL: *in.URL}
	}
	p.Cover = cv
	return nil
}

func (r *Resolver) movePage(ctx context.Context, in model.MovePageInput) (*ent.Revision, *model.RevisionPage, error) {
	rev, c, err := r.edit(ctx, targetOf(in.SpaceID, in.ChangeRequestID, in.ExpectedRevisionID), "Move page "+in.PageID,
		func(_ context.Context, _ *editTarget, c *content.Content) error {
			_, parent, err := findPage(c, in.PageID)
			if err != nil {
				return err
			}
			dest := ""
			if parent != nil {
				dest = parent.Page.ID
			}
			if v, ok := in.ParentPageID.ValueOK(); ok {
				dest = deref(v)
			}
			sibs, err := c.Children(dest)
			if err != nil {
				return contentError(err, "Page")
			}
			i, err := pagePlace(sibs, in.Position, in.PageID)
			if err != nil {
				return contentError(err, "Page")
			}
			return contentError(c.Move(in.PageID, dest, i), "Page")
		})
	if err != nil {
		return nil, nil, err
	}
	return rev, pageOf(rev, c, in.PageID), nil
}

func (r *Resolver) deletePage(ctx context.Context, in model.DeletePageInput) (*ent.Revision, error) {
	rev, _, err := r.edit(ctx, targetOf(in.SpaceID, in.ChangeRequestID, in.ExpectedRevisionID), "Delete page "+in.PageID,
		func(_ context.Context, _ *editTarget, c *content.Content) error {
			if _, _, err := findPage(c, in.PageID); err != nil {
				return err
			}
			_, err := c.Remove(in.PageID)
			return err
		})
	return rev, err
}

func (r *Resolver) setPageMarkdown(ctx context.Context, in model.SetPageMarkdownInput) (*ent.Revision, *model.RevisionPage, error) {
	if err := (pageFields{markdown: &in.Markdown}).check(); err != nil {
		return nil, nil, err
	}
	rev, c, err := r.edit(ctx, targetOf(in.SpaceID, in.ChangeRequestID, in.ExpectedRevisionID), "Edit page "+in.PageID,
		func(_ context.Context, _ *editTarget, c *content.Content) error {
			n, _, err := findPage(c, in.PageID)
			if err != nil {
				return err
			}
			if n.Page.Type != enum.PageTypeDocument {
				return apperr.Invalid("pageId", "only document pages have markdown")
			}
			n.Page.Markdown = in.Markdown
			n.Page.UpdatedAt = r.clock()
			return nil
		})
	if err != nil {
		return nil, nil, err
	}
	return rev, pageOf(rev, c, in.PageID), nil
}
