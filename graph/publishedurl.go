package graph

import (
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/adaptive"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/search"
	"github.com/bindery/bindery/internal/validate"
)

// A site's visitor authentication settings: its signing key, which its
// admins read (the official SitePublishingAuth shows it) and rotate
// (rotateSiteVisitorAuthKey), and its fallback URL, where the reader sends
// a visitor without a valid token, which its admins set once it has a key.
// The fallback URL is an absolute http or https URL of at most 2048
// characters (the field's own validator, checked before the write so that
// the error names the input's member).

// urlLimit is the official URL: an absolute http or https URL of at most
// 2048 characters. It is the field rule of a site's fallback URL (the ent
// schema's validator) and the limit of the addresses the lookups take.
var urlLimit = validate.URL(2048)

// siteVisitorAuthKey is a site's visitor signing key, for its admins; nil
// while it has none.
func (r *Resolver) siteVisitorAuthKey(ctx context.Context, s *ent.Site) (*string, error) {
	x, _, err := r.sites.authorize(ctx, s.ID, authz.Update)
	if err != nil {
		return nil, err
	}
	return x.VisitorAuthPrivateKey, nil
}

// updateSiteVisitorAuth sets or removes a site's fallback URL.
func (r *Resolver) updateSiteVisitorAuth(ctx context.Context, in model.UpdateSiteVisitorAuthInput) (*ent.Site, error) {
	fallback := in.FallbackURL.Value()
	if fallback != nil {
		if err := check("fallbackURL", urlLimit, *fallback); err != nil {
			return nil, err
		}
	}
	return mutate(ctx, r, r.sites, in.SiteID, authz.Update, func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.Site, error) {
		if s.VisitorAuthPrivateKey == nil {
			return nil, apperr.Preconditionf("The site has no visitor signing key yet: rotate one first " +
				"(rotateSiteVisitorAuthKey, POST .../publishing/auth/regenerate)")
		}
		if !in.FallbackURL.IsSet() {
			return s, nil
		}
		u := s.Update()
		if fallback == nil {
			u.ClearVisitorAuthFallbackURL()
		} else {
			u.SetVisitorAuthFallbackURL(*fallback)
		}
		return u.Save(internal(ctx, "the site its admin changes"))
	})
}

// A site's search covers the site-spaces the viewer sees in its published
// structure (see publishedContent: members see what a visitor without
// claims sees, unless they present a token), as its scope selects them:
// all of them (ALL, the default), each section's default site-space and
// those named (DEFAULT, the official "default content of each section"),
// or those named (SPECIFIC). Naming a site-space the viewer does not see is
// a 400. Spaces are ranked as an organization's search ranks them, by their
// best page, in two statements whatever the site's size.

// searchSite searches the spaces of a site's site-spaces that the scope
// selects.
func (r *Resolver) searchSite(ctx context.Context, s *ent.Site, text string, scope *model.SiteSearchScopeInput,
	a page.Args) (*model.SearchSpaceResultConnection, error) {
	q, err := search.ParseQuery("query", text)
	if err != nil {
		return nil, err
	}
	view, err := r.PublishedView(ctx, s, nil)
	if err != nil {
		return nil, err
	}
	ids, err := siteSearchSpaces(view, scope)
	if err != nil {
		return nil, err
	}
	drv := r.db(ctx).Driver()
	var ranked []search.SpaceRanked
	if len(ids) > 0 {
		admitted := search.Spaces{Table: space.Table, ID: space.FieldID, Where: []func(*sql.Selector){
			space.IDIn(ids...), live(),
		}}
		if ranked, err = r.search.RankSpaces(ctx, drv, s.OrganizationID, q, admitted); err != nil {
			return nil, err
		}
	}
	hits, err := r.spaceHits(ctx, q, ranked, a)
	if err != nil {
		return nil, err
	}
	return model.NewSearchSpaceResultConnection(hits), nil
}

// siteSearchSpaces returns the IDs of the spaces of the site-spaces a
// scope selects among those the viewer sees, without repeats.
func siteSearchSpaces(view *model.PublishedView, scope *model.SiteSearchScopeInput) ([]string, error) {
	mode, listed, current := model.SiteSearchModeAll, []string(nil), (*string)(nil)
	if scope != nil {
		mode, listed, current = scope.Mode, scope.SiteSpaceIds, scope.CurrentSiteSpace
	}
	var chosen []*model.PublishedSpot
	name := func(field, id string) error {
		sp := view.Spot(id)
		if sp == nil {
			return apperr.Invalid(field, "%q is not a site-space of the site that the viewer sees", id)
		}
		chosen = append(chosen, sp)
		return nil
	}
	switch {
	case mode != model.SiteSearchModeDefault && current != nil:
		return nil, apperr.Invalid("scope.currentSiteSpace", "is only for the mode DEFAULT")
	case mode == model.SiteSearchModeAll && len(listed) > 0:
		return nil, apperr.Invalid("scope.siteSpaceIds", "is only for the modes DEFAULT and SPECIFIC")
	case mode == model.SiteSearchModeSpecific && len(listed) == 0:
		return nil, apperr.Invalid("scope.siteSpaceIds", "must name at least one site-space for the mode SPECIFIC")
	}
	for _, id := range listed {
		if err := name("scope.siteSpaceIds", id); err != nil {
			return nil, err
		}
	}
	if current != nil {
		if err := name("scope.currentSiteSpace", *current); err != nil {
			return nil, err
		}
	}
	for _, sp := range view.Spots {
		if mode == model.SiteSearchModeAll || mode == model.SiteSearchModeDefault && sp.Default {
			chosen = append(chosen, sp)
		}
	}
	var ids []string
	seen := map[string]bool{}
	for _, sp := range chosen {
		if id := sp.SiteSpace.SpaceID; !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// Addresses of published sites, and what they show.
//
// The rules:
//   - An address of a published site is <public URL>/sites/<site ID>/<path>
//     or <scheme>://<the site's hostname>/<its basename>/<path>, as the
//     reader (package reader) serves them; the URL's shareKey query parameter
//     is the visitor's share key, and its jwt_token parameter their token
//     when none is given apart.
//   - publishedContentByUrl (/v1's GET and POST /urls/published) reads the
//     address as the reader does for an anonymous visitor with those keys:
//     the caller's own membership widens nothing. It runs under a viewer of
//     its own (auth.Anonymous) with loaders of its own, so that nothing the
//     caller's request decided reaches it.
//   - What the visitor sees of the site (PublishedView) places the path: a
//     section, a site-space and the page path inside it. A path that names no
//     page the reader shows there (no site-space, no page at that path, a
//     group without a page to read, a link to nothing) and that is the source
//     of one of the site's redirects is that redirect: CONTENT under the
//     site's address (the address's own, for a site reached at its
//     hostname), or EXTERNAL for a redirect to a URL. Otherwise a path in a
//     site-space is content, whether or not it names a page (the reader shows
//     its not-found page), and a path in none is a 404.
//   - A site the visitor may not read is the 404 of a site that does not
//     exist. With redirectOnError, a published visitor-auth site with a
//     fallback URL sends the visitor there instead (EXTERNAL), with the
//     address as its location parameter, as the reader does.

// publishedAddress is an address of a published site, taken apart.
type publishedAddress struct {
	// siteID is the site the address names.
	siteID string
	// origin is the scheme and host of the site's addresses; base is the
	// path of the site's root as the address reaches it, ending in "/".
	origin, base string
	// rest is the (unescaped) path under base.
	rest string
	// atHost is set for an address at the site's own hostname.
	atHost bool
	// shareKey and token are the address's shareKey and jwt_token query
	// parameters.
	shareKey, token string
}

// parseURL checks that raw is an absolute http or https URL.
func parseURL(raw string) (*url.URL, error) {
	if err := check("url", urlLimit, raw); err != nil {
		return nil, err
	}
	return url.Parse(raw)
}

// noContent is the 404 of an address that names nothing the viewer sees.
func noContent() error { return apperr.NotFoundf("No content found for the URL") }

// publishedAddress takes apart an address of a published site: a 404 when it
// is none. The site's hostname is public (see PublishedSiteAt); whether the
// site may be read is for its policy to say.
func (r *Resolver) publishedAddress(ctx context.Context, u *url.URL) (*publishedAddress, error) {
	a := &publishedAddress{shareKey: u.Query().Get("shareKey"), token: u.Query().Get("jwt_token")}
	public, err := url.Parse(r.cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimRight(public.Path, "/") + "/sites/"
	if strings.EqualFold(u.Host, public.Host) && strings.HasPrefix(u.Path, prefix) {
		id, rest, _ := strings.Cut(strings.TrimPrefix(u.Path, prefix), "/")
		if id == "" {
			return nil, noContent()
		}
		a.siteID, a.rest = id, rest
		a.origin, a.base = public.Scheme+"://"+public.Host, prefix+id+"/"
		return a, nil
	}
	id, basename, err := r.PublishedSiteAt(ctx, u.Host)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, noContent()
	}
	a.siteID, a.atHost, a.origin, a.base = id, true, u.Scheme+"://"+u.Host, "/"
	path := u.Path
	if basename != "" {
		a.base = "/" + basename + "/"
		if path == "/"+basename {
			path = a.base
		}
		if !strings.HasPrefix(path, a.base) {
			return nil, noContent()
		}
	}
	a.rest = strings.TrimPrefix(strings.TrimPrefix(path, a.base), "/")
	return a, nil
}

// asVisitor returns a context whose viewer is an anonymous visitor, with
// loaders of its own: what the reader of a published site decides for
// someone who brings no credentials of Bindery's own.
func (r *Resolver) asVisitor(ctx context.Context) context.Context {
	return r.WithLoaders(auth.WithViewer(ctx, auth.Anonymous()))
}

// lookupPublishedURL resolves an address of a published site for its
// visitor (see the rules above).
func (r *Resolver) lookupPublishedURL(ctx context.Context, raw string, token *string, unsigned map[string]any,
	redirectOnError bool) (model.PublishedContentLookup, error) {
	u, err := parseURL(raw)
	if err != nil {
		return nil, err
	}
	a, err := r.publishedAddress(ctx, u)
	if err != nil {
		return nil, err
	}
	if token != nil && *token != "" {
		a.token = *token
	}
	ctx = r.asVisitor(ctx)
	claims := maps.Clone(unsigned)
	if q := adaptive.QueryClaims(u.Query()); q != nil {
		if claims == nil {
			claims = map[string]any{}
		}
		maps.Copy(claims, q)
	}
	r.PresentUnsignedClaims(ctx, a.siteID, claims)
	s, err := r.Query().Site(ctx, a.siteID, &a.shareKey, &a.token)
	if apperr.KindOf(err) == apperr.NotFound && redirectOnError {
		if to := r.VisitorAuthFallback(ctx, a.siteID); to != "" {
			return signInRedirect(to, u)
		}
	}
	if err != nil {
		return nil, err
	}
	view, err := r.PublishedView(ctx, s, &a.token)
	if err != nil {
		return nil, err
	}
	rest := strings.TrimSuffix(a.rest, ".md")
	spot, pagePath := view.Locate(rest)
	var c *content.Content
	var rev *ent.Revision
	shown := false
	if spot != nil {
		if rev, err = r.SpaceRevision(ctx, spot.SiteSpace.SpaceID); err != nil {
			return nil, err
		}
		if c, err = r.RevisionContent(ctx, rev); err != nil {
			return nil, err
		}
		shown = content.NewOrder(c.Pages).Shows(pagePath, rest != a.rest)
	}
	if !shown {
		if to, err := r.publishedRedirect(ctx, s, a); to != nil || err != nil {
			return to, err
		}
	}
	if spot == nil {
		return nil, noContent()
	}
	return publishedContentAt(s, view, a, spot, rev.ID, rest, pagePath, c, shown), nil
}

// signInRedirect sends a visitor to a visitor-auth site's fallback URL, with
// the address they asked for (less a token that did not admit them) as its
// location parameter, as the reader does.
func signInRedirect(fallback string, asked *url.URL) (model.PublishedContentLookup, error) {
	to, err := url.Parse(fallback)
	if err != nil {
		return nil, noContent()
	}
	loc := *asked
	q := loc.Query()
	q.Del("jwt_token")
	loc.RawQuery = q.Encode()
	tq := to.Query()
	tq.Set("location", loc.String())
	to.RawQuery = tq.Encode()
	return &model.PublishedContentRedirect{Target: model.PublishedRedirectTargetExternal, Redirect: to.String()}, nil
}

// publishedRedirect is the site's redirect of the address's path, as the
// reader sends its visitor: nil when there is none. A path that cannot be a
// redirect's source has none.
func (r *Resolver) publishedRedirect(ctx context.Context, s *ent.Site, a *publishedAddress) (model.PublishedContentLookup, error) {
	res, err := r.resolveSiteRedirect(ctx, s, "/"+strings.TrimSuffix(a.rest, "/"), nil)
	if apperr.KindOf(err) == apperr.InvalidArgument {
		return nil, nil
	}
	if err != nil || res == nil {
		return nil, err
	}
	if res.Redirect.Destination["kind"] == redirectToURL {
		return &model.PublishedContentRedirect{Target: model.PublishedRedirectTargetExternal, Redirect: res.Target}, nil
	}
	// Targets are stated under the site's address at /sites/<id>; a visitor
	// at the site's own hostname stays there, and a share key goes along.
	to := res.Target
	if home := r.sitePublishedURL(s); a.atHost && strings.HasPrefix(to, home) {
		to = a.origin + a.base + strings.TrimPrefix(strings.TrimPrefix(to, home), "/")
	}
	if s.Visibility == enum.SiteVisibilityShareLink && a.shareKey != "" {
		if tu, err := url.Parse(to); err == nil {
			q := tu.Query()
			q.Set("shareKey", a.shareKey)
			tu.RawQuery = q.Encode()
			to = tu.String()
		}
	}
	return &model.PublishedContentRedirect{Target: model.PublishedRedirectTargetContent, Redirect: to}, nil
}

// publishedContentAt is the content at an address whose path (rest, less a
// trailing .md) places it in spot, at pagePath. shown says whether the
// reader shows a page there.
func publishedContentAt(s *ent.Site, view *model.PublishedView, a *publishedAddress, spot *model.PublishedSpot,
	revisionID, rest, pagePath string, c *content.Content, shown bool) *model.PublishedContent {
	// Locate joins the segments after those naming the site-space into the
	// page path.
	segs, pageSegs := splitPath(rest), 0
	if pagePath != "" {
		pageSegs = len(strings.Split(pagePath, "/"))
	}
	named := segs[:len(segs)-pageSegs]
	basePath := a.base
	for _, seg := range named {
		basePath += url.PathEscape(seg) + "/"
	}
	out := &model.PublishedContent{SiteID: s.ID, SiteSpaceID: spot.SiteSpace.ID, SpaceID: spot.SiteSpace.SpaceID,
		RevisionID: revisionID, OrganizationID: s.OrganizationID, Pathname: pagePath, BasePath: basePath,
		SiteBasePath: a.base}
	if spot.Section != nil {
		out.SiteSectionID = &spot.Section.ID
	}
	if s.Visibility == enum.SiteVisibilityShareLink && a.shareKey != "" {
		out.ShareKey = &a.shareKey
	}
	// The path names a section when its first segment is the section's path
	// (a section is taken before a site-space), and the site-space when the
	// segment after the section's (or the first) is the site-space's.
	sectionNamed := len(named) > 0 && spot.Section != nil && named[0] == spot.Section.Path
	siteSpaceNamed := len(named) == 2 || len(named) == 1 && !sectionNamed
	switch {
	case pagePath != "" || siteSpaceNamed:
		out.Complete = true
	case sectionNamed:
		out.Complete = view.Siblings(spot.Section) <= 1
	default:
		out.Complete = len(view.Sections) <= 1 && view.Siblings(spot.Section) <= 1
	}
	// The canonical address is the reader's: the site-space's root for its
	// first page, the page's path under its root otherwise; the address
	// itself where the reader shows no page.
	out.CanonicalURL = a.origin + (&url.URL{Path: a.base + a.rest}).EscapedPath()
	if shown {
		root := a.origin + a.base + spot.Path
		out.CanonicalURL = root
		o := content.NewOrder(c.Pages)
		if i, ok := o.ByPath[pagePath]; ok && i != o.First(0) {
			out.CanonicalURL = root + (&url.URL{Path: o.Entries[i].Path}).EscapedPath()
		}
	}
	return out
}

// splitPath splits a path into its segments, as model.PublishedView.Locate
// does; none for "".
func splitPath(p string) []string {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if segs[0] == "" {
		return nil
	}
	return segs
}

// Any address of Bindery, for the caller: contentByUrl (/v1's GET
// /urls/content) resolves an address of the dashboard, as urls.app builds
// them, or of a published site to the collection, space, change request
// and page it names, with the viewer's own rights: normal policies, and
// the keys the address itself carries.

// contentByURL resolves an address of the dashboard, or of a published
// site, to what it names.
func (r *Resolver) contentByURL(ctx context.Context, raw string) (*model.ContentLookup, error) {
	u, err := parseURL(raw)
	if err != nil {
		return nil, err
	}
	if rest, ok := under(u, r.cfg.AppURL); ok {
		if segs := splitPath(rest); len(segs) > 1 && (segs[0] == "s" || segs[0] == "c") {
			return r.appContent(ctx, segs)
		}
	}
	a, err := r.publishedAddress(ctx, u)
	if err != nil {
		return nil, err
	}
	s, err := r.Query().Site(ctx, a.siteID, &a.shareKey, &a.token)
	if err != nil {
		return nil, err
	}
	view, err := r.PublishedView(ctx, s, &a.token)
	if err != nil {
		return nil, err
	}
	spot, pagePath := view.Locate(strings.TrimSuffix(a.rest, ".md"))
	if spot == nil {
		return nil, noContent()
	}
	sp, _, err := r.spaces.get(ctx, spot.SiteSpace.SpaceID)
	if err != nil {
		return nil, err
	}
	out := &model.ContentLookup{Space: sp}
	if pagePath == "" {
		return out, nil
	}
	rev, err := r.SpaceRevision(ctx, sp.ID)
	if err != nil {
		return nil, err
	}
	p, err := r.revisionPageByPath(ctx, rev, pagePath)
	return withPage(out, p, err)
}

// under returns the path of u under the address base; false when u is not
// an address under base.
func under(u *url.URL, base string) (string, bool) {
	b, err := url.Parse(base)
	if err != nil || !strings.EqualFold(u.Host, b.Host) {
		return "", false
	}
	rest, ok := strings.CutPrefix(u.Path, strings.TrimRight(b.Path, "/"))
	if !ok || rest != "" && !strings.HasPrefix(rest, "/") {
		return "", false
	}
	return rest, true
}

// appContent resolves the segments of a dashboard address, as urls.app
// makes them: c/<collection ID>, s/<space ID> with a page path of its main
// content, or ~/changes/<number> or ~/revisions/<revision ID> and a page
// path of that content.
func (r *Resolver) appContent(ctx context.Context, segs []string) (*model.ContentLookup, error) {
	if segs[0] == "c" {
		if len(segs) != 2 {
			return nil, noContent()
		}
		c, _, err := r.collections.get(ctx, segs[1])
		if err != nil {
			return nil, err
		}
		return &model.ContentLookup{Collection: c}, nil
	}
	s, _, err := r.spaces.get(ctx, segs[1])
	if err != nil {
		return nil, err
	}
	out := &model.ContentLookup{Space: s}
	rest := segs[2:]
	var rev *ent.Revision
	switch {
	case len(rest) == 0:
		return out, nil
	case rest[0] != "~":
		rev, err = r.SpaceRevision(ctx, s.ID)
	case len(rest) >= 3 && rest[1] == "changes":
		if out.ChangeRequest, err = r.ChangeRequestInSpace(ctx, s.ID, rest[2]); err == nil {
			rev, err = r.ChangeRequest().Revision(ctx, out.ChangeRequest)
		}
		rest = rest[3:]
	case len(rest) >= 3 && rest[1] == "revisions":
		rev, err = r.RevisionInSpace(ctx, s.ID, rest[2])
		rest = rest[3:]
	default:
		return nil, noContent()
	}
	switch {
	case err != nil:
		return nil, err
	case len(rest) == 0:
		return out, nil
	}
	p, err := r.revisionPageByPath(ctx, rev, strings.Join(rest, "/"))
	return withPage(out, p, err)
}

// withPage adds the page an address names to what it names: a 404 when
// there is none. A link is left out, which the official answer has no form
// for: its space alone is what the address names.
func withPage(out *model.ContentLookup, p *model.RevisionPage, err error) (*model.ContentLookup, error) {
	switch {
	case err != nil:
		return nil, err
	case p == nil:
		return nil, apperr.NotFoundf("Page not found")
	case p.Type() != enum.PageTypeLink:
		out.Page = p
	}
	return out, nil
}

// jsonObject decodes a JSON argument that must be an object, or null.
func jsonObject(v model.JSON, field string) (map[string]any, error) {
	if len(v) == 0 || string(v) == "null" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		return nil, apperr.Invalid(field, "must be a JSON object")
	}
	return m, nil
}
