package graph

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/visitor"
)

// PublishedSiteAt returns the ID and basename of the published site whose
// custom hostname is host (a port is ignored), for the reader that serves
// sites at their own hostnames; "" when there is none. That a published site
// has a hostname is public: it is where its readers go.
func (r *Resolver) PublishedSiteAt(ctx context.Context, host string) (id, basename string, err error) {
	if h, _, found := strings.Cut(host, ":"); found {
		host = h
	}
	host = strings.ToLower(host)
	at, err := r.hostSites.get(ctx, r, host, func() ([2]string, error) {
		s, err := r.db(ctx).Site.Query().Where(site.Hostname(host), site.Published(true)).
			Select(site.FieldID, site.FieldBasename).Only(internal(ctx, "the published site a hostname names, for its readers"))
		if ent.IsNotFound(err) {
			return [2]string{}, nil
		}
		if err != nil {
			return [2]string{}, err
		}
		return [2]string{s.ID, deref(s.Basename)}, nil
	})
	return at[0], at[1], err
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
	return r.proxies.get(ctx, r, siteID, func() (string, error) {
		s, err := r.db(ctx).Site.Query().Where(site.ID(siteID), site.Published(true)).
			Select(site.FieldProxyOrigin).Only(internal(ctx, "where a published site's proxy serves it, for its readers"))
		if ent.IsNotFound(err) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		return deref(s.ProxyOrigin), nil
	})
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

// VisitorLink returns the published address of a site with a visitor
// token for claims, valid for ttl, signed with the site's visitor key: the
// link a site's own sign-in would send its visitor to. For the operator's
// command line, which reads every site.
func (r *Resolver) VisitorLink(ctx context.Context, siteID string, claims map[string]any, ttl time.Duration) (string, error) {
	s, err := r.db(ctx).Site.Query().Where(site.ID(siteID)).Only(internal(ctx, "the operator signs a visitor link"))
	if ent.IsNotFound(err) {
		return "", fmt.Errorf("site %q not found", siteID)
	}
	if err != nil {
		return "", err
	}
	if s.VisitorAuthPrivateKey == nil {
		return "", fmt.Errorf("site %s has no visitor signing key: rotate one first (rotateSiteVisitorAuthKey)", siteID)
	}
	token, err := visitor.Sign(*s.VisitorAuthPrivateKey, claims, r.clock().Add(ttl))
	if err != nil {
		return "", err
	}
	return r.sitePublishedURL(s) + "/?jwt_token=" + url.QueryEscape(token), nil
}
