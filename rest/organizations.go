package rest

import (
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// organization is the organization the path names.
func (p params) organization() (*ent.Organization, error) {
	return p.a.r.Query().Organization(p.ctx(), p.path("organizationId"))
}

// organizations lists the viewer's organizations.
func (p params) organizations(args page.Args) (*model.OrganizationConnection, error) {
	viewer, err := p.viewer()
	if err != nil {
		return nil, err
	}
	return p.a.r.User().Organizations(p.ctx(), viewer, args.First, args.After, nil, nil)
}

// organizationSpaces lists the spaces of the path's organization.
func (p params) organizationSpaces(args page.Args) (*model.SpaceConnection, error) {
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Spaces(p.ctx(), o, args.First, args.After, nil, nil, nil)
}

// organizationCollections lists the collections of the path's
// organization: all of them, or with nested=false the top level only.
func (p params) organizationCollections(args page.Args) (*model.CollectionConnection, error) {
	nested, err := p.bool("nested", true)
	if err != nil {
		return nil, err
	}
	o, err := p.organization()
	if err != nil {
		return nil, err
	}
	return p.a.r.Organization().Collections(p.ctx(), o, args.First, args.After, nil, nil, &nested)
}

type updateOrganizationBody struct {
	Title          *string              `json:"title" rest:"nonnull"`
	EmailDomains   *[]string            `json:"emailDomains" rest:"nonnull"`
	Hostname       Opt[string]          `json:"hostname"`
	DefaultRole    Opt[enum.Role]       `json:"defaultRole"`
	DefaultContent Opt[sitePointerBody] `json:"defaultContent"`
	Logo           Opt[string]          `json:"logo"`
	SSO            *bool                `json:"sso" rest:"nonnull"`
	AI             *bool                `json:"ai" rest:"nonnull"`
	InviteLinks    *bool                `json:"inviteLinks" rest:"nonnull"`
	MergeRules     json.RawMessage      `json:"mergeRules" rest:"unsupported"`
}

func (b *updateOrganizationBody) input(p params) (model.UpdateOrganizationInput, error) {
	in := model.UpdateOrganizationInput{
		ID: p.path("organizationId"), Title: b.Title, Hostname: b.Hostname.Omittable(), DefaultRole: b.DefaultRole.Omittable(),
		Logo: b.Logo.Omittable(), Sso: b.SSO, Ai: b.AI, InviteLinks: b.InviteLinks,
	}
	// A nil list leaves the domains unchanged; [] decodes to an empty,
	// non-nil one, which removes them.
	if b.EmailDomains != nil {
		in.EmailDomains = *b.EmailDomains
	}
	if b.DefaultContent.Set {
		var site *string
		if p := b.DefaultContent.Ptr(); p != nil {
			site = &p.Site
		}
		in.DefaultSiteID = graphql.OmittableOf(site)
	}
	return in, nil
}

// sitePointerBody is the official SitePointer: {"type": "site", "site": ID}.
type sitePointerBody struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

// UnmarshalJSON checks the pointer's shape.
func (p *sitePointerBody) UnmarshalJSON(b []byte) error {
	type plain sitePointerBody
	var v plain
	if err := strictUnmarshal(b, &v); err != nil {
		return err
	}
	if v.Type != "site" || v.Site == "" {
		return apperr.Invalid("", `must be {"type": "site", "site": "<site ID>"}`)
	}
	*p = sitePointerBody(v)
	return nil
}
