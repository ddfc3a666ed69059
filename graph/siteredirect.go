package graph

import (
	"context"
	"net/url"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/siteredirect"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/validate"
)

// A site's redirects send the visitors of a path of the site (its source) to
// a section, a site-space or a page of a site-space of the same site, or to
// an absolute URL elsewhere (its destination: the official
// SiteRedirectDestination object, and Bindery's kind url).
//
// The rules:
//   - A source is a path of the site, as the official pattern has it
//     (/docs/old-page: a leading slash, no trailing slash, no query string),
//     at most 512 characters, unique within its site: another redirect's
//     source is a 409 (the unique index refuses it; no statement checks
//     first).
//   - A destination names a section or site-space of the redirect's site,
//     and a page of the site-space's space for a page, or is an absolute
//     http or https URL of at most 2048 characters (kind url); anything else
//     is a 400.
//   - Resolving a visited path (Site.redirect, GET .../redirect) matches the
//     normalized path exactly: a leading slash is added when missing, and the
//     query string, the fragment and trailing slashes are removed, as GitBook
//     matches a visited URL's path against its redirects' sources. The match
//     is case-sensitive.
//   - The target is the destination's absolute address under the site's
//     published address (see sitePublishedURL), or the URL of kind url.

// redirectsByCreation orders a site's redirects, oldest first.
var redirectsByCreation = page.Order[*ent.SiteRedirect, predicate.SiteRedirect, siteredirect.OrderOption]{
	Name: "site-redirects", Column: siteredirect.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(x *ent.SiteRedirect) any { return x.CreatedAt }, ID: func(x *ent.SiteRedirect) string { return x.ID },
}

// Destination kinds of a redirect. The first three are the official
// SiteRedirectDestination's. redirectToURL is beyond the official spec:
// a product decision adds it, so a /v1 answer holding it is
// described by Bindery's own OpenAPI document (rest/openapi.json, marked
// x-bindery-extension), not by the official one.
const (
	redirectToSection   = "site-section"
	redirectToSiteSpace = "site-space"
	redirectToPage      = "site-page"
	redirectToURL       = "url"
)

func (r *Resolver) siteRedirects(ctx context.Context, s *ent.Site, a page.Args) (*model.SiteRedirectConnection, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.View); err != nil {
		return nil, err
	}
	conn, err := page.Paginate(within(ctx), r.db(ctx).SiteRedirect.Query().Where(siteredirect.SiteID(s.ID)), redirectsByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.redirects.loader(ctx)
	for _, x := range conn.Nodes() {
		l.Prime(ctx, x.ID, x)
	}
	return model.NewSiteRedirectConnection(conn), nil
}

// SiteRedirectOf loads a redirect of a site, for /v1's paths: not found when
// it is another site's.
func (r *Resolver) SiteRedirectOf(ctx context.Context, siteID, redirectID string) (*ent.SiteRedirect, error) {
	x, _, err := r.redirects.get(ctx, redirectID)
	if err == nil && x.SiteID != siteID {
		return nil, r.redirects.notFound()
	}
	return x, err
}

func redirectDestination(x *ent.SiteRedirect) *model.SiteRedirectDestination {
	d := x.Destination
	opt := func(k string) *string {
		if v, ok := d[k]; ok && v != "" {
			return &v
		}
		return nil
	}
	return &model.SiteRedirectDestination{Kind: d["kind"], SiteSectionID: opt("siteSectionId"),
		SiteSpaceID: opt("siteSpaceId"), PageID: opt("pageId"), URL: opt("url")}
}

// checkDestination checks a destination against the site s and returns it
// as stored.
func (r *Resolver) checkDestination(ctx context.Context, s *ent.Site, in *model.SiteRedirectDestinationInput) (map[string]string, error) {
	const field = "destination"
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	sec, ss, pg, u := str(in.SiteSectionID), str(in.SiteSpaceID), str(in.PageID), str(in.URL)
	if in.Kind != redirectToURL && u != "" {
		return nil, apperr.Invalid(field+".url", `is only for the kind "url"`)
	}
	switch in.Kind {
	case redirectToURL:
		if sec != "" || ss != "" || pg != "" {
			return nil, apperr.Invalid(field, `must be {"kind": "url", "url": "<absolute URL>"}`)
		}
		if err := check(field+".url", validate.RedirectURL, u); err != nil {
			return nil, err
		}
		return map[string]string{"kind": in.Kind, "url": u}, nil
	case redirectToSection:
		if sec == "" || ss != "" || pg != "" {
			return nil, apperr.Invalid(field, `must be {"kind": "site-section", "siteSectionId": "<ID>"}`)
		}
		if x, err := r.SiteSectionOf(ctx, s.ID, sec); err != nil || x == nil {
			return nil, apperr.Invalid(field+".siteSectionId", "%q is not a section of the site", sec)
		}
		return map[string]string{"kind": in.Kind, "siteSectionId": sec}, nil
	case redirectToSiteSpace, redirectToPage:
		if ss == "" || sec != "" || (in.Kind == redirectToSiteSpace) != (pg == "") {
			if in.Kind == redirectToSiteSpace {
				return nil, apperr.Invalid(field, `must be {"kind": "site-space", "siteSpaceId": "<ID>"}`)
			}
			return nil, apperr.Invalid(field, `must be {"kind": "site-page", "siteSpaceId": "<ID>", "pageId": "<ID>"}`)
		}
		x, err := r.SiteSpaceOf(ctx, s.ID, ss)
		if err != nil {
			return nil, apperr.Invalid(field+".siteSpaceId", "%q is not a site-space of the site", ss)
		}
		if in.Kind == redirectToSiteSpace {
			return map[string]string{"kind": in.Kind, "siteSpaceId": ss}, nil
		}
		p, err := r.siteSpacePage(ctx, x, pg)
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, apperr.Invalid(field+".pageId", "%q is not a page of the site-space's space", pg)
		}
		return map[string]string{"kind": in.Kind, "siteSpaceId": ss, "pageId": pg}, nil
	}
	return nil, apperr.Invalid(field+".kind", `must be "site-section", "site-space", "site-page" or "url"`)
}

// siteSpacePage is a page of the current revision of a site-space's space;
// nil when there is none, or the viewer cannot see the space.
func (r *Resolver) siteSpacePage(ctx context.Context, ss *ent.SiteSpace, pageID string) (*model.RevisionPage, error) {
	rev, err := r.SpaceRevision(ctx, ss.SpaceID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return r.revisionPage(ctx, rev, pageID)
}

// saveRedirect maps the violation of the unique index of (site, source) to
// a 409 naming the source.
func saveRedirect(err error, source string) error {
	if ent.IsConstraintError(err) {
		return apperr.Conflictf("Another redirect of the site has the source %q", source)
	}
	return err
}

func (r *Resolver) createSiteRedirect(ctx context.Context, in model.CreateSiteRedirectInput) (*ent.SiteRedirect, error) {
	return mutate(ctx, r, r.sites, in.SiteID, authz.Update, func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.SiteRedirect, error) {
		dest, err := r.checkDestination(ctx, s, in.Destination)
		if err != nil {
			return nil, err
		}
		// The unique index of (site, source) refuses another redirect's
		// source, on both databases: no statement checks it first.
		x, err := r.db(ctx).SiteRedirect.Create().SetSiteID(s.ID).SetSource(in.Source).SetDestination(dest).Save(ctx)
		if err != nil {
			return nil, saveRedirect(err, in.Source)
		}
		r.sites.wrote(ctx, s)
		r.redirects.wrote(ctx, x)
		return x, nil
	})
}

func (r *Resolver) updateSiteRedirect(ctx context.Context, in model.UpdateSiteRedirectInput) (*ent.SiteRedirect, error) {
	return mutate(ctx, r, r.redirects, in.ID, authz.Update, func(ctx context.Context, x *ent.SiteRedirect, _ authz.Decision) (*ent.SiteRedirect, error) {
		u := x.Update()
		if in.Destination != nil {
			s, _, err := r.sites.get(ctx, x.SiteID)
			if err != nil {
				return nil, err
			}
			dest, err := r.checkDestination(ctx, s, in.Destination)
			if err != nil {
				return nil, err
			}
			u.SetDestination(dest)
		}
		if in.Source != nil {
			u.SetSource(*in.Source)
		}
		x, err := u.Save(internal(ctx, "the redirect its site's admin changes"))
		return x, saveRedirect(err, deref(in.Source))
	})
}

func (r *Resolver) deleteSiteRedirect(ctx context.Context, in model.DeleteSiteRedirectInput) error {
	return act(ctx, r, r.redirects, in.ID, authz.Delete, func(ctx context.Context, x *ent.SiteRedirect, _ authz.Decision) error {
		ctx = internal(ctx, "the redirects of a site its admin changes")
		return r.db(ctx).SiteRedirect.DeleteOne(x).Exec(ctx)
	})
}

// normalizeRedirectSource turns a visited path into the form sources are
// saved in (see the rules above).
func normalizeRedirectSource(path string) string {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimRight(path, "/")
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return path
}

// resolveSiteRedirect resolves a visited path of a site to its redirect and
// target; nil when no redirect has that source. The share key admitted the
// reader to the site when it was read (Query.site, /v1's site paths), so the
// field's own shareKey has nothing left to do.
func (r *Resolver) resolveSiteRedirect(ctx context.Context, s *ent.Site, source string, _ *string) (*model.SiteRedirectResolution, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.View); err != nil {
		return nil, err
	}
	source = normalizeRedirectSource(source)
	if err := check("source", validate.RedirectSource, source); err != nil {
		return nil, err
	}
	x, err := r.db(ctx).SiteRedirect.Query().Where(siteredirect.SiteID(s.ID), siteredirect.Source(source)).Only(within(ctx))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r.redirects.loader(ctx).Prime(ctx, x.ID, x)
	target, err := r.redirectTarget(ctx, s, x)
	if err != nil {
		return nil, err
	}
	return &model.SiteRedirectResolution{Redirect: x, Target: target}, nil
}

// redirectTarget is the absolute address of a redirect's destination under
// its site's published address. A destination whose section, site-space or
// page is gone (or that the viewer cannot see) falls back to the nearest
// address that remains: the site-space's, or the site's.
func (r *Resolver) redirectTarget(ctx context.Context, s *ent.Site, x *ent.SiteRedirect) (string, error) {
	d := x.Destination
	if d["kind"] == redirectToURL {
		return d["url"], nil
	}
	base := r.sitePublishedURL(s)
	switch d["kind"] {
	case redirectToSection:
		sec, err := r.sections.visible(ctx, ptr(d["siteSectionId"]))
		if err != nil || sec == nil {
			return base, err
		}
		return base + "/" + url.PathEscape(sec.Path), nil
	case redirectToSiteSpace, redirectToPage:
		ss, err := r.sitespaces.visible(ctx, ptr(d["siteSpaceId"]))
		if err != nil || ss == nil {
			return base, err
		}
		if ss.SectionID != nil {
			sec, err := r.sections.visible(ctx, ss.SectionID)
			if err != nil {
				return "", err
			}
			if sec != nil {
				base += "/" + url.PathEscape(sec.Path)
			}
		}
		base += "/" + url.PathEscape(ss.Path)
		if d["kind"] == redirectToPage {
			p, err := r.siteSpacePage(ctx, ss, d["pageId"])
			if err != nil {
				return "", err
			}
			if p != nil && p.Path() != "" {
				base += "/" + p.Path()
			}
		}
		return base, nil
	}
	return base, nil
}
