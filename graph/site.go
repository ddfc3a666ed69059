package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/sitesection"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/position"
)

// maxSiteSpaces bounds the spaces a site is created with, as the members of
// a new team are bounded.
const maxSiteSpaces = 1000

// defaultSiteTitle is the title of a site created without one: the official
// API makes every member of the create body optional, and a site's title is
// 2 to 128 characters.
const defaultSiteTitle = "Docs"

// sitesByCreation orders lists of sites, oldest first.
var sitesByCreation = page.Order[*ent.Site, predicate.Site, site.OrderOption]{
	Name: "sites", Column: site.FieldCreatedAt, KeyType: page.KeyTime,
	Key: func(s *ent.Site) any { return s.CreatedAt }, ID: func(s *ent.Site) string { return s.ID },
}

// siteDecision decides about a site: its organization's members with a role
// see it with that role; anyone else only as a reader of the published site
// (see siteReaderDecision).
func (r *Resolver) siteDecision(ctx context.Context, s *ent.Site) (authz.Decision, error) {
	// Only a member has a role in an organization, which their facts
	// tell without a statement; what the organization shows a stranger
	// gives no role on its sites.
	o, err := r.orgFacts(ctx, s.OrganizationID)
	if err != nil {
		return authz.Decision{}, err
	}
	if d := o.Organization(); d.Role != "" {
		return d, nil
	}
	return r.siteReaderDecision(ctx, s)
}

// siteFilter is what a list of sites keeps.
type siteFilter struct {
	Space     *string
	Title     *string
	Published *bool
	Types     []enum.SiteType
}

// organizationSites lists an organization's sites, for its members with a
// role.
func (r *Resolver) organizationSites(ctx context.Context, o *ent.Organization, f siteFilter, a page.Args) (*model.SiteConnection, error) {
	if err := checkFilter("title", f.Title); err != nil {
		return nil, err
	}
	if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ListPeople); err != nil {
		return nil, err
	}
	q := r.db(ctx).Site.Query().Where(site.OrganizationID(o.ID))
	if f.Space != nil {
		q.Where(site.HasSiteSpacesWith(sitespace.SpaceID(*f.Space)))
	}
	if f.Title != nil && *f.Title != "" {
		q.Where(site.TitleContainsFold(*f.Title))
	}
	if f.Published != nil {
		q.Where(site.Published(*f.Published))
	}
	if len(f.Types) > 0 {
		q.Where(site.TypeIn(f.Types...))
	}
	conn, err := page.Paginate(within(ctx), q, sitesByCreation, a)
	if err != nil {
		return nil, err
	}
	l := r.sites.loader(ctx)
	for _, s := range conn.Nodes() {
		l.Prime(ctx, s.ID, s)
	}
	return model.NewSiteConnection(conn), nil
}

func (r *Resolver) createSite(ctx context.Context, in model.CreateSiteInput) (*ent.Site, error) {
	if len(in.Spaces) > maxSiteSpaces {
		return nil, apperr.Invalid("spaces", "must hold at most %d spaces", maxSiteSpaces)
	}
	title := defaultSiteTitle
	if in.Title != nil {
		title = strings.TrimSpace(*in.Title)
	}
	return mutate(ctx, r, r.orgs, in.OrganizationID, authz.ManageSites,
		func(ctx context.Context, _ *ent.Organization, _ authz.Decision) (*ent.Site, error) {
			spaces, err := r.siteSpacesToAdd(ctx, in.OrganizationID, in.Spaces)
			if err != nil {
				return nil, err
			}
			b := r.db(ctx).Site.Create().SetOrganizationID(in.OrganizationID).SetTitle(title)
			if in.Type != nil {
				b.SetType(*in.Type)
			}
			if in.Visibility != nil {
				b.SetVisibility(*in.Visibility)
			}
			s, err := b.Save(ctx)
			if err != nil {
				return nil, err
			}
			r.sites.wrote(ctx, s)
			if len(spaces) == 0 {
				return s, nil
			}
			// Each space becomes a site-space at the root, in order, with a
			// path made of its title; the first is the default.
			taken := map[string]bool{}
			creates := make([]*ent.SiteSpaceCreate, len(spaces))
			for i, sp := range spaces {
				creates[i] = r.db(ctx).SiteSpace.Create().SetSiteID(s.ID).SetSpaceID(sp.ID).
					SetPath(freePath(taken, sp.Title)).SetPosition(float64(i+1) * position.Step).SetIsDefault(i == 0)
			}
			return s, r.db(ctx).SiteSpace.CreateBulk(creates...).Exec(ctx)
		})
}

// siteSpacesToAdd loads the spaces of ids, which must be live spaces of the
// organization, without repeats and in order. The caller administers the
// organization, and so every space of it.
func (r *Resolver) siteSpacesToAdd(ctx context.Context, orgID string, ids []string) ([]*ent.Space, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	// Whole, with their counters: the answer shows them (see wroteSpaces).
	found, err := r.db(ctx).Space.Query().Where(space.OrganizationID(orgID), space.IDIn(ids...), live()).
		All(internal(ctx, "the spaces a site admin adds to a site"))
	if err != nil {
		return nil, fmt.Errorf("loading the spaces of a site: %w", err)
	}
	byID := make(map[string]*ent.Space, len(found))
	for _, sp := range found {
		byID[sp.ID] = sp
	}
	out := make([]*ent.Space, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		sp, ok := byID[id]
		if !ok {
			return nil, apperr.Invalid("spaces", "%q is not a space of the organization", id)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, sp)
		}
	}
	r.wroteSpaces(ctx, out)
	return out, nil
}

// freePath returns a path made of title that taken does not hold, and takes
// it: the title's slug, then the slug with "-2", "-3"...
func freePath(taken map[string]bool, title string) string {
	base := content.Slugify(title)
	if base == "page" && strings.TrimSpace(title) == "" {
		base = "space"
	}
	if len([]rune(base)) > 90 {
		base = string([]rune(base)[:90])
	}
	p := base
	for i := 2; taken[p]; i++ {
		p = fmt.Sprintf("%s-%d", base, i)
	}
	taken[p] = true
	return p
}

func (r *Resolver) updateSite(ctx context.Context, in model.UpdateSiteInput) (*ent.Site, error) {
	// Its defaults are part of its structure (see lockSite).
	return mutateLocked(ctx, r, r.siteLock(site.ID(in.ID)), r.sites, in.ID, authz.Update,
		func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.Site, error) {
			u := s.Update()
			if in.Title != nil {
				u.SetTitle(strings.TrimSpace(*in.Title))
			}
			if in.Visibility != nil {
				u.SetVisibility(*in.Visibility)
			}
			if in.Basename != nil {
				u.SetBasename(*in.Basename)
			}
			if in.AdaptiveContent != nil {
				u.SetAdaptiveContent(*in.AdaptiveContent)
			}
			if in.AgentsContext != nil {
				u.SetAgentsContext(*in.AgentsContext)
			}
			if in.Proxy.IsSet() {
				if p := in.Proxy.Value(); p != nil {
					u.SetProxyOrigin(*p)
				} else {
					u.ClearProxyOrigin()
				}
			}
			if in.DefaultSiteSection != nil {
				if err := r.setDefaultSection(ctx, s, *in.DefaultSiteSection); err != nil {
					return nil, err
				}
			}
			if in.DefaultSiteSpace != nil {
				if err := r.setDefaultSiteSpace(ctx, s, *in.DefaultSiteSpace); err != nil {
					return nil, err
				}
			}
			return u.Save(ctx)
		})
}

// setDefaultSection makes a section of the site its default section: the
// old default first stops being one, since a unique index holds one default
// per site.
func (r *Resolver) setDefaultSection(ctx context.Context, s *ent.Site, sectionID string) error {
	ctx = internal(ctx, "the sections of a site its admin updates")
	db := r.db(ctx)
	_, err := db.SiteSection.Update().Where(sitesection.SiteID(s.ID), sitesection.IDNEQ(sectionID), sitesection.IsDefault(true)).
		SetIsDefault(false).Save(ctx)
	if err != nil {
		return err
	}
	n, err := db.SiteSection.Update().Where(sitesection.SiteID(s.ID), sitesection.ID(sectionID)).SetIsDefault(true).Save(ctx)
	if err == nil && n == 0 {
		// The transaction rolls back, and the old default with it.
		return apperr.Invalid("defaultSiteSection", "%q is not a section of the site", sectionID)
	}
	return err
}

// setDefaultSiteSpace makes a site-space the default among its siblings: at
// the site's root, or in the site's default section when it has sections (as
// the official API describes defaultSiteSpace).
func (r *Resolver) setDefaultSiteSpace(ctx context.Context, s *ent.Site, siteSpaceID string) error {
	ctx = internal(ctx, "the site-spaces of a site its admin updates")
	db := r.db(ctx)
	ss, err := db.SiteSpace.Query().Where(sitespace.SiteID(s.ID), sitespace.ID(siteSpaceID)).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.Invalid("defaultSiteSpace", "%q is not a site-space of the site", siteSpaceID)
	}
	if err != nil {
		return err
	}
	if ss.SectionID != nil {
		def, err := db.SiteSection.Query().Where(sitesection.SiteID(s.ID), sitesection.IsDefault(true)).
			Select(sitesection.FieldID).Strings(ctx)
		if err != nil {
			return err
		}
		if len(def) == 0 || def[0] != *ss.SectionID {
			return apperr.Invalid("defaultSiteSpace", "must be a site-space of the site's default section")
		}
	}
	return r.markDefaultSiteSpace(ctx, s.ID, ss)
}

// markDefaultSiteSpace makes ss the only default among its siblings.
func (r *Resolver) markDefaultSiteSpace(ctx context.Context, siteID string, ss *ent.SiteSpace) error {
	db := r.db(ctx)
	others := db.SiteSpace.Update().Where(sitespace.SiteID(siteID), sitespace.IDNEQ(ss.ID), sitespace.IsDefault(true))
	if ss.SectionID == nil {
		others.Where(sitespace.SectionIDIsNil())
	} else {
		others.Where(sitespace.SectionID(*ss.SectionID))
	}
	if err := others.SetIsDefault(false).Exec(ctx); err != nil {
		return err
	}
	return db.SiteSpace.Update().Where(sitespace.ID(ss.ID)).SetIsDefault(true).Exec(ctx)
}

func (r *Resolver) deleteSite(ctx context.Context, in model.DeleteSiteInput) error {
	return act(ctx, r, r.sites, in.ID, authz.Delete, func(ctx context.Context, s *ent.Site, _ authz.Decision) error {
		// The database cascades to its sections, groups, site-spaces,
		// redirects and share links.
		return r.db(ctx).Site.DeleteOne(s).Exec(ctx)
	})
}

// setSitePublished publishes or unpublishes a site.
func (r *Resolver) setSitePublished(ctx context.Context, id string, published bool) (*ent.Site, error) {
	return mutate(ctx, r, r.sites, id, authz.Publish, func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.Site, error) {
		was := s.Published
		s, err := s.Update().SetPublished(published).Save(ctx)
		if err == nil && published && !was {
			r.emit(ctx, events.Webhook(s.OrganizationID, s.ID, enum.WebhookEventTypeSitePublished, s.ID))
		}
		return s, err
	})
}

// siteURLs are a site's addresses. A published site is served under the
// public URL at /sites/<id> (package reader serves it), and
// this is the address its pages, sections and redirects resolve under.
func (r *Resolver) siteURLs(s *ent.Site) *model.SiteURLs {
	u := &model.SiteURLs{
		Location: r.cfg.PublicURL + "/v1/orgs/" + s.OrganizationID + "/sites/" + s.ID,
		App:      r.cfg.AppURL + "/o/" + s.OrganizationID + "/sites/" + s.ID,
	}
	if s.Published {
		p := r.sitePublishedURL(s)
		u.Published = &p
	}
	return u
}

// sitePublishedURL is where the site is (or would be) published.
func (r *Resolver) sitePublishedURL(s *ent.Site) string {
	return r.cfg.PublicURL + "/sites/" + s.ID
}

func (r *Resolver) siteProxy(s *ent.Site) *model.SiteProxy {
	if s.ProxyOrigin == nil {
		return nil
	}
	return &model.SiteProxy{Origin: *s.ProxyOrigin, Target: r.sitePublishedURL(s)}
}

// siteSpaceCount counts a site's site-spaces, through the request's loader.
func (r *Resolver) siteSpaceCount(ctx context.Context, s *ent.Site) (int, error) {
	return load(ctx, loadersFrom(ctx).siteSpaceCounts(), s.ID)
}

// loadSiteSpaceCounts counts the site-spaces of sites: one grouped count.
func (r *Resolver) loadSiteSpaceCounts(ctx context.Context, ids []string) (map[string]int, error) {
	ctx = internal(ctx, "counts of the site-spaces of sites the viewer sees")
	var rows []struct {
		SiteID string `json:"site_id"`
		Count  int    `json:"count"`
	}
	err := r.db(ctx).SiteSpace.Query().Where(sitespace.SiteIDIn(ids...)).
		GroupBy(sitespace.FieldSiteID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("counting site-spaces: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, row := range rows {
		out[row.SiteID] = row.Count
	}
	return out, nil
}
