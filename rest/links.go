package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
)

// Link analysis: the links of a revision's pages and the pages that use a
// file, through the field resolvers of GraphQL's Revision.links,
// RevisionPage.links and RevisionFile.backlinks.

// linksJSON is the official list of ContentReferenceUsage with its stats
// (ContentReferencesStats, which GraphQL's stats are member for member).
// count is the number of targets of the status asked for (all without
// one); stats count every target of the list's scope whatever the status.
type linksJSON struct {
	listJSON[usageJSON]
	Stats *model.ContentReferencesStats `json:"stats"`
}

// usageJSON is the official ContentReferenceUsage.
type usageJSON struct {
	Status   enum.ContentReferenceStatus   `json:"status"`
	Relation enum.ContentReferenceRelation `json:"relation"`
	// TargetReference is where the target is: a page (with the anchor), a
	// file or a URL. A page or file the revision does not have has no
	// location: a broken target written in markdown shows its destination
	// as written, as a URL; a broken link page's target or cover, none.
	TargetReference    *locationJSON  `json:"targetReference,omitempty"`
	LocationReferences []locationJSON `json:"locationReferences"`
}

// locationJSON is the official ContentLocation of kind page, file or url.
type locationJSON struct {
	Kind             string                `json:"kind"`
	URL              string                `json:"url,omitempty"`
	Organization     *organizationJSON     `json:"organization,omitempty"`
	Space            *spaceJSON            `json:"space,omitempty"`
	Page             *pageJSON             `json:"page,omitempty"`
	File             *fileJSON             `json:"file,omitempty"`
	InternalLocation *internalLocationJSON `json:"internalLocation,omitempty"`
	// VersionContext is the change request of a change request's content.
	// The main content's locations have none: it is the content a space
	// shows, and the official RevisionContext would embed the whole
	// revision in every location.
	VersionContext *versionContextJSON `json:"versionContext,omitempty"`
}

type internalLocationJSON struct {
	Type   string `json:"type"`
	Anchor string `json:"anchor"`
}

type versionContextJSON struct {
	Type          string             `json:"type"`
	ChangeRequest *changeRequestJSON `json:"changeRequest"`
}

// locationPresenter presents locations in one revision: its space and
// organization, and its change request, are presented once for all.
type locationPresenter struct {
	a       *API
	o       contentOptions
	pages   pagePresenter
	org     *organizationJSON
	space   *spaceJSON
	version *versionContextJSON
}

func (a *API) locationPresenter(ctx context.Context, rev *ent.Revision, o contentOptions) (*locationPresenter, error) {
	lp := &locationPresenter{a: a, o: o}
	s, err := a.r.Revision().Space(ctx, rev)
	if err != nil {
		return nil, err
	}
	sj, err := a.presentSpace(ctx, s)
	if err != nil {
		return nil, err
	}
	lp.space = &sj
	org, err := a.r.Space().Organization(ctx, s)
	if err != nil {
		return nil, err
	}
	if org == nil {
		return nil, apperr.NotFoundf("Organization not found")
	}
	oj, err := a.presentOrganization(ctx, org)
	if err != nil {
		return nil, err
	}
	lp.org = &oj
	if lp.pages, err = a.pagePresenter(ctx, rev, o); err != nil {
		return nil, err
	}
	cr, err := a.r.Revision().ChangeRequest(ctx, rev)
	if err != nil || cr == nil {
		return lp, err
	}
	crj, err := a.presentChangeRequest(ctx, cr)
	if err != nil {
		return nil, err
	}
	lp.version = &versionContextJSON{Type: "changeRequest", ChangeRequest: &crj}
	return lp, nil
}

// page is a page's location, at an anchor when anchor is set.
func (lp *locationPresenter) page(p *model.RevisionPage, anchor *string) locationJSON {
	pj := lp.pages.page(p)
	j := locationJSON{Kind: "page", Organization: lp.org, Space: lp.space, Page: &pj, VersionContext: lp.version}
	if anchor != nil {
		j.InternalLocation = &internalLocationJSON{Type: "anchor", Anchor: *anchor}
	}
	return j
}

func (lp *locationPresenter) file(f *model.RevisionFile) locationJSON {
	fj := lp.a.presentFile(f, lp.o)
	return locationJSON{Kind: "file", Organization: lp.org, Space: lp.space, File: &fj, VersionContext: lp.version}
}

// usage presents a usage as the field resolvers of GraphQL's
// ContentReferenceUsage give it.
func (lp *locationPresenter) usage(ctx context.Context, u *model.ContentReferenceUsage) (usageJSON, error) {
	res := lp.a.r.ContentReferenceUsage()
	j := usageJSON{Status: u.Status(), Relation: u.Relation()}
	pages, err := res.Locations(ctx, u)
	if err != nil {
		return j, err
	}
	j.LocationReferences = make([]locationJSON, len(pages))
	for i, p := range pages {
		j.LocationReferences[i] = lp.page(p, nil)
	}
	var target *locationJSON
	switch u.Kind() {
	case enum.ContentReferenceKindPage, enum.ContentReferenceKindAnchor:
		p, err := res.Page(ctx, u)
		if err != nil {
			return j, err
		}
		if p != nil {
			t := lp.page(p, u.Anchor())
			target = &t
		}
	case enum.ContentReferenceKindFile:
		f, err := res.File(ctx, u)
		if err != nil {
			return j, err
		}
		if f != nil {
			t := lp.file(f)
			target = &t
		}
	case enum.ContentReferenceKindUrl:
		target = &locationJSON{Kind: "url", URL: *u.URL()}
	}
	if target == nil && u.Href() != nil {
		target = &locationJSON{Kind: "url", URL: *u.Href()}
	}
	j.TargetReference = target
	return j, nil
}

// linkStatus reads the status filter of a links list.
func (p params) linkStatus() (*enum.ContentReferenceStatus, error) {
	s := p.query("status")
	if s == nil {
		return nil, nil
	}
	st, err := enum.ParseContentReferenceStatus(*s)
	if err != nil {
		return nil, apperr.Invalid("status", "%s", err.Error())
	}
	return &st, nil
}

// linkList lists the links of the revision that src resolves: of all its
// pages, or of the page the path names (byPage).
func linkList(byPage bool) contentRead {
	return func(p params, src revisionSource, o contentOptions) (any, error) {
		status, err := p.linkStatus()
		if err != nil {
			return nil, err
		}
		args, rev, err := p.listed(src)
		if err != nil {
			return nil, err
		}
		ctx := p.ctx()
		var conn *model.ContentReferenceUsageConnection
		if byPage {
			pg, err := found(pageByID(p, rev))("Page")
			if err != nil {
				return nil, err
			}
			conn, err = p.a.r.RevisionPage().Links(ctx, pg, status, args.First, args.After)
			if err != nil {
				return nil, err
			}
		} else if conn, err = p.a.r.Revision().Links(ctx, rev, status, args.First, args.After); err != nil {
			return nil, err
		}
		lp, err := p.a.locationPresenter(ctx, rev, o)
		if err != nil {
			return nil, err
		}
		l, err := presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount, lp.usage)
		if err != nil {
			return nil, err
		}
		stats, err := p.a.r.ContentReferenceUsageConnection().Stats(ctx, conn)
		if err != nil {
			return nil, err
		}
		return linksJSON{listJSON: l, Stats: stats}, nil
	}
}

// fileBacklinks lists the pages of the revision that src resolves that use
// the file the path names.
func fileBacklinks(p params, src revisionSource, o contentOptions) (any, error) {
	args, rev, err := p.listed(src)
	if err != nil {
		return nil, err
	}
	ctx := p.ctx()
	f, err := found(fileByID(p, rev))("File")
	if err != nil {
		return nil, err
	}
	conn, err := p.a.r.RevisionFile().Backlinks(ctx, f, args.First, args.After)
	if err != nil {
		return nil, err
	}
	lp, err := p.a.locationPresenter(ctx, rev, o)
	if err != nil {
		return nil, err
	}
	return presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount,
		func(_ context.Context, pg *model.RevisionPage) (locationJSON, error) { return lp.page(pg, nil), nil })
}
