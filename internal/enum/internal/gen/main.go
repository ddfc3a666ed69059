// Command gen writes internal/enum/values.go from the table below, so that
// every enumeration has the same small set of methods and none can be
// forgotten. Run it with `go generate ./...` from the repository root.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
	"unicode"

	"github.com/bindery/bindery/internal/enum/internal/naming"
)

type enum struct {
	name, doc string
	values    []string
	// gql exposes the enumeration in the GraphQL schema.
	gql bool
}

var enums = []enum{
	{"Role", "Role is a member's or a grant's access level. Roles are ordered: read < comment < edit < review < create < admin.",
		[]string{"admin", "create", "review", "edit", "comment", "read"}, true},
	{"DefaultLevel", "DefaultLevel is the access organization members get on a collection or space by default: a role, or inherit from the parent. Storage and /v1 use null for guest (no default access).",
		[]string{"inherit", "admin", "create", "review", "edit", "comment", "read"}, true},
	{"Visibility", "Visibility says who can see a space without being a member.",
		[]string{"public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"}, true},
	{"EditMode", "EditMode says whether a space's main content is edited directly (live) or not at all (locked).",
		[]string{"live", "locked"}, true},
	{"OrganizationType", "OrganizationType is the kind of organization.",
		[]string{"business", "community"}, true},
	{"OrganizationUseCase", "OrganizationUseCase is what an organization uses Bindery for.",
		[]string{"internalDocs", "docsSite", "audienceControlledSite", "productDocs", "teamKnowledgeBase", "designSystem", "openSourceDocs", "notes", "other"}, true},
	{"OrganizationCommunityType", "OrganizationCommunityType is the kind of community organization.",
		[]string{"nonProfit", "openSource", "education"}, true},
	{"Plan", "Plan is an organization's billing product, as the official API names it.",
		[]string{"free_2024", "plus_2024", "pro_2024", "enterprise_2024", "community_2024", "free", "plus", "pro", "internal"}, true},
	{"Language", "Language is a content language code.",
		[]string{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"}, true},
	{"RevisionType", "RevisionType says how a revision came to be.",
		[]string{"edits", "merge", "rollback", "update", "computed"}, true},
	{"ChangeRequestStatus", "ChangeRequestStatus is the state of a change request. merged is terminal.",
		[]string{"draft", "open", "archived", "merged"}, true},
	{"CommentStatus", "CommentStatus is the state of a comment thread.",
		[]string{"open", "resolved"}, true},
	{"TeamMemberRole", "TeamMemberRole is a user's role inside a team.",
		[]string{"owner", "member"}, true},
	{"TranslationStatus", "TranslationStatus is where a translation's runs are. Bindery runs no machine translation: always pending.",
		[]string{"pending", "running", "completed"}, true},
	{"SAMLProviderStatus", "SAMLProviderStatus says whether a SAML provider is in use.",
		[]string{"active", "pending"}, true},
	{"SiteType", "SiteType is a site's plan.",
		[]string{"basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"}, true},
	{"SiteVisibility", "SiteVisibility says who can see a published site.",
		[]string{"public", "unlisted", "share-link", "visitor-auth"}, true},
	{"SiteAgentsContext", "SiteAgentsContext says whether a site's content is offered to AI agents.",
		[]string{"excluded", "included"}, true},
	{"OpenAPISpecProcessingState", "OpenAPISpecProcessingState is where an OpenAPI spec is in its processing.",
		[]string{"pending", "progress", "complete"}, true},
	{"OpenAPISpecProcessingErrorCode", "OpenAPISpecProcessingErrorCode says why the last processing of a spec failed.",
		[]string{"FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"}, true},
	{"OpenAPISpecVisibility", "OpenAPISpecVisibility says who can read an OpenAPI spec.",
		[]string{"private", "public"}, false},
	{"IntegrationTarget", "IntegrationTarget is where an integration can be installed and configured: all of them, or sites, spaces or the organization only.",
		[]string{"all", "site", "space", "organization"}, true},
	{"IntegrationVisibility", "IntegrationVisibility says who can find an integration: everyone in lists (public), everyone by its name only (unlisted), or the members of its organization only (private).",
		[]string{"public", "private", "unlisted"}, true},
	{"IntegrationScope", "IntegrationScope is a permission granted to an integration.",
		[]string{"space:content:read", "space:content:write", "space:metadata:read", "space:metadata:write", "space:git:sync", "page:feedback:read", "site:metadata:read", "site:views:read", "site:script:inject", "site:script:cookies", "site:visitor:auth", "site:adaptive:read", "site:adaptive:write", "openapi:read", "openapi:write", "conversations:ingest"}, true},
	{"IntegrationCategory", "IntegrationCategory is a marketplace category.",
		[]string{"analytics", "collaboration", "content", "gitsync", "marketing", "visitor-auth", "other"}, true},
	{"InstallationStatus", "InstallationStatus is the state of an integration installation: active, pending while its configuration lacks a property the integration requires, paused while the integration is unpublished.",
		[]string{"active", "pending", "paused"}, true},
	{"InstallationSelection", "InstallationSelection says whether an installation covers all spaces or sites, or only selected ones.",
		[]string{"all", "selected"}, true},
	{"InviteKind", "InviteKind distinguishes shareable invite links from invitations sent to an email address.",
		[]string{"link", "email"}, false},
	{"CredentialKind", "CredentialKind is what a stored credential is: an API token a person made, or a session a sign-in made for a browser.",
		[]string{"token", "session"}, false},
	{"SignInKind", "SignInKind is how a person signs in: an email link, an OpenID Connect provider or an organization's SAML provider.",
		[]string{"email", "oidc", "saml"}, true},
	{"ObjectKind", "ObjectKind is the kind of a content-addressed object in the revision store.",
		[]string{"page", "tree", "file", "files", "reusable-content", "reusable-contents"}, false},
	{"PageType", "PageType is the kind of a page in a revision's tree: a document with markdown, a group of pages, or a link.",
		[]string{"document", "group", "link"}, true},
	{"ImportSource", "ImportSource is where content imported from a URL comes from, as the official API names it. Bindery imports website, html, markdown and zip.",
		[]string{"website", "docx", "markdown", "html", "zip", "confluence", "github-wiki", "notion", "google-docs"}, true},
	{"PageChangeKind", "PageChangeKind is how a change request changes a page: it adds it, changes what it holds (its path may change too), only moves it, or removes it.",
		[]string{"added", "modified", "moved", "removed"}, true},
	{"MergeResult", "MergeResult is the outcome of updating or merging a change request.",
		[]string{"merge", "update", "conflicts"}, true},
	{"LayoutWidth", "LayoutWidth is the width of a page.",
		[]string{"default", "wide"}, true},
	{"CoverSize", "CoverSize is the size of a page's cover image.",
		[]string{"hero", "full"}, true},
	{"ContentReferenceStatus", "ContentReferenceStatus is the state of a link's target: ok; broken when the page, file or anchor is not in the revision; in-app when a URL points at Bindery's own app or API.",
		[]string{"ok", "broken", "in-app"}, true},
	{"ContentReferenceRelation", "ContentReferenceRelation is how content uses a link's target: it embeds it (dependsOn: an image, a cover) or refers to it (reference).",
		[]string{"reference", "dependsOn"}, true},
	{"ContentReferenceKind", "ContentReferenceKind is what a link points at: a page, a file, an anchor of a page, or a URL.",
		[]string{"page", "file", "anchor", "url"}, true},
	{"EventType", "EventType is what an event of a GraphQL subscription reports: a comment or a reply posted, edited, deleted or reacted to, a comment resolved or reopened; a change request created, updated (subject, status), its content changed, synced with the main content or merged; the space's main content moved to a new revision.",
		[]string{"comment.posted", "comment.edited", "comment.resolved", "comment.reopened", "comment.deleted", "comment.reactions",
			"reply.posted", "reply.edited", "reply.deleted", "reply.reactions",
			"change-request.created", "change-request.updated", "change-request.content", "change-request.synced", "change-request.merged",
			"space.content"}, true},
	{"WebhookEventType", "WebhookEventType is what a webhook delivery reports: a space created, updated, deleted, restored, or its main content changed; a change request created, updated or merged; a comment posted or resolved; a member added to or removed from the organization; a site published.",
		[]string{"space.created", "space.updated", "space.deleted", "space.restored", "space.content",
			"change-request.created", "change-request.updated", "change-request.merged",
			"comment.posted", "comment.resolved", "member.added", "member.removed", "site.published"}, true},
	{"WebhookDeliveryState", "WebhookDeliveryState is where a webhook delivery stands: pending (not sent yet, or to be retried), succeeded (a 2xx answer), or failed (no more attempts).",
		[]string{"pending", "succeeded", "failed"}, true},
	{"GitSyncOperationDirection", "GitSyncOperationDirection says which way a Git sync operation moves content: from the repository into the space (import) or from the space to the repository (export).",
		[]string{"import", "export"}, true},
	{"GitSyncOperationState", "GitSyncOperationState is where a Git sync operation stands: running (waiting for a worker, or under way), success or failure.",
		[]string{"running", "success", "failure"}, true},
	{"GitSyncOperationStage", "GitSyncOperationStage is the step a Git sync operation is at, as the official API names them: fetching the repository, checking its configuration, processing pages and files, and making the revision or the commit.",
		[]string{"repo_fetch", "config_check", "content_process", "finalize"}, true},
	{"GitProvider", "GitProvider is the host of a space's Git repository, as the official API names them.",
		[]string{"github", "gitlab"}, true},
}

func constName(typ, v string) string {
	var b strings.Builder
	b.WriteString(typ)
	up := true
	for _, r := range v {
		if strings.ContainsRune("-:_. ", r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func main() {
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/enum/internal/gen; DO NOT EDIT.\n\npackage enum\n\nimport \"io\"\n")
	for _, e := range enums {
		list := strings.ToLower(e.name[:1]) + e.name[1:] + "Values"
		fmt.Fprintf(&b, "\n// %s\ntype %s string\n\n// %s values.\nconst (\n", e.doc, e.name, e.name)
		var consts []string
		for _, v := range e.values {
			c := constName(e.name, v)
			consts = append(consts, c)
			fmt.Fprintf(&b, "\t%s %s = %q\n", c, e.name, v)
		}
		fmt.Fprintf(&b, ")\n\nvar %s = []%s{%s}\n", list, e.name, strings.Join(consts, ", "))
		r := strings.NewReplacer("$T", e.name, "$L", list)
		b.WriteString(r.Replace(`
// $TValues returns every $T in declaration order.
func $TValues() []$T { return append([]$T(nil), $L...) }

// Values returns the wire values; ent uses it to declare the column.
func ($T) Values() []string { return names($L) }

// String returns the wire value.
func (v $T) String() string { return string(v) }

// Valid reports whether v is one of the declared values.
func (v $T) Valid() bool { return contains($L, v) }

// Parse$T returns the $T whose wire value is s.
func Parse$T(s string) ($T, error) { return parse("$T", $L, s) }

// MarshalGQL writes the GraphQL enum value.
func (v $T) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL reads a GraphQL enum value.
func (v *$T) UnmarshalGQL(in any) error { return unmarshalGQL("$T", $L, v, in) }

// UnmarshalJSON reads a wire value and rejects unknown ones.
func (v *$T) UnmarshalJSON(b []byte) error { return unmarshalJSON("$T", $L, v, b) }
`))
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("internal/enum/values.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("graph/schema/enum.graphqls", graphql(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// graphql returns the GraphQL declarations of the exposed enumerations.
func graphql() []byte {
	var b bytes.Buffer
	b.WriteString("# Code generated by internal/enum/internal/gen; DO NOT EDIT.\n")
	b.WriteString("# Each value is the upper snake case of the /v1 value, see package enum.\n")
	for _, e := range enums {
		if !e.gql {
			continue
		}
		fmt.Fprintf(&b, "\n\"\"\"\n%s\n\"\"\"\nenum %s {\n", e.doc, e.name)
		for _, v := range e.values {
			fmt.Fprintf(&b, "  \"/v1: %s\"\n  %s\n", v, naming.GQLName(v))
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}
