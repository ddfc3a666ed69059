package authz

import "github.com/bindery/bindery/internal/enum"

// The minimum role of each action. Resolvers ask for these, never for a role
// literal, and the permissions objects of responses are derived from them, so
// that what a response says the caller may do is what the caller may do.
const (
	ViewContent       = enum.RoleRead
	CommentContent    = enum.RoleComment
	EditContent       = enum.RoleEdit
	MergeContent      = enum.RoleEdit
	ReviewContent     = enum.RoleReview
	CreateContent     = enum.RoleCreate
	AdministerContent = enum.RoleAdmin

	// UpdateSpaceDetails covers a space's title, emoji, icon and language.
	UpdateSpaceDetails = enum.RoleEdit
	// UpdateSpaceAccess covers a space's default level and edit mode.
	UpdateSpaceAccess = enum.RoleAdmin

	AdministerOrganization = enum.RoleAdmin
	CreateInOrganization   = enum.RoleCreate
	ListOrganizationPeople = enum.RoleRead
)

// OrganizationPermissions is the permissions object of an organization.
type OrganizationPermissions struct {
	View                bool `json:"view"`
	Admin               bool `json:"admin"`
	OwnTeam             bool `json:"ownTeam"`
	CreateContent       bool `json:"createContent"`
	CreateOpenAPISpec   bool `json:"createOpenAPISpec"`
	IngestConversations bool `json:"ingestConversations"`
	ViewBilling         bool `json:"viewBilling"`
	ListMembers         bool `json:"listMembers"`
	ListTeams           bool `json:"listTeams"`
	ListIntegrations    bool `json:"listIntegrations"`
	ListInstallations   bool `json:"listInstallations"`
	InstallIntegration  bool `json:"installIntegration"`
}

// ForOrganization derives an organization's permissions from the caller's
// membership.
func ForOrganization(m Membership) OrganizationPermissions {
	role, visible := m.OrgRole()
	admin := role.AtLeast(AdministerOrganization)
	return OrganizationPermissions{
		View:                visible,
		Admin:               admin,
		OwnTeam:             role.AtLeast(CreateInOrganization),
		CreateContent:       role.AtLeast(CreateInOrganization),
		CreateOpenAPISpec:   role.AtLeast(CreateInOrganization),
		IngestConversations: admin,
		ViewBilling:         admin,
		ListMembers:         role.AtLeast(ListOrganizationPeople),
		ListTeams:           role.AtLeast(ListOrganizationPeople),
		ListIntegrations:    role.AtLeast(ListOrganizationPeople),
		ListInstallations:   admin,
		InstallIntegration:  admin,
	}
}

// CollectionPermissions is the permissions object of a collection.
type CollectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// ForCollection derives a collection's permissions from the decision.
func ForCollection(d Decision) CollectionPermissions {
	return CollectionPermissions{
		View:            d.Can(ViewContent),
		Admin:           d.Can(AdministerContent),
		ViewInviteLinks: d.Can(AdministerContent),
		Create:          d.Can(CreateContent),
	}
}

// SpacePermissions is the permissions object of a space.
type SpacePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	ViewInviteLinks    bool `json:"viewInviteLinks"`
	Edit               bool `json:"edit"`
	TriggerGitSync     bool `json:"triggerGitSync"`
	Comment            bool `json:"comment"`
	Merge              bool `json:"merge"`
	Review             bool `json:"review"`
	InstallIntegration bool `json:"installIntegration"`
}

// ForSpace derives a space's permissions from the decision. Access means
// access as a member, beyond what the space's visibility gives everyone.
func ForSpace(d Decision) SpacePermissions {
	return SpacePermissions{
		View:               d.Can(ViewContent),
		Access:             d.Member && d.Can(ViewContent),
		Admin:              d.Can(AdministerContent),
		ViewInviteLinks:    d.Can(AdministerContent),
		Edit:               d.Member && d.Can(EditContent),
		TriggerGitSync:     d.Member && d.Can(EditContent),
		Comment:            d.Member && d.Can(CommentContent),
		Merge:              d.Member && d.Can(MergeContent),
		Review:             d.Member && d.Can(ReviewContent),
		InstallIntegration: d.Can(AdministerContent),
	}
}
