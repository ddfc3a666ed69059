package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
)

// The /v1 shapes. Values come from ent fields and from the same field
// resolvers GraphQL uses; the presenters only arrange them. A value that
// names another object comes from the resolver of that relation, never
// from the row's foreign key, so that /v1 shows what GraphQL shows: the
// member is absent when the resolver returns none, because there is none
// or the viewer cannot see it.

// idOf presents a related object by its ID: "", an absent member, when the
// resolver returned none.
func idOf[T *ent.Organization | *ent.Collection | *ent.Space | *ent.Revision](v T) string {
	switch v := any(v).(type) {
	case *ent.Organization:
		if v != nil {
			return v.ID
		}
	case *ent.Collection:
		if v != nil {
			return v.ID
		}
	case *ent.Space:
		if v != nil {
			return v.ID
		}
	case *ent.Revision:
		if v != nil {
			return v.ID
		}
	}
	return ""
}

type userJSON struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	DisplayName string          `json:"displayName"`
	Email       *string         `json:"email,omitempty"`
	PhotoURL    *string         `json:"photoURL,omitempty"`
	URLs        *model.UserURLs `json:"urls"`
}

func (a *API) presentUser(ctx context.Context, u *ent.User) (userJSON, error) {
	res := a.r.User()
	urls, err := res.Urls(ctx, u)
	if err != nil {
		return userJSON{}, err
	}
	email, err := res.Email(ctx, u)
	if err != nil {
		return userJSON{}, err
	}
	return userJSON{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: email, PhotoURL: u.PhotoURL, URLs: urls}, nil
}

// mergeRules is the official mergeRules member. Bindery enforces no merge
// rules: an organization has none and a space inherits them, which these
// values state.
type mergeRules struct {
	Type string `json:"type"`
}

// trial is the official trial member. A self-hosted server has no trial.
type trial struct {
	Status string `json:"status"`
}

type sitePointer struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

type organizationJSON struct {
	Object         string                          `json:"object"`
	ID             string                          `json:"id"`
	Title          string                          `json:"title"`
	CreatedAt      string                          `json:"createdAt"`
	EmailDomains   []string                        `json:"emailDomains"`
	Hostname       *string                         `json:"hostname,omitempty"`
	Type           enum.OrganizationType           `json:"type"`
	UseCase        *enum.OrganizationUseCase       `json:"useCase,omitempty"`
	CommunityType  *enum.OrganizationCommunityType `json:"communityType,omitempty"`
	DefaultRole    *enum.Role                      `json:"defaultRole"`
	DefaultContent *sitePointer                    `json:"defaultContent,omitempty"`
	SSO            bool                            `json:"sso"`
	AI             bool                            `json:"ai"`
	InviteLinks    bool                            `json:"inviteLinks"`
	Plan           enum.Plan                       `json:"plan"`
	MergeRules     mergeRules                      `json:"mergeRules"`
	URLs           *model.OrganizationURLs         `json:"urls"`
	Trial          trial                           `json:"trial"`
	CustomHostname *string                         `json:"customHostname,omitempty"`
	Permissions    *authz.OrganizationPermissions  `json:"permissions"`
}

func (a *API) presentOrganization(ctx context.Context, o *ent.Organization) (organizationJSON, error) {
	res := a.r.Organization()
	urls, err := res.Urls(ctx, o)
	if err != nil {
		return organizationJSON{}, err
	}
	perms, err := res.Permissions(ctx, o)
	if err != nil {
		return organizationJSON{}, err
	}
	j := organizationJSON{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: model.FormatTime(o.CreatedAt),
		EmailDomains: o.EmailDomains, Hostname: o.Hostname, Type: o.Type, UseCase: o.UseCase,
		CommunityType: o.CommunityType, DefaultRole: o.DefaultRole, SSO: o.SSO, AI: o.Ai,
		InviteLinks: o.InviteLinks, Plan: o.Plan, MergeRules: mergeRules{Type: "none"}, URLs: urls,
		Trial: trial{Status: "notapplicable"}, CustomHostname: o.CustomHostname, Permissions: perms,
	}
	if j.EmailDomains == nil {
		j.EmailDomains = []string{}
	}
	// Against the rule above, this reads a foreign key: the application
	// layer has no resolver of an organization's default site yet (nor
	// serves sites). It should present that resolver's site once it does.
	if o.DefaultSiteID != nil {
		j.DefaultContent = &sitePointer{Type: "site", Site: *o.DefaultSiteID}
	}
	return j, nil
}

type collectionJSON struct {
	Object       string                       `json:"object"`
	ID           string                       `json:"id"`
	Title        string                       `json:"title"`
	Description  *string                      `json:"description,omitempty"`
	Organization string                       `json:"organization,omitempty"`
	Parent       string                       `json:"parent,omitempty"`
	DefaultLevel *enum.DefaultLevel           `json:"defaultLevel"`
	URLs         *model.CollectionURLs        `json:"urls"`
	Permissions  *authz.CollectionPermissions `json:"permissions"`
}

func (a *API) presentCollection(ctx context.Context, c *ent.Collection) (collectionJSON, error) {
	res := a.r.Collection()
	urls, err := res.Urls(ctx, c)
	if err != nil {
		return collectionJSON{}, err
	}
	perms, err := res.Permissions(ctx, c)
	if err != nil {
		return collectionJSON{}, err
	}
	org, err := a.r.VisibleOrganizationID(ctx, c.OrganizationID)
	if err != nil {
		return collectionJSON{}, err
	}
	parent, err := a.r.VisibleCollectionID(ctx, c.OrganizationID, c.ParentID)
	if err != nil {
		return collectionJSON{}, err
	}
	return collectionJSON{
		Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description,
		Organization: org, Parent: parent, DefaultLevel: c.DefaultLevel,
		URLs: urls, Permissions: perms,
	}, nil
}

func (j collectionJSON) location() string { return j.URLs.Location }

type spaceJSON struct {
	Object              string                  `json:"object"`
	ID                  string                  `json:"id"`
	Title               string                  `json:"title"`
	Emoji               string                  `json:"emoji"`
	Visibility          enum.Visibility         `json:"visibility"`
	CreatedAt           string                  `json:"createdAt"`
	UpdatedAt           string                  `json:"updatedAt"`
	DeletedAt           *string                 `json:"deletedAt,omitempty"`
	EditMode            *enum.EditMode          `json:"editMode,omitempty"`
	MergeRules          mergeRules              `json:"mergeRules"`
	URLs                *model.SpaceURLs        `json:"urls"`
	Organization        string                  `json:"organization,omitempty"`
	Parent              string                  `json:"parent,omitempty"`
	Language            *enum.Language          `json:"language,omitempty"`
	Revision            string                  `json:"revision,omitempty"`
	DefaultLevel        *enum.DefaultLevel      `json:"defaultLevel"`
	Comments            int                     `json:"comments"`
	ChangeRequests      int                     `json:"changeRequests"`
	ChangeRequestsOpen  int                     `json:"changeRequestsOpen"`
	ChangeRequestsDraft int                     `json:"changeRequestsDraft"`
	Permissions         *authz.SpacePermissions `json:"permissions"`
}

func (a *API) presentSpace(ctx context.Context, s *ent.Space) (spaceJSON, error) {
	res := a.r.Space()
	j := spaceJSON{
		Object: "space", ID: s.ID, Title: s.Title, Emoji: s.Emoji, Visibility: s.Visibility,
		CreatedAt: model.FormatTime(s.CreatedAt), UpdatedAt: model.FormatTime(s.UpdatedAt),
		EditMode: s.EditMode, MergeRules: mergeRules{Type: "inherit"}, Language: s.Language, DefaultLevel: s.DefaultLevel,
	}
	if s.DeletedAt != nil {
		d := model.FormatTime(*s.DeletedAt)
		j.DeletedAt = &d
	}
	var err error
	if j.Organization, err = a.r.VisibleOrganizationID(ctx, s.OrganizationID); err != nil {
		return j, err
	}
	if j.Parent, err = a.r.VisibleCollectionID(ctx, s.OrganizationID, s.ParentID); err != nil {
		return j, err
	}
	if j.Revision, err = a.r.VisibleRevisionID(ctx, s.ID, s.RevisionID); err != nil {
		return j, err
	}
	if j.URLs, err = res.Urls(ctx, s); err != nil {
		return j, err
	}
	if j.Permissions, err = res.Permissions(ctx, s); err != nil {
		return j, err
	}
	if j.Comments, err = res.CommentCount(ctx, s); err != nil {
		return j, err
	}
	if j.ChangeRequests, err = res.ChangeRequestCount(ctx, s); err != nil {
		return j, err
	}
	if j.ChangeRequestsOpen, err = res.OpenChangeRequestCount(ctx, s); err != nil {
		return j, err
	}
	if j.ChangeRequestsDraft, err = res.DraftChangeRequestCount(ctx, s); err != nil {
		return j, err
	}
	return j, nil
}

func (j spaceJSON) location() string { return j.URLs.Location }
