package graph

import (
	"context"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/internal/enum"
)

// PublishedSiteAt returns the ID and basename of the published site whose
// custom hostname is host (a port is ignored), for the reader that serves
// sites at their own hostnames; "" when there is none. That a published site
// has a hostname is public: it is where its readers go.
func (r *Resolver) PublishedSiteAt(ctx context.Context, host string) (id, basename string, err error) {
	if h, _, found := strings.Cut(host, ":"); found {
		host = h
	}
	s, err := r.db(ctx).Site.Query().Where(site.Hostname(strings.ToLower(host)), site.Published(true)).
		Select(site.FieldID, site.FieldBasename).Only(internal(ctx, "the published site a hostname names, for its readers"))
	if ent.IsNotFound(err) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	return s.ID, deref(s.Basename), nil
}

// VisitorAuthFallback is where a visitor without a valid token is sent to
// sign in to a published visitor-auth site (its fallback URL); "" for any
// other site, or one without a fallback URL, whose readers are answered as
// for an unknown site.
func (r *Resolver) VisitorAuthFallback(ctx context.Context, siteID string) string {
	s, err := r.db(ctx).Site.Query().
		Where(site.ID(siteID), site.Published(true), site.VisibilityEQ(enum.SiteVisibilityVisitorAuth)).
		Select(site.FieldVisitorAuthFallbackURL).Only(internal(ctx, "the sign-in address of a visitor-auth site, for its readers"))
	if err != nil {
		return ""
	}
	return deref(s.VisitorAuthFallbackURL)
}

// PublishedProxy returns the proxy origin of a published site, a host and
// a path such as "company.com/docs", where a proxy of the site's owner
// serves it; "" when it has none.
func (r *Resolver) PublishedProxy(ctx context.Context, siteID string) (string, error) {
	s, err := r.db(ctx).Site.Query().Where(site.ID(siteID), site.Published(true)).
		Select(site.FieldProxyOrigin).Only(internal(ctx, "where a published site's proxy serves it, for its readers"))
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return deref(s.ProxyOrigin), nil
}

// PublishedSiteURLs returns where the first n published sites are read,
// oldest first: what a server's start shows its operator.
func (r *Resolver) PublishedSiteURLs(ctx context.Context, n int) ([]string, error) {
	sites, err := r.db(ctx).Site.Query().Where(site.Published(true)).Order(site.ByCreatedAt(), site.ByID()).Limit(n).
		All(internal(ctx, "the published sites a start names"))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(sites))
	for i, s := range sites {
		out[i] = r.sitePublishedURL(s) + "/"
	}
	return out, nil
}
