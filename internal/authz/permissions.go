package authz

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

// ForOrganization derives an organization's permissions from the decision
// about it, through the Organizations table.
func ForOrganization(d Decision) OrganizationPermissions {
	can := func(a Action) bool { return Organizations.Allows(d, a, false) }
	admin := can(Administer)
	return OrganizationPermissions{
		View:                can(View),
		Admin:               can(Update),
		OwnTeam:             can(CreateContent),
		CreateContent:       can(CreateContent),
		CreateOpenAPISpec:   can(CreateOpenAPI),
		IngestConversations: admin,
		ViewBilling:         admin,
		ListMembers:         can(ListPeople),
		ListTeams:           can(ListPeople),
		ListIntegrations:    can(ListPeople),
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
	can := func(a Action) bool { return Collections.Allows(d, a, false) }
	return CollectionPermissions{
		View:            can(View),
		Admin:           can(Update),
		ViewInviteLinks: can(Administer),
		Create:          can(CreateContent),
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
	can := func(a Action) bool { return Spaces.Allows(d, a, false) }
	return SpacePermissions{
		View:               can(View),
		Access:             d.Member && can(View),
		Admin:              can(Administer),
		ViewInviteLinks:    can(Administer),
		Edit:               d.Member && can(EditContent),
		TriggerGitSync:     d.Member && can(TriggerGitSync),
		Comment:            d.Member && can(Comment),
		Merge:              d.Member && ChangeRequests.Allows(d, Merge, false),
		Review:             d.Member && can(Review),
		InstallIntegration: can(Administer),
	}
}

// CommentPermissions is the permissions object of a comment or a reply.
type CommentPermissions struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	Delete bool `json:"delete"`
}

// ForComment derives the permissions of a comment (t is Comments) or a
// reply (CommentReplies) from the decision about it and whether the caller
// is its author. reply is replying to a comment, or reacting to a reply.
func ForComment(t Table, d Decision, author bool) CommentPermissions {
	can := func(a Action) bool { return t.Allows(d, a, author) }
	return CommentPermissions{View: can(View), Edit: can(Update), Reply: can(Comment), Delete: can(Delete)}
}

// TeamPermissions is the permissions object of a team.
type TeamPermissions struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// ForTeam derives a team's permissions from the decision about it.
func ForTeam(d Decision) TeamPermissions {
	can := func(a Action) bool { return Teams.Allows(d, a, false) }
	return TeamPermissions{Admin: can(Update), View: can(View)}
}

// EditPermissions is the permissions object of organization settings that
// are read and edited as a whole: translation settings, OpenAPI specs.
type EditPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// ForEdit derives such a permissions object from the decision, through the
// table of the resource type.
func ForEdit(t Table, d Decision) EditPermissions {
	return EditPermissions{View: t.Allows(d, View, false), Edit: t.Allows(d, Update, false)}
}
