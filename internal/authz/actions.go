package authz

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bindery/bindery/internal/enum"
)

// Action is something a caller does to a resource. Each resource type has a
// Table of its actions: the resolvers ask for an action, never for a role,
// the permissions objects of responses are derived from the same tables, and
// the role table of docs/api/permissions.md is generated from them (see
// Markdown).
type Action string

// Actions. Not every resource type has every action; a table lists those its
// type has.
const (
	View          Action = "view"
	Update        Action = "update"
	UpdateDetails Action = "updateDetails"
	UpdateAccess  Action = "updateAccess"
	Delete        Action = "delete"
	Restore       Action = "restore"
	Move          Action = "move"
	Transfer      Action = "transfer"
	Duplicate     Action = "duplicate"
	CreateContent Action = "createContent"
	ListDeleted   Action = "listDeleted"
	ListPeople    Action = "listPeople"
	// ViewChanges reads what is worked on in a space beside its published
	// content: its change requests and comments.
	ViewChanges    Action = "viewChanges"
	Comment        Action = "comment"
	EditContent    Action = "editContent"
	Merge          Action = "merge"
	Review         Action = "review"
	TriggerGitSync Action = "triggerGitSync"
	Administer     Action = "administer"
	OpenChange     Action = "openChangeRequest"
	Sync           Action = "sync"
	Resolve        Action = "resolve"
	ManageMembers  Action = "manageMembers"
	ManageTeams    Action = "manageTeams"
	ManageAccess   Action = "manageAccess"
	Join           Action = "join"
	ReadSettings   Action = "readSettings"
	ManageSettings Action = "manageSettings"
	CreateOpenAPI  Action = "createOpenAPISpec"
	ManageSites    Action = "manageSites"
	Publish        Action = "publish"
	// PublishIntegration publishes an integration under an organization.
	PublishIntegration Action = "publishIntegration"
)

// Rule is how an action is allowed: with at least Min, or, when Owner is
// set, to the resource's owner (its author) with any role that sees it.
type Rule struct {
	Min   enum.Role
	Owner bool
	// Doc says what the action covers, for the role table.
	Doc string
}

// Table is the rules of one resource type's actions.
type Table struct {
	// Name is the resource type as messages and the role table name it.
	Name  string
	Rules map[Action]Rule
}

// Min returns the minimum role of an action. An action the table does not
// list is a programming error.
func (t Table) Min(a Action) enum.Role {
	r, ok := t.Rules[a]
	if !ok {
		panic(fmt.Sprintf("authz: %s has no action %q", t.Name, a))
	}
	return r.Min
}

// Allows reports whether the decision allows the action; owner is true when
// the caller owns the resource.
func (t Table) Allows(d Decision, a Action, owner bool) bool {
	r := t.Min(a)
	if d.Published && a != View {
		return false
	}
	switch {
	case r == "":
		return d.Visible()
	case t.Rules[a].Owner && owner && d.Visible():
		return true
	}
	return d.Can(r)
}

// The tables. Organization roles apply to the organization itself; the
// content tables apply to the caller's effective role on the content (see
// Decide).
var (
	Organizations = Table{Name: "organization", Rules: map[Action]Rule{
		View:           {Min: "", Doc: "Read it (members, guests, and anyone who can see some of its content)"},
		Update:         {Min: enum.RoleAdmin, Doc: "Update it"},
		CreateContent:  {Min: enum.RoleCreate, Doc: "Create a collection or space at its top level"},
		ListDeleted:    {Min: enum.RoleAdmin, Doc: "List its deleted spaces"},
		ListPeople:     {Min: enum.RoleRead, Doc: "List its members, teams and integrations"},
		Administer:     {Min: enum.RoleAdmin, Doc: "Billing, installing integrations and listing its installations, conversations, registering and listing webhook endpoints"},
		ManageMembers:  {Min: enum.RoleAdmin, Doc: "Change a member's role, mark them as SSO members, remove them (a member may leave)"},
		ManageTeams:    {Min: enum.RoleAdmin, Doc: "Create a team"},
		ManageAccess:   {Min: enum.RoleAdmin, Doc: "Invite people by email, list and create invite links, list and create SAML providers"},
		ReadSettings:   {Min: enum.RoleRead, Doc: "List its translation settings and OpenAPI specs"},
		ManageSettings: {Min: enum.RoleAdmin, Doc: "Create translation settings"},
		CreateOpenAPI:  {Min: enum.RoleCreate, Doc: "Create an OpenAPI spec (permission `createOpenAPISpec`)"},
		ManageSites:    {Min: enum.RoleAdmin, Doc: "Create a site"},
		PublishIntegration: {Min: enum.RoleAdmin,
			Doc: "Publish an integration under it (a new name, or a new version of one of its own)"},
	}}
	Collections = Table{Name: "collection", Rules: map[Action]Rule{
		View:          {Min: enum.RoleRead, Doc: "Read it"},
		Update:        {Min: enum.RoleAdmin, Doc: "Update it"},
		Delete:        {Min: enum.RoleAdmin, Doc: "Delete it"},
		Move:          {Min: enum.RoleAdmin, Doc: "Move it (and `create` where it goes)"},
		Transfer:      {Min: enum.RoleAdmin, Doc: "Transfer it (and `create` where it goes)"},
		CreateContent: {Min: enum.RoleCreate, Doc: "Create a collection or space in it"},
		Administer:    {Min: enum.RoleAdmin, Doc: "See its invite links"},
	}}
	Spaces = Table{Name: "space", Rules: map[Action]Rule{
		View:           {Min: enum.RoleRead, Doc: "Read it and its content (a published site's reader: its published content, no change requests or comments)"},
		UpdateDetails:  {Min: enum.RoleEdit, Doc: "Update its title, emoji, icon, language"},
		UpdateAccess:   {Min: enum.RoleAdmin, Doc: "Update its edit mode, default level or visibility, create its share links, and rotate its visitor signing key"},
		Delete:         {Min: enum.RoleAdmin, Doc: "Delete it"},
		Restore:        {Min: enum.RoleAdmin, Doc: "Restore it, and read it while deleted"},
		Move:           {Min: enum.RoleAdmin, Doc: "Move it (and `create` where it goes)"},
		Transfer:       {Min: enum.RoleAdmin, Doc: "Transfer it (and `create` where it goes)"},
		Duplicate:      {Min: enum.RoleRead, Doc: "Duplicate it (and `create` on its parent)"},
		Comment:        {Min: enum.RoleComment, Doc: "Comment on it (permission `comment`)"},
		EditContent:    {Min: enum.RoleEdit, Doc: "Edit or import its content (permission `edit`)"},
		OpenChange:     {Min: enum.RoleEdit, Doc: "Open a change request"},
		TriggerGitSync: {Min: enum.RoleEdit, Doc: "Trigger a Git sync (permission `triggerGitSync`)"},
		Review:         {Min: enum.RoleReview, Doc: "Review change requests (permission `review`)"},
		Administer:     {Min: enum.RoleAdmin, Doc: "See invite links, install integrations"},
	}}
	ChangeRequests = Table{Name: "change request", Rules: map[Action]Rule{
		View:        {Min: enum.RoleRead, Doc: "Read it, its content and its PDF"},
		Update:      {Min: enum.RoleEdit, Doc: "Change its subject or status"},
		EditContent: {Min: enum.RoleEdit, Doc: "Edit or import its content"},
		Sync:        {Min: enum.RoleEdit, Doc: "Update it from the main content"},
		Merge:       {Min: enum.RoleEdit, Doc: "Merge it (a space's permission `merge`)"},
		Comment:     {Min: enum.RoleComment, Doc: "Comment on it"},
	}}
	// Comments and their replies: the role is the caller's on the space
	// they are in. Their author may edit and delete them with any role that
	// reads the space.
	Comments = Table{Name: "comment", Rules: map[Action]Rule{
		View:    {Min: enum.RoleRead, Doc: "Read it and its replies"},
		Comment: {Min: enum.RoleComment, Doc: "Reply to it, react to it"},
		Resolve: {Min: enum.RoleComment, Doc: "Resolve or reopen it"},
		Update:  {Min: enum.RoleAdmin, Owner: true, Doc: "Edit its body"},
		Delete:  {Min: enum.RoleAdmin, Owner: true, Doc: "Delete it, with its replies and reactions"},
	}}
	CommentReplies = Table{Name: "comment reply", Rules: map[Action]Rule{
		View:    {Min: enum.RoleRead, Doc: "Read it"},
		Comment: {Min: enum.RoleComment, Doc: "React to it"},
		Update:  {Min: enum.RoleAdmin, Owner: true, Doc: "Edit its body"},
		Delete:  {Min: enum.RoleAdmin, Owner: true, Doc: "Delete it, with its reactions"},
	}}

	// Teams: their organization's members read them, its admins manage
	// them.
	Teams = Table{Name: "team", Rules: map[Action]Rule{
		View:   {Min: enum.RoleRead, Doc: "Read it and its members"},
		Update: {Min: enum.RoleAdmin, Doc: "Rename it, add or remove members, give it a role on content"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete it"},
	}}

	// Invite links and SAML providers are seen by their organization's
	// admins only (anyone else gets a 404): a link's ID is its secret, a
	// provider holds the identity provider's certificate. Whoever holds a
	// link's ID may join with it, without seeing it.
	Invites = Table{Name: "invite link", Rules: map[Action]Rule{
		View:   {Min: enum.RoleAdmin, Doc: "Read it"},
		Update: {Min: enum.RoleAdmin, Doc: "Change its role"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete it"},
		Join:   {Min: "", Doc: "Join its organization with its role (whoever holds its ID, which is the link's secret)"},
	}}
	SAMLProviders = Table{Name: "SAML provider", Rules: map[Action]Rule{
		View:   {Min: enum.RoleAdmin, Doc: "Read it, its certificate included"},
		Update: {Min: enum.RoleAdmin, Doc: "Update it"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete it"},
	}}

	// Translation settings are read by the members of their organization
	// who have a role, and changed by its admins.
	TranslationSettings = Table{Name: "translation settings", Rules: map[Action]Rule{
		View:   {Min: enum.RoleRead, Doc: "Read them"},
		Update: {Min: enum.RoleAdmin, Doc: "Change their title, languages, source, language or instructions"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete them"},
	}}

	// OpenAPI specs are read by the members of their organization who have
	// a role, and written by those who may create them (the create role:
	// the organization permission createOpenAPISpec).
	OpenAPISpecs = Table{Name: "OpenAPI spec", Rules: map[Action]Rule{
		View:   {Min: enum.RoleRead, Doc: "Read it, its versions and their operations"},
		Update: {Min: enum.RoleCreate, Doc: "Give it a new source (permission `edit`)"},
		Delete: {Min: enum.RoleCreate, Doc: "Delete it, with its versions"},
	}}
	OpenAPISpecVersions = Table{Name: "OpenAPI spec version", Rules: map[Action]Rule{
		View: {Min: enum.RoleRead, Doc: "Read it and its operations (whoever reads its spec)"},
	}}

	// Sites: their organization's members with a role read them (guests
	// do not), its admins manage them. Readers of a published site who are
	// not members come in through its visibility, not through this table.
	Sites = Table{Name: "site", Rules: map[Action]Rule{
		View:    {Min: enum.RoleRead, Doc: "Read it, its sections, section groups, site-spaces and redirects"},
		Update:  {Min: enum.RoleAdmin, Doc: "Update it and its sections, section groups, site-spaces, redirects, share links, adaptive schema and visitor signing key"},
		Publish: {Min: enum.RoleAdmin, Doc: "Publish or unpublish it"},
		Delete:  {Min: enum.RoleAdmin, Doc: "Delete it, with its sections, section groups, site-spaces, redirects and share links"},
	}}

	// A site's sections and site-spaces: whoever reads the site reads
	// them, its admins change them.
	SiteSections = Table{Name: "site section", Rules: map[Action]Rule{
		View:   {Min: enum.RoleRead, Doc: "Read it and its site-spaces"},
		Update: {Min: enum.RoleAdmin, Doc: "Update or move it"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete it, with its site-spaces"},
	}}
	SiteSectionGroups = Table{Name: "site section group", Rules: map[Action]Rule{
		View:   {Min: enum.RoleRead, Doc: "Read it and its sections"},
		Update: {Min: enum.RoleAdmin, Doc: "Update or move it, add sections to it or remove them"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete it; its sections stay, ungrouped"},
	}}
	SiteSpaces = Table{Name: "site-space", Rules: map[Action]Rule{
		View:   {Min: enum.RoleRead, Doc: "Read it"},
		Update: {Min: enum.RoleAdmin, Doc: "Update or move it"},
		Delete: {Min: enum.RoleAdmin, Doc: "Remove it from its site"},
	}}

	// A site's redirects: whoever reads the site reads and resolves them,
	// its admins change them.
	SiteRedirects = Table{Name: "site redirect", Rules: map[Action]Rule{
		View:   {Min: enum.RoleRead, Doc: "Read it, or resolve a path of the site to it"},
		Update: {Min: enum.RoleAdmin, Doc: "Update it"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete it"},
	}}

	// Share links of a share-link site or space: whoever administers the
	// site or space manages them; nobody else sees them, since each shows
	// its secret key in its published URL.
	ShareLinks = Table{Name: "share link", Rules: map[Action]Rule{
		View:   {Min: enum.RoleAdmin, Doc: "Read it, with the key in its published URL (whoever administers its site or space)"},
		Update: {Min: enum.RoleAdmin, Doc: "Rename it, or make it active or inactive"},
		Delete: {Min: enum.RoleAdmin, Doc: "Revoke it for good"},
	}}

	// Integrations: anyone reads a public or unlisted one (only a public
	// one is listed), the members of its organization a private one; its
	// organization's admins publish new versions, unpublish it and see its
	// installations.
	Integrations = Table{Name: "integration", Rules: map[Action]Rule{
		View:       {Min: "", Doc: "Read it: anyone when it is public or unlisted, its organization's members when private"},
		Update:     {Min: enum.RoleAdmin, Doc: "Publish a new version of it (its organization's admins)"},
		Delete:     {Min: enum.RoleAdmin, Doc: "Unpublish it (its organization's admins)"},
		Administer: {Min: enum.RoleAdmin, Doc: "List its installations in every organization (its organization's admins)"},
	}}
	// An installation is seen by the admins of the organization it is
	// installed in, who change and remove it, and by the admins of the
	// integration's organization, who only read it.
	IntegrationInstallations = Table{Name: "integration installation", Rules: map[Action]Rule{
		View:   {Min: "", Doc: "Read it: the admins of its organization, and of the integration's"},
		Update: {Min: enum.RoleAdmin, Doc: "Change its configuration, spaces and sites (its organization's admins)"},
		Delete: {Min: enum.RoleAdmin, Doc: "Uninstall it (its organization's admins)"},
	}}

	// Webhook endpoints and their deliveries: only the organization's
	// admins see or change them, since a delivery shows the objects of
	// the whole organization.
	WebhookEndpoints = Table{Name: "webhook endpoint", Rules: map[Action]Rule{
		View:   {Min: enum.RoleAdmin, Doc: "Read it and its deliveries, with the log of their attempts"},
		Update: {Min: enum.RoleAdmin, Doc: "Change it, rotate its signing secret, or redeliver one of its deliveries"},
		Delete: {Min: enum.RoleAdmin, Doc: "Delete it, with its deliveries"},
	}}
	WebhookDeliveries = Table{Name: "webhook delivery", Rules: map[Action]Rule{
		View:   {Min: enum.RoleAdmin, Doc: "Read it, with the log of its attempts"},
		Update: {Min: enum.RoleAdmin, Doc: "Redeliver it"},
	}}

	Revisions = Table{Name: "revision", Rules: map[Action]Rule{
		View: {Min: enum.RoleRead, Doc: "Read it and its content (whoever can read its space)"},
	}}
	Users = Table{Name: "user", Rules: map[Action]Rule{
		View: {Min: "", Doc: "Look them up by ID: themselves, or someone who shares an organization with them"},
	}}
	APITokens = Table{Name: "API token", Rules: map[Action]Rule{
		View: {Min: "", Doc: "Read or revoke it: its owner only"},
	}}
)

// AllTables lists every table, in the role table's order.
func AllTables() []Table {
	return []Table{Organizations, Collections, Spaces, ChangeRequests, Comments, CommentReplies, Teams, Invites, SAMLProviders,
		Revisions, Users, APITokens, TranslationSettings, OpenAPISpecs, OpenAPISpecVersions, Sites, SiteSections, SiteSpaces,
		SiteSectionGroups, SiteRedirects, ShareLinks, Integrations, IntegrationInstallations, WebhookEndpoints, WebhookDeliveries}
}

// Markdown renders the tables as the role table of docs/api/permissions.md;
// a test holds the document to it.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| Resource | Action | Minimum role |\n|---|---|---|\n")
	for _, t := range AllTables() {
		actions := make([]Action, 0, len(t.Rules))
		for a := range t.Rules {
			actions = append(actions, a)
		}
		sort.Slice(actions, func(i, j int) bool {
			ri, rj := t.Rules[actions[i]].Min.Rank(), t.Rules[actions[j]].Min.Rank()
			if ri != rj {
				return ri < rj
			}
			return actions[i] < actions[j]
		})
		for _, a := range actions {
			r := t.Rules[a]
			role := "`" + string(r.Min) + "`"
			if r.Min == "" {
				role = "none: seeing it is enough"
			}
			if r.Owner {
				role += ", or its author"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Name, r.Doc, role)
		}
	}
	return b.String()
}
