package graph

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/url"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/sharelink"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// Share links admit whoever holds their key to a share-link site or space
// they are not a member of: the reader passes the key as shareKey.
//
// The rules:
//   - A share link belongs to one site or one space, and is managed by
//     whoever administers it (the site's admins; a space's admin role); no
//     one else sees it, since its published URL shows its key.
//   - Its key is 32 random characters, made by Bindery and never changed;
//     name (at most 50 characters) and active may be.
//   - A key admits a reader only while its link is active and its site or
//     space has the visibility share-link (and, for a site, is published); a
//     wrong, inactive or deleted key is the same 404 as no key at all.

// shareLinksByCreation orders share links, oldest first.
var shareLinksByCreation = page.Order[*ent.ShareLink, predicate.ShareLink, sharelink.OrderOption]{
	Name: "share-links", Column: sharelink.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(l *ent.ShareLink) any { return l.CreatedAt }, ID: func(l *ent.ShareLink) string { return l.ID },
}

// shareLinkDecision decides about a share link: the viewer's decision about
// its site or space.
func (r *Resolver) shareLinkDecision(ctx context.Context, l *ent.ShareLink) (authz.Decision, error) {
	var d authz.Decision
	var err error
	switch {
	case l.SiteID != nil:
		_, d, err = r.sites.get(ctx, *l.SiteID)
	case l.SpaceID != nil:
		_, d, err = r.spaces.get(ctx, *l.SpaceID)
	}
	if apperr.KindOf(err) == apperr.NotFound {
		return authz.Decision{}, nil
	}
	return d, err
}

// newShareKey returns a new share key: 24 random bytes, 32 characters of
// URL-safe base64.
func newShareKey() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24).
	return base64.RawURLEncoding.EncodeToString(b)
}

// listShareLinks lists the share links of a site or space whose owner the
// caller may manage (see siteShareLinks and spaceShareLinks).
func (r *Resolver) listShareLinks(ctx context.Context, where predicate.ShareLink, a page.Args) (*model.ShareLinkConnection, error) {
	conn, err := page.Paginate(within(ctx), r.db(ctx).ShareLink.Query().Where(where), shareLinksByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.shareLinks.loader(ctx)
	for _, x := range conn.Nodes() {
		l.Prime(ctx, x.ID, x)
	}
	return model.NewShareLinkConnection(conn), nil
}

func (r *Resolver) siteShareLinks(ctx context.Context, s *ent.Site, a page.Args) (*model.ShareLinkConnection, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.Update); err != nil {
		return nil, err
	}
	return r.listShareLinks(ctx, sharelink.SiteID(s.ID), a)
}

func (r *Resolver) spaceShareLinks(ctx context.Context, sp *ent.Space, a page.Args) (*model.ShareLinkConnection, error) {
	if _, _, err := r.spaces.authorize(ctx, sp.ID, authz.UpdateAccess); err != nil {
		return nil, err
	}
	return r.listShareLinks(ctx, sharelink.SpaceID(sp.ID), a)
}

// ShareLinkOf loads a share link of a site, for /v1's paths: not found when
// it is another site's (or a space's).
func (r *Resolver) ShareLinkOf(ctx context.Context, siteID, linkID string) (*ent.ShareLink, error) {
	l, _, err := r.shareLinks.get(ctx, linkID)
	if err == nil && (l.SiteID == nil || *l.SiteID != siteID) {
		return nil, r.shareLinks.notFound()
	}
	return l, err
}

// createShareLink creates a share link of the site or the space in (one of
// them is set) with a new key.
func (r *Resolver) createShareLink(ctx context.Context, in model.CreateShareLinkInput) (*ent.ShareLink, error) {
	if (in.SiteID == nil) == (in.SpaceID == nil) {
		return nil, apperr.Invalid("siteId", "give exactly one of siteId and spaceId")
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.ShareLink, error) {
		// The link's site or space, which one of them is, authorizes it.
		b := r.db(ctx).ShareLink.Create().SetKey(newShareKey()).SetNillableName(in.Name)
		if in.SiteID != nil {
			s, _, err := r.sites.authorize(ctx, *in.SiteID, authz.Update)
			if err != nil {
				return nil, err
			}
			b.SetSiteID(s.ID)
		} else {
			sp, _, err := r.spaces.authorize(ctx, *in.SpaceID, authz.UpdateAccess)
			if err != nil {
				return nil, err
			}
			b.SetSpaceID(sp.ID)
		}
		x, err := b.Save(ctx)
		if err != nil {
			return nil, err
		}
		r.shareLinks.wrote(ctx, x)
		return x, nil
	})
}

func (r *Resolver) updateShareLink(ctx context.Context, in model.UpdateShareLinkInput) (*ent.ShareLink, error) {
	return mutate(ctx, r, r.shareLinks, in.ID, authz.Update, func(ctx context.Context, x *ent.ShareLink, _ authz.Decision) (*ent.ShareLink, error) {
		u := x.Update().SetNillableActive(in.Active)
		if in.Name.IsSet() {
			if v := in.Name.Value(); v != nil {
				u.SetName(*v)
			} else {
				u.ClearName()
			}
		}
		return u.Save(internal(ctx, "the share link its site's or space's admin changes"))
	})
}

func (r *Resolver) deleteShareLink(ctx context.Context, in model.DeleteShareLinkInput) error {
	return act(ctx, r, r.shareLinks, in.ID, authz.Delete, func(ctx context.Context, x *ent.ShareLink, _ authz.Decision) error {
		ctx = internal(ctx, "the share links its site's or space's admin revokes")
		return r.db(ctx).ShareLink.DeleteOne(x).Exec(ctx)
	})
}

// shareLinkURLs are the addresses of a share link: where its key admits a
// reader. For a site that is its published address (while it is
// published); for a space, its address in /v1.
func (r *Resolver) shareLinkURLs(ctx context.Context, l *ent.ShareLink) (*model.ShareLinkURLs, error) {
	key := "?shareKey=" + url.QueryEscape(l.Key)
	if l.SiteID != nil {
		s, _, err := r.sites.get(ctx, *l.SiteID)
		if err != nil {
			return nil, err
		}
		if !s.Published {
			return &model.ShareLinkURLs{}, nil
		}
		p := r.sitePublishedURL(s) + key
		return &model.ShareLinkURLs{Published: &p}, nil
	}
	p := r.cfg.PublicURL + "/v1/spaces/" + deref(l.SpaceID) + key
	return &model.ShareLinkURLs{Published: &p}, nil
}

// siteShareKeyValid reports whether the request presented an active share
// key of the site, a share-link site.
func (r *Resolver) siteShareKeyValid(ctx context.Context, s *ent.Site) (bool, error) {
	key := loadersFrom(ctx).shareKey(s.ID)
	if key == "" || s.Visibility != enum.SiteVisibilityShareLink {
		return false, nil
	}
	return r.db(ctx).ShareLink.Query().Where(sharelink.Key(key), sharelink.Active(true), sharelink.SiteID(s.ID)).
		Exist(internal(ctx, "checking the share key a reader presented"))
}
