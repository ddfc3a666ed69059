package rest

import (
	"context"
	"net/http"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
)

// A site's visitor authentication settings (.../sites/{siteId}/publishing/auth),
// its search (POST .../sites/{siteId}/search), and what addresses name (GET
// and POST /urls/published, GET /urls/content): each through the resolver
// GraphQL calls (graph/publishedurl.go).

// sitePublishingAuth is the path's site, whose visitor authentication its
// admins read: a 404 while it has no signing key, since the official
// SitePublishingAuth always shows one.
func (p params) sitePublishingAuth() (*ent.Site, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	key, err := p.a.r.Site().VisitorAuthKey(p.ctx(), s)
	if err == nil && key == nil {
		return nil, apperr.NotFoundf("The site has no visitor signing key: POST .../publishing/auth/regenerate gives it one")
	}
	return s, err
}

// rotateSiteVisitorKey gives the path's site a new signing key.
func (p params) rotateSiteVisitorKey() (model.RotateSiteVisitorAuthKeyInput, error) {
	s, err := p.site()
	if err != nil {
		return model.RotateSiteVisitorAuthKeyInput{}, err
	}
	return model.RotateSiteVisitorAuthKeyInput{SiteID: s.ID}, nil
}

// updatePublishingAuthBody is the official SitePublishingAuthUpdate. Its
// backend is "custom", the only one Bindery has (its visitors' tokens are
// signed with the site's key), and may be left out.
type updatePublishingAuthBody struct {
	Backend     *string     `json:"backend" rest:"nonnull"`
	FallbackURL Opt[string] `json:"fallbackURL"`
}

func (b *updatePublishingAuthBody) input(p params) (model.UpdateSiteVisitorAuthInput, error) {
	s, err := p.site()
	if err != nil {
		return model.UpdateSiteVisitorAuthInput{}, err
	}
	if b.Backend != nil && *b.Backend != "custom" {
		return model.UpdateSiteVisitorAuthInput{}, apperr.Invalid("backend",
			`must be "custom": Bindery has no authenticated-access integrations`)
	}
	return model.UpdateSiteVisitorAuthInput{SiteID: s.ID, FallbackURL: b.FallbackURL.Omittable()}, nil
}

// sitePublishingAuthJSON is the official SitePublishingAuth, with the
// custom backend.
type sitePublishingAuthJSON struct {
	Object      string  `json:"object"`
	Backend     string  `json:"backend"`
	PrivateKey  string  `json:"privateKey"`
	FallbackURL *string `json:"fallbackURL,omitempty"`
}

func (a *API) presentSitePublishingAuth(ctx context.Context, s *ent.Site) (sitePublishingAuthJSON, error) {
	key, err := a.r.Site().VisitorAuthKey(ctx, s)
	if err != nil {
		return sitePublishingAuthJSON{}, err
	}
	if key == nil {
		return sitePublishingAuthJSON{}, apperr.NotFoundf("The site has no visitor signing key")
	}
	return sitePublishingAuthJSON{Object: "publishing-auth", Backend: "custom", PrivateKey: *key,
		FallbackURL: s.VisitorAuthFallbackURL}, nil
}

// readBody serves a read whose arguments come as a JSON body (a search,
// the POST form of a lookup): the body is decoded as mutate decodes one,
// load resolves what it names, and present shows it.
func readBody[B, E, J any](load func(*B, params) (E, error), present presenter[E, J]) adapter {
	body := decoderFor[B]()
	return adapter{body: &body, handler: func(a *API, status int) handlerFunc {
		return func(r *http.Request) (response, error) {
			p := params{a: a, r: r}
			var b B
			if err := body.decode(r, &b); err != nil {
				return response{}, err
			}
			e, err := load(&b, p)
			if err != nil {
				return response{}, err
			}
			j, err := present(a, p.ctx(), e)
			return response{status: status, body: j}, err
		}
	}}
}

// listBody serves a list whose arguments come as a JSON body (a search):
// as list does, after decoding the body as readBody does.
func listBody[B any, C connection[N], N, J any](fetch func(*B, params, page.Args) (C, error), present presenter[N, J]) adapter {
	return readBody(func(b *B, p params) (C, error) {
		args, err := p.page()
		if err != nil {
			var none C
			return none, err
		}
		return fetch(b, p, args)
	}, func(a *API, ctx context.Context, c C) (listJSON[J], error) {
		return presentList(ctx, c.Nodes(), c.Info(), c.TotalCount,
			func(ctx context.Context, n N) (J, error) { return present(a, ctx, n) })
	})
}

// searchSiteBody is the official body of a site's search: the query and a
// scope, or the deprecated forms of the scope (mode with siteSpaceIds or
// siteSpaceId). query is not required here so that the path is resolved
// first: the resolver names a missing one.
type searchSiteBody struct {
	Query        string           `json:"query"`
	Scope        *siteSearchScope `json:"scope" rest:"nonnull"`
	Mode         *string          `json:"mode" rest:"nonnull"`
	SiteSpaceIDs *[]string        `json:"siteSpaceIds" rest:"nonnull"`
	SiteSpaceID  *string          `json:"siteSpaceId" rest:"nonnull"`
}

// siteSearchScope is the official SiteSearchScope.
type siteSearchScope struct {
	Mode               string   `json:"mode"`
	SiteSpaceIDs       []string `json:"siteSpaceIds"`
	CurrentSiteSpace   *string  `json:"currentSiteSpace"`
	IncludedSiteSpaces []string `json:"includedSiteSpaces"`
}

// siteSearchModes are the official scope modes.
var siteSearchModes = map[string]model.SiteSearchMode{
	"all": model.SiteSearchModeAll, "default": model.SiteSearchModeDefault, "specific": model.SiteSearchModeSpecific,
}

// scope is the resolver's scope of the body, with the body's names of the
// scope's members where they differ from the resolver's.
func (b *searchSiteBody) scope() (*model.SiteSearchScopeInput, map[string]string, error) {
	deprecated := b.Mode != nil || b.SiteSpaceIDs != nil || b.SiteSpaceID != nil
	if b.Scope == nil {
		return b.deprecatedScope()
	}
	if deprecated {
		return nil, nil, apperr.Invalid("scope", "is given with the deprecated mode, siteSpaceIds or siteSpaceId: give scope alone")
	}
	mode, ok := siteSearchModes[b.Scope.Mode]
	if !ok {
		return nil, nil, apperr.Invalid("scope.mode", `must be "default", "specific" or "all"`)
	}
	in := &model.SiteSearchScopeInput{Mode: mode, SiteSpaceIds: b.Scope.SiteSpaceIDs, CurrentSiteSpace: b.Scope.CurrentSiteSpace}
	switch {
	case mode == model.SiteSearchModeDefault && len(b.Scope.SiteSpaceIDs) > 0:
		return nil, nil, apperr.Invalid("scope.siteSpaceIds", "is only for the mode specific: the mode default takes currentSiteSpace")
	case mode == model.SiteSearchModeDefault:
		// The official default scope's deprecated list of site-spaces to
		// search besides the defaults.
		in.SiteSpaceIds = b.Scope.IncludedSiteSpaces
		return in, map[string]string{"scope.siteSpaceIds": "scope.includedSiteSpaces"}, nil
	case len(b.Scope.IncludedSiteSpaces) > 0:
		return nil, nil, apperr.Invalid("scope.includedSiteSpaces", "is only for the mode default")
	}
	return in, nil, nil
}

// deprecatedScope is the scope of the deprecated forms: mode specific (or
// none) with siteSpaceIds, mode current with siteSpaceId (the site-space
// and each section's default), mode all; none of them searches all.
func (b *searchSiteBody) deprecatedScope() (*model.SiteSearchScopeInput, map[string]string, error) {
	mode := deref(b.Mode)
	if mode == "" && b.SiteSpaceIDs != nil {
		mode = "specific"
	}
	names := map[string]string{"scope.siteSpaceIds": "siteSpaceIds", "scope.currentSiteSpace": "siteSpaceId"}
	switch {
	case mode == "" && b.SiteSpaceID == nil:
		return nil, nil, nil
	case mode == "specific" && b.SiteSpaceID == nil:
		var ids []string
		if b.SiteSpaceIDs != nil {
			ids = *b.SiteSpaceIDs
		}
		return &model.SiteSearchScopeInput{Mode: model.SiteSearchModeSpecific, SiteSpaceIds: ids}, names, nil
	case mode == "current" && b.SiteSpaceIDs == nil:
		if b.SiteSpaceID == nil {
			return nil, nil, apperr.Invalid("siteSpaceId", `is required for the mode "current"`)
		}
		return &model.SiteSearchScopeInput{Mode: model.SiteSearchModeDefault, CurrentSiteSpace: b.SiteSpaceID}, names, nil
	case mode == "all" && b.SiteSpaceIDs == nil && b.SiteSpaceID == nil:
		return &model.SiteSearchScopeInput{Mode: model.SiteSearchModeAll}, names, nil
	case mode != "specific" && mode != "current" && mode != "all" && mode != "":
		return nil, nil, apperr.Invalid("mode", `must be "specific", "current" or "all" (deprecated: use scope)`)
	}
	return nil, nil, apperr.Invalid("mode", `takes siteSpaceIds with "specific", siteSpaceId with "current", and neither with "all"`)
}

// siteSearch searches the path's site.
func (b *searchSiteBody) siteSearch(p params, args page.Args) (*model.SearchSpaceResultConnection, error) {
	s, err := p.site()
	if err != nil {
		return nil, err
	}
	scope, names, err := b.scope()
	if err != nil {
		return nil, err
	}
	out, err := p.a.r.Site().Search(p.ctx(), s, b.Query, scope, args.First, args.After, nil, nil)
	return out, renameField(err, names)
}

// publishedContentByURL is the deprecated GET form of the lookup of a
// published address: url, visitorAuthToken and redirectOnError are query
// parameters.
func (p params) publishedContentByURL() (model.PublishedContentLookup, error) {
	redirect, err := p.bool("redirectOnError", false)
	if err != nil {
		return nil, err
	}
	return p.a.r.Query().PublishedContentByURL(p.ctx(), p.r.URL.Query().Get("url"), p.query("visitorAuthToken"), nil, &redirect)
}

// resolvePublishedBody is the official body of POST /urls/published.
type resolvePublishedBody struct {
	URL             string              `json:"url" rest:"required"`
	RedirectOnError *bool               `json:"redirectOnError" rest:"nonnull"`
	Visitor         *siteVisitorPayload `json:"visitor" rest:"nonnull"`
}

// siteVisitorPayload is the official SiteVisitorPayload: the visitor's
// token, and their unsigned claims (see docs/reader.md).
type siteVisitorPayload struct {
	JWTToken       *string        `json:"jwtToken"`
	UnsignedClaims map[string]any `json:"unsignedClaims"`
}

// visitorMembers names the lookup's arguments as the body does.
var visitorMembers = map[string]string{"visitorAuthToken": "visitor.jwtToken", "unsignedClaims": "visitor.unsignedClaims"}

func (b *resolvePublishedBody) lookup(p params) (model.PublishedContentLookup, error) {
	var token *string
	var claims model.JSON
	if b.Visitor != nil {
		token = b.Visitor.JWTToken
		if len(b.Visitor.UnsignedClaims) > 0 {
			var err error
			if claims, err = model.NewJSON(b.Visitor.UnsignedClaims); err != nil {
				return nil, err
			}
		}
	}
	out, err := p.a.r.Query().PublishedContentByURL(p.ctx(), b.URL, token, claims, b.RedirectOnError)
	return out, renameField(err, visitorMembers)
}

// publishedContentJSON is the official PublishedSiteContent less apiToken:
// Bindery mints no short-lived tokens, and the caller reads what the answer
// names with its own API token and the visitor's keys. rest/openapi.json
// describes it as PublishedSiteContentWithoutAPIToken (see
// SchemaExtensions).
type publishedContentJSON struct {
	Site         string  `json:"site"`
	SiteSection  *string `json:"siteSection,omitempty"`
	SiteSpace    string  `json:"siteSpace"`
	Space        string  `json:"space"`
	Revision     string  `json:"revision"`
	Organization string  `json:"organization"`
	Pathname     string  `json:"pathname"`
	BasePath     string  `json:"basePath"`
	SiteBasePath string  `json:"siteBasePath"`
	Complete     bool    `json:"complete"`
	ShareKey     *string `json:"shareKey,omitempty"`
	CanonicalURL string  `json:"canonicalUrl"`
}

// publishedRedirectJSON is the official lookup's Redirect.
type publishedRedirectJSON struct {
	Target   string `json:"target"`
	Redirect string `json:"redirect"`
}

// redirectTargets are the official names of the targets.
var redirectTargets = map[model.PublishedRedirectTarget]string{
	model.PublishedRedirectTargetContent: "content", model.PublishedRedirectTargetExternal: "external",
}

func (a *API) presentPublishedLookup(_ context.Context, l model.PublishedContentLookup) (any, error) {
	switch v := l.(type) {
	case *model.PublishedContentRedirect:
		return publishedRedirectJSON{Target: redirectTargets[v.Target], Redirect: v.Redirect}, nil
	case *model.PublishedContent:
		return publishedContentJSON{Site: v.SiteID, SiteSection: v.SiteSectionID, SiteSpace: v.SiteSpaceID, Space: v.SpaceID,
			Revision: v.RevisionID, Organization: v.OrganizationID, Pathname: v.Pathname, BasePath: v.BasePath,
			SiteBasePath: v.SiteBasePath, Complete: v.Complete, ShareKey: v.ShareKey, CanonicalURL: v.CanonicalURL}, nil
	}
	return nil, apperr.NotFoundf("No content found for the URL")
}

// contentByURL resolves the query's url for the caller.
func (p params) contentByURL() (*model.ContentLookup, error) {
	return p.a.r.Query().ContentByURL(p.ctx(), p.r.URL.Query().Get("url"))
}

// contentLookupJSON is the official answer of getContentByUrl: a
// collection, or a space with a change request and a page of it.
type contentLookupJSON struct {
	Collection    *collectionJSON    `json:"collection,omitempty"`
	Space         *spaceJSON         `json:"space,omitempty"`
	ChangeRequest *changeRequestJSON `json:"changeRequest,omitempty"`
	Page          *pageJSON          `json:"page,omitempty"`
}

func (a *API) presentContentLookup(ctx context.Context, l *model.ContentLookup) (contentLookupJSON, error) {
	var j contentLookupJSON
	if l.Collection != nil {
		c, err := a.presentCollection(ctx, l.Collection)
		j.Collection = &c
		return j, err
	}
	s, err := a.presentSpace(ctx, l.Space)
	if err != nil {
		return j, err
	}
	j.Space = &s
	if l.ChangeRequest != nil {
		cr, err := a.presentChangeRequest(ctx, l.ChangeRequest)
		if err != nil {
			return j, err
		}
		j.ChangeRequest = &cr
	}
	if l.Page != nil {
		pp, err := a.pagePresenter(ctx, l.Page.Revision, contentOptions{})
		if err != nil {
			return j, err
		}
		c, err := a.r.RevisionContent(ctx, l.Page.Revision)
		if err != nil {
			return j, err
		}
		pg, err := pp.single(l.Page, c, false)
		if err != nil {
			return j, err
		}
		j.Page = &pg
	}
	return j, nil
}
