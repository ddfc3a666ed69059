package rest_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/rest"
)

// nfFixture is one of everything a /v1 path names, in one organization
// whose owner administers it all: the real value of each path parameter.
type nfFixture struct {
	*mbEnv
	// real is the value of each path parameter, by name; byPath overrides
	// it where a route's parameter of that name names another thing (a
	// comment of a change request, an invitation by email).
	real   map[string]string
	byPath []nfOverride
}

type nfOverride struct {
	contains, param, value string
}

// value is the real value of a route's parameter.
func (f *nfFixture) value(path, param string) string {
	for _, o := range f.byPath {
		if strings.Contains(path, o.contains) && o.param == param {
			return o.value
		}
	}
	v, ok := f.real[param]
	if !ok {
		f.T.Fatalf("the fixture has no %s for %s", param, path)
	}
	return v
}

func newNFFixture(t *testing.T) *nfFixture {
	e := newMbEnv(t)
	f := &nfFixture{mbEnv: e, real: map[string]string{"organizationId": e.Org.ID, "userId": e.reader}}
	org := "/v1/orgs/" + e.Org.ID
	post := func(path string, body any, want int) map[string]any {
		t.Helper()
		return e.MustDo(http.MethodPost, path, e.OwnerToken, body, want)
	}
	gql := func(query string, vars map[string]any) map[string]any {
		t.Helper()
		var out map[string]any
		e.GraphQL(e.OwnerToken, query, vars).Into(t, &out)
		return out
	}

	f.real["collectionId"] = post(org+"/collections", map[string]any{"title": "Handbook"}, http.StatusCreated)["id"].(string)
	space := post(org+"/spaces", map[string]any{"title": "Guide"}, http.StatusCreated)["id"].(string)
	f.real["spaceId"] = space
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	page := gql(`mutation($s: ID!) { createPage(input: {spaceId: $s, title: "Setup", markdown: "Read [me](https://example.com)."}) {
	  page { id path } } }`, map[string]any{"s": space})["createPage"].(map[string]any)["page"].(map[string]any)
	f.real["pageId"], f.real["pagePath"] = page["id"].(string), page["path"].(string)
	var up map[string]any
	e.Upload(e.OwnerToken, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "file": nil}}, "in.file", "notes.txt", "text/plain", []byte("hello")).Into(t, &up)
	f.real["fileId"] = up["uploadFile"].(map[string]any)["file"].(map[string]any)["id"].(string)
	f.real["revisionId"] = e.MustDo(http.MethodGet, "/v1/spaces/"+space, e.OwnerToken, nil, http.StatusOK)["revision"].(string)
	cr := post("/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Typos"}, http.StatusCreated)["id"].(string)
	f.real["changeRequestId"] = cr
	comment := map[string]any{"body": map[string]any{"markdown": "A thought"}}
	spaceComment := post("/v1/spaces/"+space+"/comments", comment, http.StatusOK)["id"].(string)
	f.real["commentId"] = spaceComment
	f.real["commentReplyId"] = post("/v1/spaces/"+space+"/comments/"+spaceComment+"/replies", comment, http.StatusOK)["id"].(string)
	crComments := "/v1/spaces/" + space + "/change-requests/" + cr + "/comments"
	crComment := post(crComments, comment, http.StatusOK)["id"].(string)
	crReply := post(crComments+"/"+crComment+"/replies", comment, http.StatusOK)["id"].(string)
	f.byPath = append(f.byPath, nfOverride{"/change-requests/{changeRequestId}/comments", "commentId", crComment},
		nfOverride{"/change-requests/{changeRequestId}/comments", "commentReplyId", crReply})

	team := e.MustDo(http.MethodPut, org+"/teams", e.OwnerToken, map[string]any{"title": "Writers"}, http.StatusCreated)["id"].(string)
	f.real["teamId"] = team
	e.MustDo(http.MethodPut, org+"/teams/"+team+"/members/"+e.reader, e.OwnerToken, nil, http.StatusNoContent)
	f.real["inviteId"] = post(org+"/link-invites", map[string]any{"role": "read"}, http.StatusCreated)["id"].(string)
	post(org+"/invites", map[string]any{"emails": []string{"invitee@example.com"}}, http.StatusOK)
	invitation := e.MustDo(http.MethodGet, org+"/invites", e.OwnerToken, nil, http.StatusOK)["items"].([]any)[0].(map[string]any)["id"].(string)
	f.byPath = append(f.byPath, nfOverride{"/invites/{inviteId}", "inviteId", invitation})
	f.real["samlProviderId"] = post(org+"/saml", map[string]any{"label": "Okta"}, http.StatusCreated)["id"].(string)
	f.real["specSlug"] = post(org+"/openapi", map[string]any{"slug": "pets",
		"source": map[string]any{"url": "https://api.example.com/openapi.json"}}, http.StatusCreated)["slug"].(string)
	f.real["translationId"] = post(org+"/translations", map[string]any{"title": "Docs"}, http.StatusCreated)["id"].(string)

	site := post(org+"/sites", map[string]any{"title": "Docs", "spaces": []string{space}}, http.StatusCreated)["id"].(string)
	f.real["siteId"] = site
	sites := org + "/sites/" + site
	other := post(org+"/spaces", map[string]any{"title": "API"}, http.StatusCreated)["id"].(string)
	section := post(sites+"/sections", map[string]any{"spaceId": other, "title": "API"}, http.StatusCreated)["id"].(string)
	f.real["siteSectionId"] = section
	f.real["siteSectionGroupId"] = post(sites+"/section-groups", map[string]any{"title": "Reference", "sections": []string{section}},
		http.StatusCreated)["id"].(string)
	f.real["siteSpaceId"] = e.MustDo(http.MethodGet, sites+"/site-spaces", e.OwnerToken, nil, http.StatusOK)["items"].([]any)[0].(map[string]any)["id"].(string)
	f.real["siteRedirectId"] = post(sites+"/redirects", map[string]any{"source": "/old",
		"destination": map[string]any{"kind": "site-section", "siteSectionId": section}}, http.StatusCreated)["id"].(string)
	e.MustDo(http.MethodPatch, sites, e.OwnerToken, map[string]any{"visibility": "share-link"}, http.StatusOK)
	f.real["shareLinkId"] = post(sites+"/share-links", map[string]any{"name": "Partners"}, http.StatusCreated)["id"].(string)

	hook := post(org+"/webhooks", map[string]any{"url": "https://hooks.example.com/x", "eventTypes": []string{"space.created"}},
		http.StatusCreated)["id"].(string)
	f.real["webhookId"] = hook
	post(org+"/spaces", map[string]any{"title": "Announced"}, http.StatusCreated)
	deliveries := e.MustDo(http.MethodGet, org+"/webhooks/"+hook+"/deliveries", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
	require.NotEmpty(t, deliveries, "creating a space made a delivery")
	f.real["deliveryId"] = deliveries[0].(map[string]any)["id"].(string)

	f.real["integrationName"] = "audit"
	post("/v1/integrations/audit", publishBody(e.Org.ID, map[string]any{"target": "all"}), http.StatusOK)
	f.real["installationId"] = gql(`mutation($in: InstallIntegrationInput!) { installIntegration(input: $in) { installation { id } } }`,
		map[string]any{"in": map[string]any{"integrationName": "audit", "organizationId": e.Org.ID, "spaceSelection": "SELECTED",
			"spaces": []string{space}, "siteSelection": "SELECTED", "sites": []string{site}}},
	)["installIntegration"].(map[string]any)["installation"].(map[string]any)["id"].(string)
	return f
}

// nfBodies are bodies that each operation takes, so that the answer is
// about the path alone: a body is checked before the path names anything
// (rest/decode.go), and a bad one is a 400 first.
func nfBodies(f *nfFixture) map[string]any {
	section := f.real["siteSectionId"]
	return map[string]any{
		"updateOrganizationById":             map[string]any{"title": "Acme"},
		"updateMemberInOrganizationById":     map[string]any{"role": "comment"},
		"updateTeamInOrganizationById":       map[string]any{"title": "Editors"},
		"createOrganizationInvite":           map[string]any{"role": "read"},
		"updateOrganizationInviteById":       map[string]any{"role": "edit"},
		"inviteUsersToOrganization":          map[string]any{"emails": []string{"x@example.com"}},
		"updateOrganizationSAMLProvider":     map[string]any{"label": "Okta 2"},
		"createOrUpdateOpenAPISpecBySlug":    map[string]any{"source": map[string]any{"url": "https://api.example.com/v2.json"}},
		"updateTranslation":                  map[string]any{"title": "Manual"},
		"updateSiteById":                     map[string]any{"title": "Docs 2"},
		"updateSiteSectionById":              map[string]any{"title": "API 2"},
		"moveSiteSection":                    map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": section}}},
		"updateSiteSectionGroupById":         map[string]any{"title": "Ref"},
		"addSectionToGroup":                  map[string]any{"sectionId": section},
		"moveSiteSectionGroup":               map[string]any{},
		"updateSiteSpaceById":                map[string]any{"path": "guide"},
		"moveSiteSpace":                      map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": section}}},
		"createSiteRedirect":                 map[string]any{"source": "/older", "destination": map[string]any{"kind": "site-section", "siteSectionId": section}},
		"updateSiteRedirectById":             map[string]any{"source": "/oldest"},
		"createSiteShareLink":                map[string]any{"name": "More"},
		"updateSiteShareLinkById":            map[string]any{"active": false},
		"updateSiteAdaptiveSchema":           map[string]any{"jsonSchema": map[string]any{"type": "object", "properties": map[string]any{}}},
		"addSectionToSite":                   map[string]any{"spaceId": f.real["spaceId"]},
		"addSpaceToSite":                     map[string]any{"spaceId": f.real["spaceId"]},
		"updateWebhookEndpoint":              map[string]any{"active": false},
		"publishIntegration":                 publishBody(f.Org.ID, nil),
		"installIntegration":                 map[string]any{"organization": f.Org.ID},
		"installIntegrationOnSpace":          map[string]any{"space": f.real["spaceId"]},
		"installIntegrationOnSite":           map[string]any{"siteId": f.real["siteId"]},
		"updateIntegrationSpaceInstallation": map[string]any{"externalIds": []string{"a"}},
		"updateIntegrationSiteInstallation":  map[string]any{"externalIds": []string{"a"}},
		"updateCollectionById":               map[string]any{"title": "Manual"},
		"moveCollection":                     map[string]any{"parent": nil},
		"transferCollection":                 map[string]any{"organization": f.Org.ID},
		"updateSpaceById":                    map[string]any{"title": "Guide 2"},
		"moveSpace":                          map[string]any{"parent": nil},
		"transferSpace":                      map[string]any{"organization": f.Org.ID},
		"importContent":                      map[string]any{"source": "markdown", "url": "https://example.com/doc.md"},
		"importContentInChangeRequest":       map[string]any{"source": "markdown", "url": "https://example.com/doc.md"},
		"importGitRepository":                map[string]any{"url": "https://git.example.com/docs.git", "ref": "main"},
		"exportToGitRepository":              map[string]any{"url": "https://git.example.com/docs.git", "ref": "main", "commitMessage": "Docs"},
		"createChangeRequest":                map[string]any{"subject": "More"},
		"updateChangeRequestById":            map[string]any{"subject": "Fewer typos"},
		"postCommentInSpace":                 map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"updateCommentInSpace":               map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"postCommentReplyInSpace":            map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"updateCommentReplyInSpace":          map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"postCommentInChangeRequest":         map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"updateCommentInChangeRequest":       map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"postCommentReplyInChangeRequest":    map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"updateCommentReplyInChangeRequest":  map[string]any{"body": map[string]any{"markdown": "Hi"}},
		"addMemberToOrganizationTeamById":    map[string]any{"role": "member"},
		"createSpace":                        map[string]any{"title": "New"},
		"createCollection":                   map[string]any{"title": "New"},
		"createOrganizationTeam":             map[string]any{"title": "New"},
		"createOrganizationSAMLProvider":     map[string]any{"label": "New"},
		"createOpenAPISpec":                  map[string]any{"slug": "new", "source": map[string]any{"url": "https://api.example.com/new.json"}},
		"createTranslation":                  map[string]any{"title": "New"},
		"createSite":                         map[string]any{"title": "New"},
		"addSectionGroupToSite":              map[string]any{"title": "New"},
		"createWebhookEndpoint":              map[string]any{"url": "https://hooks.example.com/y", "eventTypes": []string{"space.created"}},
	}
}

// nfQueries are the query parameters an operation requires.
var nfQueries = map[string]string{
	"getSiteRedirectBySource": "?source=/old",
}

// nfExceptions are the parameters whose unknown value is no 404, and why.
var nfExceptions = map[string]string{
	// Not an ID: a domain names no resource, and an unknown one lists no
	// organization, so that domains cannot be enumerated.
	"getOrganizationsForEmailDomain emailDomain": "a domain, not an ID: an empty list",
	// Upserts: a PUT or a publication under a new slug or name creates it.
	"createOrUpdateOpenAPISpecBySlug specSlug": "a PUT that creates the spec",
	"publishIntegration integrationName":       "a publication that creates the integration",
}

var nfParam = regexp.MustCompile(`\{([^}]+)\}`)

// A path ID that names nothing is a 404 on every /v1 route, whichever
// parameter it is, for an admin who sees everything else the path names:
// one well-formed but unknown (the right prefix, another random body) and
// one malformed. The walk covers every row of the route table with a path
// parameter, so a new route is audited as it is added.
func TestUnknownPathIDs(t *testing.T) {
	t.Parallel()
	f := newNFFixture(t)
	bodies := nfBodies(f)
	var checked int
	for _, op := range rest.Operations() {
		params := nfParam.FindAllStringSubmatch(op.Path, -1)
		for i, p := range params {
			name := p[1]
			key := op.OperationID + " " + name
			if _, ok := nfExceptions[key]; ok {
				continue
			}
			real := f.value(op.Path, name)
			for _, bad := range []struct{ kind, value string }{{"unknown", nfUnknown(name, real)}, {"malformed", "Not~An~Id"}} {
				n := 0
				path := nfParam.ReplaceAllStringFunc(op.Path, func(m string) string {
					defer func() { n++ }()
					if n == i {
						return bad.value
					}
					return f.value(op.Path, m[1:len(m)-1])
				})
				res := f.Do(op.Method, path+nfQueries[op.OperationID], f.OwnerToken, bodies[op.OperationID])
				checked++
				if res.Status == http.StatusNotFound {
					continue
				}
				t.Errorf("%s %s (%s, %s %s): %d %s", op.Method, op.Path, op.OperationID, bad.kind, name, res.Status, res.Body)
			}
		}
	}
	t.Logf("%d requests with an unknown or malformed path parameter", checked)
	assert.Greater(t, checked, 300)
}

// nfUnknown is a value of a parameter that names nothing: a fresh ID of the
// real one's type, or a name that was never given.
func nfUnknown(param, real string) string {
	if p := id.PrefixOf(real); p != "" {
		if param == "inviteId" {
			return id.NewSecret(p)
		}
		return id.New(p)
	}
	switch param {
	case "pagePath":
		return "no/such/page"
	default:
		return "nothing-" + strings.ToLower(param)
	}
}
