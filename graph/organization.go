package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/collection"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/site"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/validate"
)

// maxEmailDomains bounds an organization's email domains.
const maxEmailDomains = 100

// createOrganization creates an organization with the viewer as its admin.
func (r *Resolver) createOrganization(ctx context.Context, in model.CreateOrganizationInput) (*ent.Organization, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Organization, error) {
		o, err := CreateOrganization(ctx, r.db(ctx), in.Title, v.User.ID)
		if err != nil {
			return nil, err
		}
		r.orgs.wrote(ctx, o)
		return o, nil
	})
}

// CreateOrganization creates an organization and makes the owner its admin.
// The command line uses it too.
func CreateOrganization(ctx context.Context, db *ent.Client, title, ownerID string) (*ent.Organization, error) {
	o, err := db.Organization.Create().SetTitle(strings.TrimSpace(title)).Save(ctx)
	if err != nil {
		return nil, err
	}
	if err := db.Member.Create().SetOrganizationID(o.ID).SetUserID(ownerID).SetRole(enum.RoleAdmin).Exec(ctx); err != nil {
		return nil, fmt.Errorf("adding the owner: %w", err)
	}
	return o, nil
}

func (r *Resolver) updateOrganization(ctx context.Context, in model.UpdateOrganizationInput) (*ent.Organization, error) {
	return mutate(ctx, r, r.orgs, in.ID, authz.Update, func(ctx context.Context, cur *ent.Organization, _ authz.Decision) (*ent.Organization, error) {
		u := r.db(ctx).Organization.UpdateOne(cur)
		if in.Title != nil {
			u.SetTitle(strings.TrimSpace(*in.Title))
		}
		if in.EmailDomains != nil {
			domains, err := normalizeDomains(in.EmailDomains)
			if err != nil {
				return nil, err
			}
			u.SetEmailDomains(domains)
		}
		if err := r.checkOrganizationInput(ctx, in); err != nil {
			return nil, err
		}
		apply(in.Hostname, u.SetNillableHostname, u.ClearHostname)
		apply(in.DefaultRole, u.SetNillableDefaultRole, u.ClearDefaultRole)
		apply(in.Logo, u.SetNillableLogo, u.ClearLogo)
		apply(in.DefaultSiteID, u.SetNillableDefaultSiteID, u.ClearDefaultSiteID)
		if in.Sso != nil {
			u.SetSSO(*in.Sso)
		}
		if in.Ai != nil {
			u.SetAi(*in.Ai)
		}
		if in.InviteLinks != nil {
			u.SetInviteLinks(*in.InviteLinks)
		}
		return u.Save(ctx)
	})
}

// checkOrganizationInput checks what the schema cannot: a free hostname and
// a default site of this organization.
func (r *Resolver) checkOrganizationInput(ctx context.Context, in model.UpdateOrganizationInput) error {
	if err := r.checkHostnameFree(ctx, in.ID, in.Hostname.Value()); err != nil {
		return err
	}
	if v := in.DefaultSiteID.Value(); v != nil {
		// The caller administers the organization (checked first), and
		// this read shows nothing but whether the site is one of its own.
		ctx := internal(ctx, "whether a site is the updated organization's")
		ok, err := r.db(ctx).Site.Query().Where(site.ID(*v), site.OrganizationID(in.ID)).Exist(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.Invalid("defaultContent", "the site %q is not a site of this organization", *v)
		}
	}
	return nil
}

func (r *Resolver) checkHostnameFree(ctx context.Context, orgID string, hostname *string) error {
	if hostname == nil {
		return nil
	}
	taken, err := r.db(ctx).Organization.Query().
		Where(organization.Hostname(*hostname), organization.IDNEQ(orgID)).
		Exist(internal(ctx, "a uniqueness check that shows only a conflict"))
	if err != nil {
		return err
	}
	if taken {
		return apperr.Conflictf("The hostname %q is taken by another organization", *hostname)
	}
	return nil
}

// normalizeDomains lower-cases, checks and de-duplicates email domains.
func normalizeDomains(in []string) ([]string, error) {
	if len(in) > maxEmailDomains {
		return nil, apperr.Invalid("emailDomains", "must hold at most %d domains", maxEmailDomains)
	}
	seen := map[string]bool{}
	out := []string{}
	for _, d := range in {
		d = strings.ToLower(strings.TrimSpace(d))
		if err := validate.EmailDomain(d); err != nil {
			return nil, apperr.Invalid("emailDomains", "%q %s", d, err)
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

func (r *Resolver) organizationURLs(o *ent.Organization) *model.OrganizationURLs {
	return &model.OrganizationURLs{
		Location: r.cfg.PublicURL + "/v1/orgs/" + o.ID,
		App:      r.cfg.AppURL + "/o/" + o.ID,
		Logo:     o.Logo,
	}
}

func (r *Resolver) organizationPermissions(ctx context.Context, o *ent.Organization) (*authz.OrganizationPermissions, error) {
	d, err := r.organizationDecision(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	p := authz.ForOrganization(d)
	return &p, nil
}

func (r *Resolver) viewerRole(ctx context.Context, o *ent.Organization) (*enum.Role, error) {
	a, err := r.orgAccess(ctx, o.ID)
	if err != nil || a.Membership.Role == "" {
		return nil, err
	}
	role := a.Membership.Role
	return &role, nil
}

// organizationsOf lists the organizations of a user; only the viewer's own
// list is readable.
func (r *Resolver) organizationsOf(ctx context.Context, u *ent.User, a page.Args) (*page.Connection[*ent.Organization], error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return nil, err
	}
	if u.ID != f.user.ID {
		return nil, nil
	}
	// The viewer's own memberships: each is visible to them.
	q := r.db(ctx).Organization.Query().
		Where(organization.HasMembersWith(member.UserID(u.ID), member.Disabled(false)))
	return page.Paginate(within(ctx), q, organizationsByCreation, a)
}

// organizationCollections lists the collections of an organization that the
// viewer can see: all of them by creation, or the top-level ones in order.
func (r *Resolver) organizationCollections(ctx context.Context, o *ent.Organization, a page.Args, nested bool) (*page.Connection[*ent.Collection], error) {
	if _, _, err := r.orgs.get(ctx, o.ID); err != nil {
		return nil, err
	}
	access, err := r.orgAccess(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	ctx, scope := r.collections.scoped(ctx, access)
	q := r.db(ctx).Collection.Query().Where(collection.OrganizationID(o.ID), scope)
	if nested {
		return page.Paginate(ctx, q, collectionsByCreation, a)
	}
	return page.Paginate(ctx, q.Where(collection.ParentIDIsNil()), collectionsByPosition, a)
}

// organizationSpaces lists the live spaces of an organization that the viewer
// can see, by creation; with deleted, the restorable deleted spaces instead,
// which only organization admins may list.
func (r *Resolver) organizationSpaces(ctx context.Context, o *ent.Organization, a page.Args, deleted bool) (*page.Connection[*ent.Space], error) {
	q := r.db(ctx).Space.Query().Where(space.OrganizationID(o.ID))
	if deleted {
		if _, _, err := r.orgs.authorize(ctx, o.ID, authz.ListDeleted); err != nil {
			return nil, err
		}
		// Admins of the organization see every space in it.
		ctx = within(ctx)
		q = q.Where(restorable(r.clock()))
	} else {
		if _, _, err := r.orgs.get(ctx, o.ID); err != nil {
			return nil, err
		}
		access, err := r.orgAccess(ctx, o.ID)
		if err != nil {
			return nil, err
		}
		var scope predicate.Space
		ctx, scope = r.spaces.scoped(ctx, access)
		q = q.Where(live(), scope)
	}
	return r.spacePage(ctx, q, spacesByCreation, a)
}
