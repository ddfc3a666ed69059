package graph

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// batchWait is how long a loader collects keys before it queries. Sibling
// fields resolve concurrently, so a millisecond gathers a whole list on a
// server that is not starved of CPU (WithBatchWait changes it).
const batchWait = time.Millisecond

// loaders are the per-request dataloaders: every nested field loads through
// them, so a list of N items costs a bounded number of queries, not N.
//
// The loaders of resources by ID come from the policies (see policy), one per
// type; the others are declared in newLoaders. Every loader is registered with
// its clearing as it is made, so none can be forgotten by clear.
type loaders struct {
	r *Resolver
	// making guards the loaders made on first use, entities and lazy, and
	// clears: a request uses few of its loaders, and making every one of
	// them up front cost 6% of the CPU of a point read.
	making sync.Mutex
	// entities holds the loader of each resource type, by type name.
	entities map[string]any
	lazy     struct {
		// spaceCounts holds the counters of spaces.
		spaceCounts *batchLoader[spaceCounts]
		// orgAccess holds, per organization, what authorization needs to
		// decide for the viewer.
		orgAccess *batchLoader[*authz.Org]
		// sharedUsers tells, per user, whether they share an organization
		// with the viewer.
		sharedUsers *batchLoader[bool]
		// crComments counts the open comments of change requests.
		crComments *batchLoader[int]
		// crContributors lists the contributors of change requests.
		crContributors *batchLoader[[]*ent.User]
		// replyCounts counts the replies of comments.
		replyCounts *batchLoader[int]
		// reactions lists the reactions to comments and replies, by ID.
		reactions *batchLoader[[]*ent.Reaction]
		// mentions lists the users comments and replies mention, by ID.
		mentions *batchLoader[[]*ent.User]
		// memberCounts counts the spaces and teams of members.
		memberCounts *batchLoader[countPair]
		// teamCounts counts the members and spaces of teams.
		teamCounts *batchLoader[countPair]
		// mergedFrom finds, by revision, the change request whose merge
		// made it.
		mergedFrom *batchLoader[*ent.ChangeRequest]
		// siteSpaceCounts counts the site-spaces of sites.
		siteSpaceCounts *batchLoader[int]
		// sectionSiteSpaces lists the site-spaces of sections.
		sectionSiteSpaces *batchLoader[[]*ent.SiteSpace]
		// groupSections lists the sections of section groups.
		groupSections *batchLoader[[]*ent.SiteSection]
		// installationSelections holds the selected spaces and sites of
		// installations.
		installationSelections *batchLoader[installationSelection]
		// integrationRefs holds the names and organizations of
		// integrations, published or not.
		integrationRefs *batchLoader[integrationRef]
	}
	// nested holds the pages of nested lists primed by a listed page.
	nested *nestedPages

	clears []func()

	mu        sync.Mutex
	facts     *viewerFacts               // loaded on first use, see Resolver.viewerFacts
	contents  map[string]*content.Loaded // by revision ID, see Resolver.contentOf
	shareKeys map[string]string          // space or site ID to the share key the request presented
	visitors  map[string]string          // site or space ID to the visitor JWT the request presented
	unsigned  map[string]map[string]any  // site ID to the unsigned claims the request presented
	keyOrgs   map[string]bool            // organizations a valid share key or visitor JWT opened a space of
	published map[string]bool            // spaces of published sites the viewer reads as a reader
	readers   map[string]bool            // site ID to whether the viewer reads it as a reader (siteReaderDecision)
	// siteSpaces are the site-spaces of sites a reader was admitted to, in
	// order, read with the decision (see siteReaderDecision).
	siteSpaces map[string][]*ent.SiteSpace
	// siteVersions name the state of sites a reader was admitted to (see
	// publishedVersion).
	siteVersions map[string]string
}

type loadersKey struct{}

// WithLoaders returns a context with fresh per-request loaders. Both
// transports call it once per request. When the viewer's facts were read
// with their token (Authenticate), the loaders start from them; once a
// mutation clears the loaders, they are read again.
func (r *Resolver) WithLoaders(ctx context.Context) context.Context {
	l := r.newLoaders(nil)
	if v := auth.ViewerFrom(ctx); v != nil && v.User != nil && v.Facts != nil {
		l.facts = &viewerFacts{user: v.User, loaded: true, memberships: v.Facts.Memberships, grants: v.Facts.Grants}
	}
	return withLoaders(ctx, l)
}

func withLoaders(ctx context.Context, l *loaders) context.Context {
	return context.WithValue(ctx, loadersKey{}, l)
}

func loadersFrom(ctx context.Context) *loaders {
	l, _ := ctx.Value(loadersKey{}).(*loaders)
	if l == nil {
		panic("graph: no loaders in context; wrap the request with Resolver.WithLoaders")
	}
	return l
}

// batchLoader is a loader of the request: the dataloader that batches the
// keys of siblings, and the way to its batch function at once for a load
// that has none (see load).
type batchLoader[V any] struct {
	*dataloader.Loader[string, V]
	direct *directLoader[V]
}

// newBatchLoader makes a loader of the request from its batch function, and
// registers its clearing for clear. The caller holds l.making.
func newBatchLoader[V any](l *loaders, fn dataloader.BatchFunc[string, V]) *batchLoader[V] {
	cache := dataloader.NewCache[string, V]()
	ld := dataloader.NewBatchedLoader(fn, dataloader.WithWait[string, V](l.r.batchWait),
		dataloader.WithCache[string, V](cache))
	l.clears = append(l.clears, func() { ld.ClearAll() })
	return &batchLoader[V]{Loader: ld, direct: &directLoader[V]{cache: cache, fetch: fn}}
}

// batched is a loader whose batch function returns values by key; a missing
// key loads as the zero value. The caller holds l.making.
func batched[V any](l *loaders, fetch func(context.Context, []string) (map[string]V, error)) *batchLoader[V] {
	return newBatchLoader(l, func(ctx context.Context, ids []string) []*dataloader.Result[V] {
		byID, err := fetch(ctx, ids)
		return results(ids, byID, err, true)
	})
}

// made returns the loader in slot, making it from fetch on first use.
func made[V any](l *loaders, slot **batchLoader[V], fetch func(*Resolver, context.Context, []string) (map[string]V, error)) *batchLoader[V] {
	l.making.Lock()
	defer l.making.Unlock()
	if *slot == nil {
		*slot = batched(l, func(ctx context.Context, ids []string) (map[string]V, error) { return fetch(l.r, ctx, ids) })
	}
	return *slot
}

func (l *loaders) spaceCounts() *batchLoader[spaceCounts] {
	return made(l, &l.lazy.spaceCounts, (*Resolver).loadSpaceCounts)
}

func (l *loaders) orgAccess() *batchLoader[*authz.Org] {
	return made(l, &l.lazy.orgAccess, (*Resolver).loadOrgAccess)
}

func (l *loaders) sharedUsers() *batchLoader[bool] {
	return made(l, &l.lazy.sharedUsers, (*Resolver).loadSharedUsers)
}

func (l *loaders) crComments() *batchLoader[int] {
	return made(l, &l.lazy.crComments, (*Resolver).loadChangeRequestComments)
}

func (l *loaders) crContributors() *batchLoader[[]*ent.User] {
	return made(l, &l.lazy.crContributors, (*Resolver).loadChangeRequestContributors)
}

func (l *loaders) replyCounts() *batchLoader[int] {
	return made(l, &l.lazy.replyCounts, (*Resolver).loadReplyCounts)
}

func (l *loaders) reactions() *batchLoader[[]*ent.Reaction] {
	return made(l, &l.lazy.reactions, (*Resolver).loadReactions)
}

func (l *loaders) mentions() *batchLoader[[]*ent.User] {
	return made(l, &l.lazy.mentions, (*Resolver).loadMentions)
}

func (l *loaders) memberCounts() *batchLoader[countPair] {
	return made(l, &l.lazy.memberCounts, (*Resolver).loadMemberCounts)
}

func (l *loaders) teamCounts() *batchLoader[countPair] {
	return made(l, &l.lazy.teamCounts, (*Resolver).loadTeamCounts)
}

func (l *loaders) mergedFrom() *batchLoader[*ent.ChangeRequest] {
	return made(l, &l.lazy.mergedFrom, (*Resolver).loadMergedFrom)
}

func (l *loaders) siteSpaceCounts() *batchLoader[int] {
	return made(l, &l.lazy.siteSpaceCounts, (*Resolver).loadSiteSpaceCounts)
}

func (l *loaders) sectionSiteSpaces() *batchLoader[[]*ent.SiteSpace] {
	return made(l, &l.lazy.sectionSiteSpaces, (*Resolver).loadSectionSiteSpaces)
}

func (l *loaders) groupSections() *batchLoader[[]*ent.SiteSection] {
	return made(l, &l.lazy.groupSections, (*Resolver).loadGroupSections)
}

func (l *loaders) installationSelections() *batchLoader[installationSelection] {
	return made(l, &l.lazy.installationSelections, (*Resolver).loadInstallationSelections)
}

func (l *loaders) integrationRefs() *batchLoader[integrationRef] {
	return made(l, &l.lazy.integrationRefs, (*Resolver).loadIntegrationRefs)
}

// entity returns the loader of a resource type, making it on first use.
func (l *loaders) entity(p anyPolicy) any {
	l.making.Lock()
	defer l.making.Unlock()
	ld, ok := l.entities[p.name()]
	if !ok {
		ld = p.newLoader(l.r, l)
		l.entities[p.name()] = ld
	}
	return ld
}

// newLoaders returns fresh loaders; those of a transaction keep what the
// request presented (from).
func (r *Resolver) newLoaders(from *loaders) *loaders {
	l := &loaders{r: r, entities: map[string]any{}, shareKeys: map[string]string{}, visitors: map[string]string{}, unsigned: map[string]map[string]any{},
		keyOrgs: map[string]bool{}, published: map[string]bool{}, readers: map[string]bool{}, contents: map[string]*content.Loaded{},
		siteSpaces: map[string][]*ent.SiteSpace{}, siteVersions: map[string]string{}}
	if from != nil {
		from.mu.Lock()
		maps.Copy(l.shareKeys, from.shareKeys)
		maps.Copy(l.visitors, from.visitors)
		maps.Copy(l.unsigned, from.unsigned)
		from.mu.Unlock()
	}
	l.nested = newNestedPages(l)
	return l
}

// newLoader returns a loader of entities by ID. A missing ID loads as an ent
// not-found error.
func newLoader[T any](l *loaders, fetch func(context.Context, []string) ([]T, error), idOf func(T) string) *batchLoader[T] {
	return newBatchLoader(l, func(ctx context.Context, ids []string) []*dataloader.Result[T] {
		items, err := fetch(ctx, ids)
		byID := make(map[string]T, len(items))
		for _, it := range items {
			byID[idOf(it)] = it
		}
		return results(ids, byID, err, false)
	})
}

// results orders batch results by key. Missing keys are not-found errors, or
// zero values when zeroOK.
func results[T any](keys []string, byKey map[string]T, err error, zeroOK bool) []*dataloader.Result[T] {
	out := make([]*dataloader.Result[T], len(keys))
	for i, k := range keys {
		switch v, ok := byKey[k]; {
		case err != nil:
			out[i] = &dataloader.Result[T]{Error: err}
		case ok || zeroOK:
			out[i] = &dataloader.Result[T]{Data: v}
		default:
			out[i] = &dataloader.Result[T]{Error: &ent.NotFoundError{}}
		}
	}
	return out
}

// clear drops everything cached, after a mutation changed the data.
func (l *loaders) clear() {
	if l == nil {
		return
	}
	l.making.Lock()
	clears := l.clears
	l.making.Unlock()
	for _, c := range clears {
		c()
	}
	l.mu.Lock()
	l.facts = nil
	l.contents = map[string]*content.Loaded{}
	l.keyOrgs = map[string]bool{}
	l.published = map[string]bool{}
	l.readers = map[string]bool{}
	l.siteSpaces = map[string][]*ent.SiteSpace{}
	l.siteVersions = map[string]string{}
	l.mu.Unlock()
}

// setShareKey records the share key the request presented for a space or a
// site.
func (l *loaders) setShareKey(id, key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shareKeys[id] = key
}

// setVisitorToken records the visitor JWT the request presented for a site
// or a space.
func (l *loaders) setVisitorToken(id, token string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.visitors[id] = token
}

func (l *loaders) setUnsignedClaims(siteID string, claims map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unsigned[siteID] = claims
}

func (l *loaders) unsignedClaims(siteID string) map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.unsigned[siteID]
}

func (l *loaders) visitorToken(id string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.visitors[id]
}

// openOrg records that a valid share key opened a space of the organization,
// which makes the organization visible to the viewer (see authz.Org).
func (l *loaders) openOrg(orgID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.keyOrgs[orgID] = true
}

// publishSpaces records spaces of a published site the viewer reads: they
// read those spaces too (see spaceDecision).
func (l *loaders) publishSpaces(spaceIDs ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range spaceIDs {
		l.published[id] = true
	}
}

// siteReader returns what siteReaderDecision found for a site in this
// request, and whether it was found.
func (l *loaders) siteReader(siteID string) (admitted, known bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	admitted, known = l.readers[siteID]
	return admitted, known
}

// setSiteSpaces keeps the site-spaces of a site, in order.
func (l *loaders) setSiteSpaces(siteID string, sss []*ent.SiteSpace) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.siteSpaces[siteID] = sss
}

// siteSpacesOf returns the site-spaces of a site that setSiteSpaces kept.
func (l *loaders) siteSpacesOf(siteID string) ([]*ent.SiteSpace, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sss, ok := l.siteSpaces[siteID]
	return sss, ok
}

func (l *loaders) setSiteVersion(siteID, version string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.siteVersions[siteID] = version
}

func (l *loaders) siteVersion(siteID string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.siteVersions[siteID]
}

func (l *loaders) setSiteReader(siteID string, admitted bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.readers[siteID] = admitted
}

func (l *loaders) spacePublished(spaceID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.published[spaceID]
}

func (l *loaders) orgOpened(orgID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.keyOrgs[orgID]
}

func (l *loaders) shareKey(id string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shareKeys[id]
}

// spaceCounts are the counters of a space.
type spaceCounts struct {
	Comments, ChangeRequests, Open, Draft int
}

// loadChangeRequestComments counts the open comments of change requests.
func (r *Resolver) loadChangeRequestComments(ctx context.Context, ids []string) (map[string]int, error) {
	ctx = internal(ctx, "counts of change requests the viewer sees")
	var rows []struct {
		ChangeRequestID string `json:"change_request_id"`
		Count           int    `json:"count"`
	}
	err := r.db(ctx).Comment.Query().
		Where(comment.ChangeRequestIDIn(ids...), comment.StatusEQ(enum.CommentStatusOpen)).
		GroupBy(comment.FieldChangeRequestID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("counting change request comments: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, row := range rows {
		out[row.ChangeRequestID] = row.Count
	}
	return out, nil
}

// loadChangeRequestContributors lists the contributors of change requests,
// in ID order: two statements for any number of change requests.
func (r *Resolver) loadChangeRequestContributors(ctx context.Context, ids []string) (map[string][]*ent.User, error) {
	crs, err := r.db(ctx).ChangeRequest.Query().Where(changerequest.IDIn(ids...)).
		WithContributors(func(q *ent.UserQuery) { q.Order(user.ByID()) }).
		All(internal(ctx, "contributors of change requests the viewer sees"))
	if err != nil {
		return nil, fmt.Errorf("loading contributors: %w", err)
	}
	out := make(map[string][]*ent.User, len(crs))
	for _, cr := range crs {
		out[cr.ID] = cr.Edges.Contributors
		if out[cr.ID] == nil {
			out[cr.ID] = []*ent.User{}
		}
	}
	return out, nil
}
