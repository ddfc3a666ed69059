package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/sitesection"
	"github.com/bindery/bindery/ent/sitesectiongroup"
	"github.com/bindery/bindery/ent/sitespace"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/adaptive"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/condition"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/sitecustom"
)

// Readers of a published site.
//
// The rules:
//   - The members of a site's organization with a role read it (see
//     siteDecision), published or not. Anyone else reads it only while it is
//     published, and only as its visibility admits them: everyone for public
//     and unlisted; holders of an active share key of the site (shareKey) for
//     share-link; visitors with a valid JWT (visitorAuthToken) for
//     visitor-auth. Such a reader reads the site, its sections, section
//     groups, site-spaces and redirects, as with the read role; anyone else
//     gets the same 404 as for a site that does not exist.
//   - Whoever reads a published site's structure reads the spaces it
//     publishes (their site-spaces show them), whatever those spaces'
//     own visibility: publishing a site publishes its spaces. Conditions
//     choose what a reader is shown; they do not protect content.
//   - A visitor JWT is checked as package visitor has it, with the site's
//     visitor signing key (see visitorauth.go, shared with spaces). Its
//     claims are the visitor's claims.
//   - With adaptive content enabled, a section or site-space whose condition
//     is false for the visitor's claims (no token: no claims) is left out of
//     the published structure, and so are a left-out section's site-spaces.
//     The claims are first checked against the site's adaptive schema, when
//     it has one: claims that do not match it are a 400.

// readableSite returns a site for Query.site and /v1's site paths: the share
// key and visitor JWT the request presents for it are recorded first, so
// that its decision sees them.
func (r *Resolver) readableSite(ctx context.Context, id string, shareKey, visitorToken *string) (*ent.Site, error) {
	r.PresentKeys(ctx, id, shareKey, visitorToken)
	s, _, err := r.sites.get(ctx, id)
	return s, err
}

// siteReaderDecision decides about a site for a viewer without a role in its
// organization: the read role when the site is published and its visibility
// admits them, nothing otherwise (see the rules above).
//
// A request decides about its site many times (the path, each section,
// site-space and redirect): the answer is kept in the request's loaders, so
// that the key, the token and the site's spaces are checked once.
func (r *Resolver) siteReaderDecision(ctx context.Context, s *ent.Site) (authz.Decision, error) {
	if !s.Published {
		return authz.Decision{}, nil
	}
	l := loadersFrom(ctx)
	if admitted, known := l.siteReader(s.ID); known {
		if !admitted {
			return authz.Decision{}, nil
		}
		return authz.Decision{Role: enum.RoleRead}, nil
	}
	admitted := false
	switch s.Visibility {
	case enum.SiteVisibilityPublic, enum.SiteVisibilityUnlisted:
		admitted = true
	case enum.SiteVisibilityShareLink:
		ok, err := r.siteShareKeyValid(ctx, s)
		if err != nil {
			return authz.Decision{}, err
		}
		admitted = ok
	case enum.SiteVisibilityVisitorAuth:
		admitted = r.visitorAdmitted(ctx, s.ID, s.VisitorAuthPrivateKey)
	}
	if !admitted {
		l.setSiteReader(s.ID, false)
		return authz.Decision{}, nil
	}
	// The site's spaces are published with it (a space's decision reads
	// this), and its organization is seen as the owner of what the reader
	// reads. The site-spaces are kept whole: what the reader reads next is
	// the site's published structure (publishedContent).
	sss, err := r.db(ctx).SiteSpace.Query().Where(sitespace.SiteID(s.ID)).
		Order(sitespace.ByPosition(), sitespace.ByID()).Modify(withVersion).
		All(internal(ctx, "the spaces a site publishes, for its reader"))
	if err != nil {
		return authz.Decision{}, err
	}
	for _, ss := range sss {
		l.publishSpaces(ss.SpaceID)
	}
	l.setSiteSpaces(s.ID, sss)
	l.setSiteVersion(s.ID, publishedVersion(s, sss))
	l.openOrg(s.OrganizationID)
	l.setSiteReader(s.ID, true)
	return authz.Decision{Role: enum.RoleRead}, nil
}

// visitorClaims returns the claims of the visitor JWT the request presented
// for the site; nil without one. A token that is not valid (signature,
// algorithm, exp) is a 400 naming visitorAuthToken.
func (r *Resolver) visitorClaims(ctx context.Context, s *ent.Site) (map[string]any, error) {
	return r.visitorClaimsOf(ctx, s.ID, s.VisitorAuthPrivateKey)
}

// rotateVisitorAuthKey gives a site a new visitor signing key and returns
// it: the only time it is shown.
func (r *Resolver) rotateVisitorAuthKey(ctx context.Context, siteID string) (*ent.Site, string, error) {
	key := rotatedKey()
	s, err := mutate(ctx, r, r.sites, siteID, authz.Update, func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.Site, error) {
		return s.Update().SetVisitorAuthPrivateKey(key).Save(internal(ctx, "the site its admin changes"))
	})
	if err != nil {
		return nil, "", err
	}
	return s, key, nil
}

// siteAdaptiveSchema is a site's adaptive schema; nil when it has none.
func (r *Resolver) siteAdaptiveSchema(ctx context.Context, s *ent.Site) (*model.SiteAdaptiveSchema, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.View); err != nil {
		return nil, err
	}
	if s.AdaptiveSchema == nil || s.AdaptiveSchemaUpdatedAt == nil {
		return nil, nil
	}
	doc, err := model.NewJSON(s.AdaptiveSchema)
	if err != nil {
		return nil, err
	}
	return &model.SiteAdaptiveSchema{JSONSchema: doc, UpdatedAt: *s.AdaptiveSchemaUpdatedAt}, nil
}

// updateSiteAdaptiveSchema sets a site's adaptive schema, once it is checked
// to be one (see package adaptive).
func (r *Resolver) updateSiteAdaptiveSchema(ctx context.Context, in model.UpdateSiteAdaptiveSchemaInput) (*ent.Site, error) {
	var doc map[string]any
	if err := json.Unmarshal(in.JSONSchema, &doc); err != nil || doc == nil {
		return nil, apperr.Invalid("jsonSchema", "must be a JSON object")
	}
	if _, err := adaptive.Compile(doc); err != nil {
		return nil, apperr.Invalid("jsonSchema", "%v", err)
	}
	return mutate(ctx, r, r.sites, in.SiteID, authz.Update, func(ctx context.Context, s *ent.Site, _ authz.Decision) (*ent.Site, error) {
		return s.Update().SetAdaptiveSchema(doc).SetAdaptiveSchemaUpdatedAt(r.clock()).
			Save(internal(ctx, "the site its admin changes"))
	})
}

// publishedContent is what the reader of a published site sees (see the
// rules above): three statements after the site's decision, whatever its
// size.
func (r *Resolver) publishedContent(ctx context.Context, s *ent.Site, visitorToken *string) (*model.PublishedSite, error) {
	if _, _, err := r.sites.authorize(ctx, s.ID, authz.View); err != nil {
		return nil, err
	}
	if visitorToken != nil && *visitorToken != "" {
		loadersFrom(ctx).setVisitorToken(s.ID, *visitorToken)
	}
	claims, err := r.visitorClaims(ctx, s)
	if err != nil {
		return nil, err
	}
	if s.AdaptiveContent && s.AdaptiveSchema != nil {
		schema, err := r.adaptiveSchema(s)
		if err != nil {
			return nil, err
		}
		claims = schema.Signed(claims)
		if unsigned := schema.Unsigned(loadersFrom(ctx).unsignedClaims(s.ID)); len(unsigned) > 0 {
			claims = maps.Clone(claims)
			if claims == nil {
				claims = map[string]any{}
			}
			claims["unsigned"] = unsigned
		}
	}
	shown := func(cond *string) bool {
		return !s.AdaptiveContent || cond == nil || condition.Eval(*cond, claims)
	}
	ctx = within(ctx)
	secs, err := r.db(ctx).SiteSection.Query().Where(sitesection.SiteID(s.ID)).Modify(inStructureOrder).All(ctx)
	if err != nil {
		return nil, err
	}
	l := loadersFrom(ctx)
	sss, kept := l.siteSpacesOf(s.ID)
	if !kept {
		if sss, err = r.siteSpacesInOrder(ctx, s.ID); err != nil {
			return nil, err
		}
	}
	// What a reader reads of a site-space next is its title, which is its
	// space's: the spaces load in one batch.
	spaceIDs := make([]string, len(sss))
	for i, ss := range sss {
		spaceIDs[i] = ss.SpaceID
	}
	l.publishSpaces(spaceIDs...)
	r.spaces.prefetch(ctx, spaceIDs)
	out := &model.PublishedSite{Site: s, Sections: []*model.PublishedSiteSection{}, SiteSpaces: []*ent.SiteSpace{}}
	if out.Customizations, err = model.NewJSON(sitecustom.Defaults()); err != nil {
		return nil, err
	}
	bySection := map[string][]*ent.SiteSpace{}
	for _, ss := range sss {
		r.sitespaces.loader(ctx).Prime(ctx, ss.ID, ss)
		if !shown(ss.Condition) {
			continue
		}
		if ss.SectionID == nil {
			out.SiteSpaces = append(out.SiteSpaces, ss)
		} else {
			bySection[*ss.SectionID] = append(bySection[*ss.SectionID], ss)
		}
	}
	if len(secs) == 0 {
		out.StructureType = model.PublishedSiteStructureTypeSiteSpaces
		return out, nil
	}
	out.StructureType = model.PublishedSiteStructureTypeSections
	out.SiteSpaces = []*ent.SiteSpace{}
	for _, sec := range secs {
		r.sections.loader(ctx).Prime(ctx, sec.ID, sec)
		if shown(sec.Condition) {
			out.Sections = append(out.Sections, &model.PublishedSiteSection{Section: sec, SiteSpaces: nonNil(bySection[sec.ID])})
		}
	}
	return out, nil
}

// withVersion adds to a site's site-spaces what else its published
// pages show that may change: each space's current revision and when it
// changed, and how many sections and groups the site has and when they last
// changed (the structure's rows all change their updated_at).
func withVersion(s *sql.Selector) {
	sp := sql.Table(space.Table).As("version_space")
	s.LeftJoin(sp).On(s.C(sitespace.FieldSpaceID), sp.C(space.FieldID))
	// Each as text, never NULL: a column of no declared type whose value
	// is NULL (the MAX of no rows) has no type to scan into on SQLite.
	text := func(expr string) sql.Querier { return sql.Expr("COALESCE(CAST(" + expr + " AS TEXT), '')") }
	s.AppendSelectExprAs(text(sp.C(space.FieldRevisionID)), "version_revision")
	s.AppendSelectExprAs(text(sp.C(space.FieldUpdatedAt)), "version_space")
	site := s.C(sitespace.FieldSiteID)
	for _, t := range []string{sitesection.Table, sitesectiongroup.Table} {
		from := " FROM " + s.Builder.Quote(t) + " x WHERE x.site_id = " + site + ")"
		s.AppendSelectExprAs(text("(SELECT COUNT(*)"+from), "version_count_"+t)
		s.AppendSelectExprAs(text("(SELECT MAX(x.updated_at)"+from), "version_updated_"+t)
	}
}

// publishedVersion names the state of everything a published site's
// pages show but the page's own content: it changes whenever one of them
// does, on every replica, since it is read from the database.
func publishedVersion(s *ent.Site, sss []*ent.SiteSpace) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", s.ID, s.UpdatedAt.UnixNano())
	for _, ss := range sss {
		fmt.Fprintf(h, "%s\x00%d\x00", ss.ID, ss.UpdatedAt.UnixNano())
		for _, c := range []string{"version_revision", "version_space", "version_count_" + sitesection.Table,
			"version_updated_" + sitesection.Table, "version_count_" + sitesectiongroup.Table, "version_updated_" + sitesectiongroup.Table} {
			v, _ := ss.Value(c)
			fmt.Fprintf(h, "%v\x00", v)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PublishedVersion names the state of what the pages of a published site
// show a reader the request admitted, but the pages' own content (see
// publishedVersion); "" when the request has not decided about the site
// as its reader.
func (r *Resolver) PublishedVersion(ctx context.Context, siteID string) string {
	return loadersFrom(ctx).siteVersion(siteID)
}

// adaptiveSchema is a site's adaptive schema, compiled once per change of
// it.
func (r *Resolver) adaptiveSchema(s *ent.Site) (*adaptive.Schema, error) {
	key := s.ID
	if s.AdaptiveSchemaUpdatedAt != nil {
		key += "@" + s.AdaptiveSchemaUpdatedAt.UTC().Format(time.RFC3339Nano)
	}
	if schema, ok := r.adaptiveSchemas.Get(key); ok {
		return schema, nil
	}
	schema, err := adaptive.Compile(s.AdaptiveSchema)
	if err != nil {
		return nil, fmt.Errorf("the adaptive schema of site %s: %w", s.ID, err)
	}
	r.adaptiveSchemas.Put(key, schema, 1)
	return schema, nil
}

// siteSpacesInOrder reads a site's site-spaces in their order.
func (r *Resolver) siteSpacesInOrder(ctx context.Context, siteID string) ([]*ent.SiteSpace, error) {
	return r.db(ctx).SiteSpace.Query().Where(sitespace.SiteID(siteID)).
		Order(sitespace.ByPosition(), sitespace.ByID()).All(ctx)
}

// inStructureOrder orders a site's sections as its structure shows them
// (see graph/sitestructure.go): the top level, groups and sections outside
// groups, by position, each group's sections together where the group is,
// in their order.
func inStructureOrder(s *sql.Selector) {
	g := sql.Table(sitesectiongroup.Table).As("g")
	s.LeftJoin(g).On(s.C(sitesection.FieldGroupID), g.C(sitesectiongroup.FieldID))
	coalesce := func(a, b string) string { return "COALESCE(" + a + ", " + b + ")" }
	s.OrderBy(coalesce(g.C(sitesectiongroup.FieldPosition), s.C(sitesection.FieldPosition)),
		coalesce(g.C(sitesectiongroup.FieldID), s.C(sitesection.FieldID)), s.C(sitesection.FieldPosition), s.C(sitesection.FieldID))
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// PublishedView is what the visitor sees of a published site, with the
// address of each site-space they see (see model.PublishedView): what the
// HTML reader shows and what the official lookups of published URLs
// answer, decided in one place.
func (r *Resolver) PublishedView(ctx context.Context, s *ent.Site, visitorToken *string) (*model.PublishedView, error) {
	pub, err := r.publishedContent(ctx, s, visitorToken)
	if err != nil {
		return nil, err
	}
	v := &model.PublishedView{PublishedSite: pub}
	add := func(sec *ent.SiteSection, prefix string, sss []*ent.SiteSpace) error {
		def := defaultSiteSpace(sss)
		for _, ss := range sss {
			title, err := r.siteSpaceTitle(ctx, ss)
			if err != nil {
				return err
			}
			p := prefix
			if ss != def {
				p += url.PathEscape(ss.Path) + "/"
			}
			v.Spots = append(v.Spots, &model.PublishedSpot{Section: sec, SiteSpace: ss, Title: title, Path: p, Default: ss == def})
		}
		return nil
	}
	if len(pub.Sections) == 0 {
		return v, add(nil, "", pub.SiteSpaces)
	}
	def := v.DefaultSection()
	for _, ps := range pub.Sections {
		prefix := ""
		if ps.Section != def {
			prefix = url.PathEscape(ps.Section.Path) + "/"
		}
		if err := add(ps.Section, prefix, ps.SiteSpaces); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// defaultSiteSpace is the default among site-spaces, or the first when a
// condition hides it.
func defaultSiteSpace(sss []*ent.SiteSpace) *ent.SiteSpace {
	for _, ss := range sss {
		if ss.IsDefault {
			return ss
		}
	}
	if len(sss) > 0 {
		return sss[0]
	}
	return nil
}
