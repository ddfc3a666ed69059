package rest

import (
	"encoding/json"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
)

func (a *API) getViewer(_ http.ResponseWriter, r *http.Request) (response, error) {
	u, err := a.r.Query().Viewer(r.Context())
	if err != nil {
		return response{}, err
	}
	j, err := a.presentUser(r.Context(), u)
	return ok(j), err
}

func (a *API) getUser(_ http.ResponseWriter, r *http.Request) (response, error) {
	n, err := a.r.Query().Node(r.Context(), chi.URLParam(r, "userId"))
	if err != nil {
		return response{}, err
	}
	u, isUser := n.(*ent.User)
	if !isUser || u == nil {
		return response{}, apperr.NotFoundf("User not found")
	}
	j, err := a.presentUser(r.Context(), u)
	return ok(j), err
}

func (a *API) listOrganizations(_ http.ResponseWriter, r *http.Request) (response, error) {
	ctx := r.Context()
	args, err := listArgs(r)
	if err != nil {
		return response{}, err
	}
	viewer, err := a.r.Query().Viewer(ctx)
	if err != nil {
		return response{}, err
	}
	conn, err := a.r.User().Organizations(ctx, viewer, args.First, args.After, nil, nil)
	if err != nil {
		return response{}, err
	}
	l, err := presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount, a.presentOrganization)
	return ok(l), err
}

func (a *API) getOrganization(_ http.ResponseWriter, r *http.Request) (response, error) {
	o, err := a.r.Query().Organization(r.Context(), chi.URLParam(r, "organizationId"))
	if err != nil {
		return response{}, err
	}
	j, err := a.presentOrganization(r.Context(), o)
	return ok(j), err
}

func (a *API) updateOrganization(_ http.ResponseWriter, r *http.Request) (response, error) {
	var body struct {
		Title          Opt[string]          `json:"title"`
		EmailDomains   Opt[[]string]        `json:"emailDomains"`
		Hostname       Opt[string]          `json:"hostname"`
		DefaultRole    Opt[enum.Role]       `json:"defaultRole"`
		DefaultContent Opt[sitePointerBody] `json:"defaultContent"`
		Logo           Opt[string]          `json:"logo"`
		SSO            Opt[bool]            `json:"sso"`
		AI             Opt[bool]            `json:"ai"`
		InviteLinks    Opt[bool]            `json:"inviteLinks"`
		MergeRules     Opt[json.RawMessage] `json:"mergeRules"`
	}
	if err := decodeBody(r, &body); err != nil {
		return response{}, err
	}
	if err := unsupported("mergeRules", body.MergeRules); err != nil {
		return response{}, err
	}
	in := model.UpdateOrganizationInput{
		ID:          chi.URLParam(r, "organizationId"),
		Hostname:    body.Hostname.Omittable(),
		DefaultRole: body.DefaultRole.Omittable(),
		Logo:        body.Logo.Omittable(),
	}
	var domains *[]string
	errs := make([]error, 5)
	in.Title, errs[0] = nonNull("title", body.Title)
	domains, errs[1] = nonNull("emailDomains", body.EmailDomains)
	in.Sso, errs[2] = nonNull("sso", body.SSO)
	in.Ai, errs[3] = nonNull("ai", body.AI)
	in.InviteLinks, errs[4] = nonNull("inviteLinks", body.InviteLinks)
	if err := firstError(errs...); err != nil {
		return response{}, err
	}
	if domains != nil {
		in.EmailDomains = *domains
		if in.EmailDomains == nil {
			in.EmailDomains = []string{}
		}
	}
	if body.DefaultContent.Set {
		var site *string
		if p := body.DefaultContent.Ptr(); p != nil {
			site = &p.Site
		}
		in.DefaultSiteID = graphql.OmittableOf(site)
	}
	p, err := a.r.Mutation().UpdateOrganization(r.Context(), in)
	if err != nil {
		return response{}, err
	}
	j, err := a.presentOrganization(r.Context(), p.Organization)
	return ok(j), err
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

func (a *API) listOrganizationSpaces(_ http.ResponseWriter, r *http.Request) (response, error) {
	ctx := r.Context()
	args, err := listArgs(r)
	if err != nil {
		return response{}, err
	}
	o, err := a.r.Query().Organization(ctx, chi.URLParam(r, "organizationId"))
	if err != nil {
		return response{}, err
	}
	conn, err := a.r.Organization().Spaces(ctx, o, args.First, args.After, nil, nil, nil)
	if err != nil {
		return response{}, err
	}
	l, err := presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount, a.presentSpace)
	return ok(l), err
}

func (a *API) listOrganizationCollections(_ http.ResponseWriter, r *http.Request) (response, error) {
	ctx := r.Context()
	args, err := listArgs(r)
	if err != nil {
		return response{}, err
	}
	nested, err := boolParam(r, "nested", true)
	if err != nil {
		return response{}, err
	}
	o, err := a.r.Query().Organization(ctx, chi.URLParam(r, "organizationId"))
	if err != nil {
		return response{}, err
	}
	conn, err := a.r.Organization().Collections(ctx, o, args.First, args.After, nil, nil, &nested)
	if err != nil {
		return response{}, err
	}
	l, err := presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount, a.presentCollection)
	return ok(l), err
}
