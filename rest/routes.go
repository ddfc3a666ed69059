package rest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/bindery/bindery/ent"
)

// route is one /v1 operation: a row of the route table.
type route struct {
	method string
	// path is relative to /v1 and written as the official spec writes it.
	path string
	// status is the status of success. A DELETE answers 204, as the API
	// contract says; the official spec also lists 205 ("has been deleted")
	// and gives 204 as "did not exist", and the contract wins.
	status int
	// operationID is the official spec's name of the operation, or that
	// of one of Bindery's Extensions.
	operationID string
	serve       adapter
}

// table is /v1. Each row is one operation; the adapter says how the request
// becomes the resolver's input (a body struct's input method, or a params
// method that resolves the path), which resolver it calls, and the
// presenter. Content reads are the same six rows for each of the three
// sources of a revision, which contentRoutes makes, with the link analysis
// of a page and a file's backlinks where the spec has them; comments are
// the same ten rows on a space and on a change request (commentRoutes).
func table() []route {
	return slices.Concat([]route{
		{"GET", "/user", http.StatusOK, "getAuthenticatedUser", get(params.viewer, (*API).presentUser)},
		{"GET", "/users/{userId}", http.StatusOK, "getUserById", get(params.user, (*API).presentUser)},

		{"GET", "/orgs", http.StatusOK, "listOrganizationsForAuthenticatedUser", list(params.organizations, (*API).presentOrganization)},
		{"GET", "/orgs/{organizationId}", http.StatusOK, "getOrganizationById", get(params.organization, (*API).presentOrganization)},
		{"PATCH", "/orgs/{organizationId}", http.StatusOK, "updateOrganizationById",
			mutate((*updateOrganizationBody).input, mutation.UpdateOrganization, (*API).presentOrganization)},
		{"GET", "/orgs/{organizationId}/spaces", http.StatusOK, "listSpacesInOrganizationById", list(params.organizationSpaces, (*API).presentSpace)},
		{"GET", "/orgs/{organizationId}/search", http.StatusOK, "searchOrganizationContent",
			list(params.organizationSearch, (*API).presentSearchSpace)},
		{"POST", "/orgs/{organizationId}/spaces", http.StatusCreated, "createSpace",
			mutate((*createSpaceBody).input, mutation.CreateSpace, (*API).presentSpace)},
		{"GET", "/orgs/{organizationId}/collections", http.StatusOK, "listCollectionsInOrganizationById",
			list(params.organizationCollections, (*API).presentCollection)},
		{"POST", "/orgs/{organizationId}/collections", http.StatusCreated, "createCollection",
			mutate((*createCollectionBody).input, mutation.CreateCollection, (*API).presentCollection)},

		{"GET", "/orgs/{organizationId}/members", http.StatusOK, "listMembersInOrganizationById", list(params.members, (*API).presentMember)},
		{"GET", "/orgs/{organizationId}/members/{userId}", http.StatusOK, "getMemberInOrganizationById",
			get(params.member, (*API).presentMember)},
		{"PATCH", "/orgs/{organizationId}/members/{userId}", http.StatusOK, "updateMemberInOrganizationById",
			mutate((*updateMemberBody).input, mutation.UpdateMember, (*API).presentMember)},
		{"DELETE", "/orgs/{organizationId}/members/{userId}", http.StatusNoContent, "removeMemberFromOrganizationById",
			remove(params.removeMember, mutation.RemoveMember)},
		{"GET", "/orgs/{organizationId}/members/{userId}/spaces", http.StatusOK, "listSpacesForOrganizationMember",
			list(params.memberSpaces, (*API).presentMemberSpace)},
		{"GET", "/orgs/{organizationId}/members/{userId}/teams", http.StatusOK, "listTeamsForOrganizationMember",
			list(params.memberTeams, (*API).presentTeamMembership)},
		{"GET", "/orgs/{organizationId}/teams", http.StatusOK, "listTeamsInOrganizationById", list(params.teams, (*API).presentTeam)},
		{"PUT", "/orgs/{organizationId}/teams", http.StatusCreated, "createOrganizationTeam",
			mutate((*createTeamBody).input, mutation.CreateTeam, (*API).presentTeam)},
		{"GET", "/orgs/{organizationId}/teams/{teamId}", http.StatusOK, "getTeamInOrganizationById", get(params.team, (*API).presentTeam)},
		{"PATCH", "/orgs/{organizationId}/teams/{teamId}", http.StatusOK, "updateTeamInOrganizationById",
			mutate((*updateTeamBody).input, mutation.UpdateTeam, (*API).presentTeam)},
		{"DELETE", "/orgs/{organizationId}/teams/{teamId}", http.StatusNoContent, "removeTeamFromOrganizationById",
			remove(params.deleteTeam, mutation.DeleteTeam)},
		{"DELETE", "/orgs/{organizationId}/teams/{teamId}/members/{userId}", http.StatusNoContent,
			"deleteMemberFromOrganizationTeamById", remove(params.removeTeamMember, mutation.RemoveTeamMember)},
		{"PUT", "/orgs/{organizationId}/teams/{teamId}/members/{userId}", http.StatusNoContent,
			"addMemberToOrganizationTeamById", mutate((*addTeamMemberBody).input, mutation.AddTeamMember, presentNothing[*ent.Team])},
		{"POST", "/orgs/{organizationId}/members/{userId}/sso", http.StatusOK, "setUserAsSSOMemberForOrganization",
			mutate(fromPath(params.setMemberSSO), mutation.SetMemberSso, (*API).presentMember)},
		{"POST", "/orgs/{organizationId}/ping", http.StatusOK, "updateOrganizationMemberLastSeenAt",
			mutate(fromPath(params.ping), mutation.PingOrganization, (*API).presentPing)},

		{"POST", "/orgs/{organizationId}/invites", http.StatusOK, "inviteUsersToOrganization",
			mutate((*inviteBody).input, mutation.InviteMembers, (*API).presentInvited)},
		{"POST", "/orgs/{organizationId}/invites/{inviteId}", http.StatusOK, "joinOrganizationWithInvite",
			mutate(fromPath(params.joinInvite), mutation.JoinOrganization, (*API).presentJoined)},
		// Invitations by email: Bindery's own operations (Extensions), see
		// rest/invites.go.
		{"GET", "/orgs/{organizationId}/invites", http.StatusOK, "listOrganizationInvitations",
			list(params.invitations, (*API).presentInvitation)},
		{"DELETE", "/orgs/{organizationId}/invites/{inviteId}", http.StatusNoContent, "revokeOrganizationInvitation",
			remove(params.revokeInvitation, mutation.RevokeInvitation)},
		{"GET", "/orgs/{organizationId}/link-invites", http.StatusOK, "listOrganizationInviteLinks", list(params.invites, (*API).presentInvite)},
		{"POST", "/orgs/{organizationId}/link-invites", http.StatusCreated, "createOrganizationInvite",
			mutate((*createInviteBody).input, mutation.CreateLinkInvite, (*API).presentInvite)},
		{"GET", "/orgs/{organizationId}/link-invites/{inviteId}", http.StatusOK, "getOrganizationInviteLink",
			get(params.invite, (*API).presentInvite)},
		{"PATCH", "/orgs/{organizationId}/link-invites/{inviteId}", http.StatusOK, "updateOrganizationInviteById",
			mutate((*updateInviteBody).input, mutation.UpdateLinkInvite, (*API).presentInvite)},
		{"DELETE", "/orgs/{organizationId}/link-invites/{inviteId}", http.StatusNoContent, "deleteOrganizationInviteById",
			remove(params.deleteInvite, mutation.DeleteLinkInvite)},
		{"GET", "/email-domains/{emailDomain}/orgs", http.StatusOK, "getOrganizationsForEmailDomain",
			get(params.emailDomainOrganizations, (*API).presentDomainOrganizations)},

		{"GET", "/orgs/{organizationId}/saml", http.StatusOK, "listSAMLProvidersInOrganizationById",
			list(params.samlProviders, (*API).presentSAMLProvider)},
		{"POST", "/orgs/{organizationId}/saml", http.StatusCreated, "createOrganizationSAMLProvider",
			mutate((*createSAMLBody).input, mutation.CreateSAMLProvider, (*API).presentSAMLProvider)},
		{"GET", "/orgs/{organizationId}/saml/{samlProviderId}", http.StatusOK, "getOrganizationSAMLProviderById",
			get(params.samlProvider, (*API).presentSAMLProvider)},
		{"PATCH", "/orgs/{organizationId}/saml/{samlProviderId}", http.StatusOK, "updateOrganizationSAMLProvider",
			mutate((*updateSAMLBody).input, mutation.UpdateSAMLProvider, (*API).presentSAMLProvider)},
		{"DELETE", "/orgs/{organizationId}/saml/{samlProviderId}", http.StatusNoContent, "deleteOrganizationSAMLProvider",
			remove(params.deleteSAMLProvider, mutation.DeleteSAMLProvider)},
		{"GET", "/orgs/{organizationId}/sso", http.StatusOK, "listSSOProviderLoginsInOrganization",
			get(params.ssoProviders, (*API).presentSSO)},

		{"GET", "/orgs/{organizationId}/openapi", http.StatusOK, "listOpenAPISpecs", list(params.openAPISpecs, (*API).presentOpenAPISpec)},
		{"POST", "/orgs/{organizationId}/openapi", http.StatusCreated, "createOpenAPISpec",
			mutate((*createSpecBody).input, mutation.CreateOpenAPISpec, (*API).presentOpenAPISpec)},
		{"GET", "/orgs/{organizationId}/openapi/{specSlug}", http.StatusOK, "getOpenAPISpecBySlug",
			get(params.openAPISpec, (*API).presentOpenAPISpec)},
		// 201 when the PUT creates the spec, 200 when it updates it.
		{"PUT", "/orgs/{organizationId}/openapi/{specSlug}", http.StatusOK, "createOrUpdateOpenAPISpecBySlug",
			upsert((*putSpecBody).input, mutation.PutOpenAPISpec, specCreated, (*API).presentOpenAPISpec)},
		{"DELETE", "/orgs/{organizationId}/openapi/{specSlug}", http.StatusNoContent, "deleteOpenAPISpecBySlug",
			remove(params.deleteOpenAPISpec, mutation.DeleteOpenAPISpec)},

		// Translation settings: the contract's shape, see rest/translations.go.
		{"GET", "/orgs/{organizationId}/translations", http.StatusOK, "listTranslations",
			list(params.translationSettingsList, (*API).presentTranslationSettings)},
		{"POST", "/orgs/{organizationId}/translations", http.StatusCreated, "createTranslation",
			mutate((*createTranslationBody).input, mutation.CreateTranslationSettings, (*API).presentTranslationSettings)},
		{"GET", "/orgs/{organizationId}/translations/{translationId}", http.StatusOK, "getTranslation",
			get(params.translationSettings, (*API).presentTranslationSettings)},
		{"PUT", "/orgs/{organizationId}/translations/{translationId}", http.StatusOK, "updateTranslation",
			mutate((*updateTranslationBody).input, mutation.UpdateTranslationSettings, (*API).presentTranslationSettings)},
		{"DELETE", "/orgs/{organizationId}/translations/{translationId}", http.StatusNoContent, "deleteTranslation",
			remove(params.deleteTranslationSettings, mutation.DeleteTranslationSettings)},
		{"GET", "/orgs/{organizationId}/sites", http.StatusOK, "listSites", list(params.sites, (*API).presentSite)},
		{"POST", "/orgs/{organizationId}/sites", http.StatusCreated, "createSite",
			mutate((*createSiteBody).input, mutation.CreateSite, (*API).presentSite)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}", http.StatusOK, "getSiteById", get(params.site, (*API).presentSite)},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}", http.StatusOK, "updateSiteById",
			mutate((*updateSiteBody).input, mutation.UpdateSite, (*API).presentSite)},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}", http.StatusNoContent, "deleteSiteById",
			remove(params.deleteSite, mutation.DeleteSite)},
		// Publishing is not in the API contract; the official spec has it,
		// and it is what makes a site's published state change.
		{"POST", "/orgs/{organizationId}/sites/{siteId}/publish", http.StatusOK, "publishSite",
			mutate(fromPath(params.publishSite), mutation.PublishSite, (*API).presentSite)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/unpublish", http.StatusOK, "unpublishSite",
			mutate(fromPath(params.publishSite), mutation.UnpublishSite, (*API).presentSite)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/sections", http.StatusOK, "listSiteSections",
			list(params.siteSections, (*API).presentSiteSection)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/sections", http.StatusCreated, "addSectionToSite",
			mutate((*createSiteSectionBody).input, mutation.CreateSiteSection, (*API).presentSiteSection)},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", http.StatusOK, "updateSiteSectionById",
			mutate((*updateSiteSectionBody).input, mutation.UpdateSiteSection, (*API).presentSiteSection)},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", http.StatusNoContent, "deleteSiteSectionById",
			remove(params.deleteSiteSection, mutation.DeleteSiteSection)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", http.StatusOK, "moveSiteSection",
			mutate((*siteMoveBody).sectionInput, mutation.MoveSiteSection, (*API).presentSiteSection)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/section-groups", http.StatusOK, "listSiteSectionGroups",
			list(params.siteSectionGroups, (*API).presentSiteSectionGroup)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups", http.StatusCreated, "addSectionGroupToSite",
			mutate((*createSiteSectionGroupBody).input, mutation.CreateSiteSectionGroup, (*API).presentSiteSectionGroup)},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", http.StatusOK, "updateSiteSectionGroupById",
			mutate((*updateSiteSectionGroupBody).input, mutation.UpdateSiteSectionGroup, (*API).presentSiteSectionGroup)},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", http.StatusNoContent,
			"deleteSiteSectionGroupById", remove(params.deleteSiteSectionGroup, mutation.DeleteSiteSectionGroup)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", http.StatusCreated,
			"addSectionToGroup", mutate((*addGroupSectionBody).input, mutation.AddSiteSectionToGroup, (*API).presentSiteSectionGroup)},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}",
			http.StatusNoContent, "removeSectionFromGroup", remove(params.removeGroupSection, mutation.RemoveSiteSectionFromGroup)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", http.StatusOK,
			"moveSiteSectionGroup", mutate((*moveSiteSectionGroupBody).input, mutation.MoveSiteSectionGroup, (*API).presentSiteSectionGroup)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/site-spaces", http.StatusOK, "listSiteSpaces",
			list(params.siteSiteSpaces, (*API).presentSiteSpace)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces", http.StatusCreated, "addSpaceToSite",
			mutate((*createSiteSpaceBody).input, mutation.CreateSiteSpace, (*API).presentSiteSpace)},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", http.StatusOK, "updateSiteSpaceById",
			mutate((*updateSiteSpaceBody).input, mutation.UpdateSiteSpace, (*API).presentSiteSpace)},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", http.StatusNoContent, "deleteSiteSpaceById",
			remove(params.deleteSiteSpace, mutation.DeleteSiteSpace)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", http.StatusOK, "moveSiteSpace",
			mutate((*siteMoveBody).siteSpaceInput, mutation.MoveSiteSpace, (*API).presentSiteSpace)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/redirects", http.StatusOK, "listSiteRedirects",
			list(params.siteRedirects, (*API).presentSiteRedirect)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/redirects", http.StatusCreated, "createSiteRedirect",
			mutate((*createSiteRedirectBody).input, mutation.CreateSiteRedirect, (*API).presentSiteRedirect)},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", http.StatusOK, "updateSiteRedirectById",
			mutate((*updateSiteRedirectBody).input, mutation.UpdateSiteRedirect, (*API).presentSiteRedirect)},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", http.StatusNoContent, "deleteSiteRedirectById",
			remove(params.deleteSiteRedirect, mutation.DeleteSiteRedirect)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/redirect", http.StatusOK, "getSiteRedirectBySource",
			get(params.siteRedirectBySource, (*API).presentSiteRedirectResolution)},
		// Share links are not in the API contract; the official spec has
		// them, and the contract's shareKey needs them.
		{"GET", "/orgs/{organizationId}/sites/{siteId}/share-links", http.StatusOK, "listSiteShareLinks",
			list(params.siteShareLinks, (*API).presentShareLink)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/share-links", http.StatusCreated, "createSiteShareLink",
			mutate((*createShareLinkBody).input, mutation.CreateShareLink, (*API).presentShareLink)},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", http.StatusOK, "updateSiteShareLinkById",
			mutate((*updateShareLinkBody).input, mutation.UpdateShareLink, (*API).presentShareLink)},
		{"DELETE", "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", http.StatusResetContent,
			"deleteSiteShareLinkById", remove(params.deleteShareLink, mutation.DeleteShareLink)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema", http.StatusOK, "getSiteAdaptiveSchema",
			get(params.siteAdaptiveSchema, (*API).presentSiteAdaptiveSchema)},
		{"PUT", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema", http.StatusOK, "updateSiteAdaptiveSchema",
			mutate((*updateSiteAdaptiveSchemaBody).input, mutation.UpdateSiteAdaptiveSchema, (*API).presentSiteAdaptiveSchema)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/published", http.StatusOK, "getPublishedContentSite",
			get(params.sitePublished, (*API).presentPublishedSite)},
		// A site's search and its visitor authentication: see
		// rest/publishedurl.go.
		{"POST", "/orgs/{organizationId}/sites/{siteId}/search", http.StatusOK, "searchSiteContent",
			listBody((*searchSiteBody).siteSearch, (*API).presentSearchSpace)},
		{"GET", "/orgs/{organizationId}/sites/{siteId}/publishing/auth", http.StatusOK, "getSitePublishingAuthById",
			get(params.sitePublishingAuth, (*API).presentSitePublishingAuth)},
		{"PATCH", "/orgs/{organizationId}/sites/{siteId}/publishing/auth", http.StatusOK, "updateSitePublishingAuthById",
			mutate((*updatePublishingAuthBody).input, mutation.UpdateSiteVisitorAuth, (*API).presentSitePublishingAuth)},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", http.StatusOK, "regenerateSitePublishingAuthById",
			mutate(fromPath(params.rotateSiteVisitorKey), mutation.RotateSiteVisitorAuthKey, (*API).presentSitePublishingAuth)},
		// What an address names: a published site's address as its visitor
		// sees it, and any address of Bindery as the caller sees it (see
		// rest/publishedurl.go).
		{"GET", "/urls/published", http.StatusOK, "getPublishedContentByUrl",
			get(params.publishedContentByURL, (*API).presentPublishedLookup)},
		{"POST", "/urls/published", http.StatusOK, "resolvePublishedContentByUrl",
			readBody((*resolvePublishedBody).lookup, (*API).presentPublishedLookup)},
		{"GET", "/urls/content", http.StatusOK, "getContentByUrl", get(params.contentByURL, (*API).presentContentLookup)},

		// Webhooks: Bindery's own operations (Extensions), see rest/webhooks.go.
		{"GET", "/orgs/{organizationId}/webhooks", http.StatusOK, "listWebhookEndpoints",
			list(params.organizationWebhooks, (*API).presentWebhook)},
		{"POST", "/orgs/{organizationId}/webhooks", http.StatusCreated, "createWebhookEndpoint",
			mutate((*createWebhookBody).input, mutation.CreateWebhookEndpoint, (*API).presentCreatedWebhook)},
		{"GET", "/orgs/{organizationId}/webhooks/{webhookId}", http.StatusOK, "getWebhookEndpoint", get(params.webhook, (*API).presentWebhook)},
		{"PATCH", "/orgs/{organizationId}/webhooks/{webhookId}", http.StatusOK, "updateWebhookEndpoint",
			mutate((*updateWebhookBody).input, mutation.UpdateWebhookEndpoint, (*API).presentWebhook)},
		{"DELETE", "/orgs/{organizationId}/webhooks/{webhookId}", http.StatusNoContent, "deleteWebhookEndpoint",
			remove(params.deleteWebhook, mutation.DeleteWebhookEndpoint)},
		{"POST", "/orgs/{organizationId}/webhooks/{webhookId}/rotate-secret", http.StatusOK, "rotateWebhookEndpointSecret",
			mutate(fromPath(params.rotateWebhookSecret), mutation.RotateWebhookEndpointSecret, (*API).presentRotatedWebhook)},
		{"GET", "/orgs/{organizationId}/webhooks/{webhookId}/deliveries", http.StatusOK, "listWebhookDeliveries",
			list(params.webhookDeliveries, (*API).presentWebhookDelivery)},
		{"GET", "/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}", http.StatusOK, "getWebhookDelivery",
			get(params.webhookDelivery, (*API).presentWebhookDelivery)},
		{"POST", "/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", http.StatusCreated,
			"redeliverWebhookDelivery", mutate(fromPath(params.redeliverWebhook), redeliver, (*API).presentRedelivered)},

		// Integrations: see rest/integrations.go.
		{"GET", "/integrations", http.StatusOK, "listIntegrations", list(params.integrations, (*API).presentIntegration)},
		{"GET", "/integrations/{integrationName}", http.StatusOK, "getIntegrationByName",
			get(params.integration, (*API).presentIntegration)},
		{"POST", "/integrations/{integrationName}", http.StatusOK, "publishIntegration",
			mutate((*publishBody).input, mutation.PublishIntegration, (*API).presentIntegration)},
		{"DELETE", "/integrations/{integrationName}", http.StatusNoContent, "unpublishIntegration",
			remove(params.unpublishIntegration, mutation.UnpublishIntegration)},
		{"GET", "/integrations/{integrationName}/installations", http.StatusOK, "listIntegrationInstallations",
			list(params.integrationInstallations, (*API).presentInstallation)},
		{"POST", "/integrations/{integrationName}/installations", http.StatusCreated, "installIntegration",
			mutate((*installBody).input, mutation.InstallIntegration, (*API).presentInstallation)},
		// An installation's spaces and sites, each with its configuration,
		// are not in the API contract; the official spec has them, and they
		// are where an integration's space and site configurations are set.
		{"GET", "/integrations/{integrationName}/installations/{installationId}/spaces", http.StatusOK,
			"listIntegrationInstallationSpaces", list(params.installationSpaces, (*API).presentSpaceInstallation)},
		{"POST", "/integrations/{integrationName}/installations/{installationId}/spaces", http.StatusCreated,
			"installIntegrationOnSpace", mutate((*installOnSpaceBody).input, mutation.InstallIntegrationOnSpace,
				(*API).presentSpaceInstallation)},
		{"GET", "/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", http.StatusOK,
			"getIntegrationSpaceInstallation", get(params.installationSpace, (*API).presentSpaceInstallation)},
		{"PATCH", "/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", http.StatusOK,
			"updateIntegrationSpaceInstallation", mutate((*updateTargetInstallationBody).spaceInput,
				mutation.UpdateIntegrationSpaceInstallation, (*API).presentSpaceInstallation)},
		{"DELETE", "/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", http.StatusNoContent,
			"uninstallIntegrationFromSpace", remove(params.uninstallFromSpace, mutation.UninstallIntegrationFromSpace)},
		{"GET", "/integrations/{integrationName}/installations/{installationId}/sites", http.StatusOK,
			"listIntegrationInstallationSites", list(params.installationSites, (*API).presentSiteInstallation)},
		{"POST", "/integrations/{integrationName}/installations/{installationId}/sites", http.StatusCreated,
			"installIntegrationOnSite", mutate((*installOnSiteBody).input, mutation.InstallIntegrationOnSite,
				(*API).presentSiteInstallation)},
		{"GET", "/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", http.StatusOK,
			"getIntegrationSiteInstallation", get(params.installationSite, (*API).presentSiteInstallation)},
		{"PATCH", "/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", http.StatusOK,
			"updateIntegrationSiteInstallation", mutate((*updateTargetInstallationBody).siteInput,
				mutation.UpdateIntegrationSiteInstallation, (*API).presentSiteInstallation)},
		{"DELETE", "/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", http.StatusNoContent,
			"uninstallIntegrationFromSite", remove(params.uninstallFromSite, mutation.UninstallIntegrationFromSite)},

		{"GET", "/collections/{collectionId}", http.StatusOK, "getCollectionById", get(params.collection, (*API).presentCollection)},
		{"PATCH", "/collections/{collectionId}", http.StatusOK, "updateCollectionById",
			mutate((*updateCollectionBody).input, mutation.UpdateCollection, (*API).presentCollection)},
		{"DELETE", "/collections/{collectionId}", http.StatusNoContent, "deleteCollectionById",
			remove(params.deleteCollection, mutation.DeleteCollection)},
		{"GET", "/collections/{collectionId}/spaces", http.StatusOK, "listSpacesInCollectionById", list(params.collectionSpaces, (*API).presentSpace)},
		{"POST", "/collections/{collectionId}/move", http.StatusOK, "moveCollection",
			mutate((*moveBody).collectionInput, mutation.MoveCollection, (*API).presentCollection)},
		{"POST", "/collections/{collectionId}/transfer", http.StatusOK, "transferCollection",
			mutate((*transferBody).collectionInput, mutation.TransferCollection, (*API).presentCollection)},

		{"GET", "/spaces/{spaceId}", http.StatusOK, "getSpaceById", get(params.space, (*API).presentSpace)},
		{"PATCH", "/spaces/{spaceId}", http.StatusOK, "updateSpaceById",
			mutate((*updateSpaceBody).input, mutation.UpdateSpace, (*API).presentSpace)},
		{"DELETE", "/spaces/{spaceId}", http.StatusNoContent, "deleteSpaceById", remove(params.deleteSpace, mutation.DeleteSpace)},
		{"GET", "/spaces/{spaceId}/search", http.StatusOK, "searchSpaceContent", list(params.spaceSearch, (*API).presentSearchPage)},
		{"POST", "/spaces/{spaceId}/duplicate", http.StatusCreated, "duplicateSpace",
			mutate(fromPath(params.duplicateSpace), mutation.DuplicateSpace, (*API).presentSpace)},
		{"POST", "/spaces/{spaceId}/restore", http.StatusOK, "restoreSpace",
			mutate(fromPath(params.restoreSpace), mutation.RestoreSpace, (*API).presentSpace)},
		{"POST", "/spaces/{spaceId}/move", http.StatusOK, "moveSpace", mutate((*moveBody).spaceInput, mutation.MoveSpace, (*API).presentSpace)},
		{"POST", "/spaces/{spaceId}/transfer", http.StatusOK, "transferSpace",
			mutate((*transferBody).spaceInput, mutation.TransferSpace, (*API).presentSpace)},

		{"POST", "/spaces/{spaceId}/content/import", http.StatusCreated, "importContent",
			mutate((*importBody).spaceInput, mutation.ImportContent, (*API).presentImport)},
		{"GET", "/spaces/{spaceId}/links", http.StatusOK, "listSpaceLinks", read(params.spaceContent, linkList(false))},

		{"POST", "/spaces/{spaceId}/git/import", http.StatusNoContent, "importGitRepository",
			mutate((*gitImportBody).input, mutation.ImportGitRepository, presentNothing[*ent.GitSyncOperation])},
		{"POST", "/spaces/{spaceId}/git/export", http.StatusNoContent, "exportToGitRepository",
			mutate((*gitExportBody).input, mutation.ExportToGitRepository, presentNothing[*ent.GitSyncOperation])},
		{"GET", "/spaces/{spaceId}/git/info", http.StatusOK, "getSpaceGitInfo", get(params.spaceGitInfo, (*API).presentGitSyncState)},

		{"GET", "/spaces/{spaceId}/change-requests", http.StatusOK, "listChangeRequestsForSpace",
			list(params.changeRequests, (*API).presentChangeRequest)},
		{"POST", "/spaces/{spaceId}/change-requests", http.StatusCreated, "createChangeRequest",
			mutate((*createChangeRequestBody).input, mutation.CreateChangeRequest, (*API).presentChangeRequest)},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}", http.StatusOK, "getChangeRequestById",
			get(params.changeRequest, (*API).presentChangeRequest)},
		{"PATCH", "/spaces/{spaceId}/change-requests/{changeRequestId}", http.StatusOK, "updateChangeRequestById",
			mutate((*updateChangeRequestBody).input, mutation.UpdateChangeRequest, (*API).presentChangeRequest)},
		{"POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/merge", http.StatusOK, "mergeChangeRequest",
			mutate(fromPath(params.mergeChangeRequest), mutation.MergeChangeRequest, (*API).presentMerge)},
		{"POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/update", http.StatusOK, "updateChangeRequest",
			mutate(fromPath(params.syncChangeRequest), mutation.SyncChangeRequest, (*API).presentSync)},
		{"GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", http.StatusOK, "getChangeRequestPDF",
			get(params.changeRequestPDF, (*API).presentPDF)},
		{"POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", http.StatusCreated, "importContentInChangeRequest",
			mutate((*importBody).changeRequestInput, mutation.ImportContent, (*API).presentImport)},
	},
		commentRoutes("/spaces/{spaceId}/comments", commentOps{
			list: "listCommentsInSpace", post: "postCommentInSpace", get: "getCommentInSpace",
			update: "updateCommentInSpace", remove: "deleteCommentInSpace", listReplies: "listCommentRepliesInSpace",
			postReply: "postCommentReplyInSpace", getReply: "getCommentReplyInSpace",
			updateReply: "updateCommentReplyInSpace", removeReply: "deleteCommentReplyInSpace",
		}),
		// Deleting a change request comment's reply is not in the API
		// contract; the official spec has it, as the space form does.
		commentRoutes("/spaces/{spaceId}/change-requests/{changeRequestId}/comments", commentOps{
			list: "listCommentsInChangeRequest", post: "postCommentInChangeRequest", get: "getCommentInChangeRequest",
			update: "updateCommentInChangeRequest", remove: "deleteCommentInChangeRequest",
			listReplies: "listCommentRepliesInChangeRequest", postReply: "postCommentReplyInChangeRequest",
			getReply: "getCommentReplyInChangeRequest", updateReply: "updateCommentReplyInChangeRequest",
			removeReply: "deleteCommentReplyInChangeRequest",
		}),
		contentRoutes("/spaces/{spaceId}/content", params.spaceContent, contentOps{
			revision: "getCurrentRevision", pages: "listPages", files: "listFiles", file: "getFileById",
			pageByID: "getPageById", pageByPath: "getPageByPath",
			pageLinks: "listPageLinksInSpace", fileBacklinks: "listSpaceFileBacklinks",
		}),
		contentRoutes("/spaces/{spaceId}/revisions/{revisionId}", params.givenRevision, contentOps{
			revision: "getRevisionById", pages: "listPagesInRevisionById", files: "listFilesInRevisionById",
			file: "getFileInRevisionById", pageByID: "getPageInRevisionById", pageByPath: "getPageInRevisionByPath",
		}),
		contentRoutes("/spaces/{spaceId}/change-requests/{changeRequestId}/content", params.changeRequestContent, contentOps{
			revision: "getRevisionOfChangeRequestById", pages: "listPagesInChangeRequest",
			files: "listFilesInChangeRequestById", file: "getFileInChangeRequestById",
			pageByID: "getPageInChangeRequestById", pageByPath: "getPageInChangeRequestByPath",
			pageLinks: "listPageLinksInChangeRequest", fileBacklinks: "listChangeRequestFileBacklinks",
		}),
	)
}

// Operation describes a /v1 operation for tools: what `bindery routes
// --json` prints.
type Operation struct {
	Method string `json:"method"`
	// Path starts with /v1 and names its parameters as the official spec
	// does.
	Path        string `json:"path"`
	OperationID string `json:"operationId"`
	Status      int    `json:"status"`
	// Extension says the operation is Bindery's own, not the official
	// spec's (see Extensions).
	Extension bool `json:"extension,omitempty"`
	// Nullable are the body's members that take null, which removes their
	// value; every other member refuses it. Bindery's OpenAPI document
	// marks them nullable.
	Nullable []string `json:"nullable,omitempty"`
	// Unsupported are the official body's members Bindery refuses, whatever
	// their value, rather than ignore.
	Unsupported []string `json:"unsupported,omitempty"`
}

// Operations returns every /v1 operation, sorted by path, then method.
func Operations() []Operation {
	rows := table()
	out := make([]Operation, len(rows))
	for i, rt := range rows {
		out[i] = Operation{Method: rt.method, Path: "/v1" + rt.path, OperationID: rt.operationID, Status: rt.status}
		if rt.serve.body != nil {
			out[i].Nullable, out[i].Unsupported = rt.serve.body.nullable(), rt.serve.body.unsupported()
		}
		_, out[i].Extension = Extensions[rt.operationID]
	}
	slices.SortStableFunc(out, func(a, b Operation) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	return out
}

// RouteList returns every /v1 operation as "METHOD /v1/path", sorted by
// path, then method.
func RouteList() []string {
	ops := Operations()
	out := make([]string, len(ops))
	for i, op := range ops {
		out[i] = op.Method + " " + op.Path
	}
	return out
}
