package graph

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect/sql"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/integrationinstallation"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/ent/webhookendpoint"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/logctx"
	"github.com/bindery/bindery/internal/store"
)

// Authenticate returns the viewer of a bearer token: the token, its user,
// and what authorization decides from about the user (their memberships
// and grants), read in one statement built once (see store.Statements), so
// that a request pays one round trip to know who asks and what they may
// see. A malformed, unknown or expired token is Unauthenticated; the three
// read alike to the client.
//
// What was read is kept between requests (see viewerCache), and a request
// of a token seen recently reads less, or nothing:
//   - nothing, when the server's generation (see Generation) has not moved
//     since the token was read, less than keptViewerAge ago: no write has
//     committed since, through this server or another on the database, so
//     no token was revoked and no membership or grant changed;
//   - otherwise the token alone, with the access epoch, reusing the user's
//     facts when the epoch has not moved since they were read;
//   - otherwise, and for a token not seen, the token with the facts.
//
// So a revoked or expired token fails at once on the server that revoked
// it, and on the others as soon as they hear of the write (a NOTIFY on
// PostgreSQL); a change made in the database behind Bindery's back, which
// no server hears of, is seen within keptViewerAge.
func (r *Resolver) Authenticate(ctx context.Context, token string, now time.Time) (*auth.Viewer, error) {
	return r.authenticate(ctx, token, enum.CredentialKindToken, now)
}

// AuthenticateSession returns the viewer of a session's secret, as
// Authenticate does of a token's, at the same cost. A session also ends
// when it has not been used for the idle lifetime (BINDERY_SESSION_IDLE).
func (r *Resolver) AuthenticateSession(ctx context.Context, secret string, now time.Time) (*auth.Viewer, error) {
	return r.authenticate(ctx, secret, enum.CredentialKindSession, now)
}

func (r *Resolver) authenticate(ctx context.Context, secret string, kind enum.CredentialKind, now time.Time) (*auth.Viewer, error) {
	prefix := auth.TokenPrefix
	if kind == enum.CredentialKindSession {
		prefix = auth.SessionPrefix
	}
	if !auth.WellFormed(secret, prefix) {
		return nil, apperr.Unauthenticatedf("The %s is malformed", credentialName(kind))
	}
	check := func(v *auth.Viewer) (*auth.Viewer, error) { return r.checkedViewer(v, kind, now) }
	hash := auth.HashToken(secret)
	// Taken before anything is read: a write that commits while the token
	// is read makes what is kept stale.
	gen, genOK := r.Generation()
	kept, ok := r.viewers.get(hash)
	if ok && genOK && kept.current(gen, r.viewers.age) {
		// A refusal is not trusted to what is kept: the last use another
		// server recorded may save a session from idling out.
		if v, err := check(kept.viewer()); err == nil {
			r.viewers.unread.Add(1)
			return v, nil
		}
		ok = false
	}
	if ok {
		read, err := r.readViewer(ctx, "viewer-token", viewerTokenStatement, hash)
		switch {
		case err != nil:
			return nil, err
		case read.viewer == nil:
			r.viewers.forget(hash)
			return check(nil)
		case read.viewer.User.ID == kept.userID && read.epoch.Valid && read.epoch.Int64 == kept.epoch:
			r.viewers.hits.Add(1)
			r.viewers.keep(hash, newKeptFacts(read, kept.facts, kept.hooked, gen, genOK))
			return check(withHooks(withFacts(read.viewer, kept.facts), kept.hooked))
		}
	}
	read, err := r.readViewer(ctx, "viewer", viewerStatement, hash)
	if err != nil {
		return nil, err
	}
	if read.viewer != nil && read.epoch.Valid {
		r.viewers.keep(hash, newKeptFacts(read, read.facts, read.hooked, gen, genOK))
	}
	return check(withHooks(withFacts(read.viewer, read.facts), read.hooked))
}

// RecordUse records that a token or session was used now, at most once a
// minute, so that reads do not all become writes; what is kept of it
// learns the use too, so that the next request does not record it again.
func (r *Resolver) RecordUse(ctx context.Context, secret string, v *auth.Viewer, now time.Time) {
	now = now.UTC().Truncate(time.Millisecond)
	if v.Token.LastUsedAt != nil && now.Sub(*v.Token.LastUsedAt) < time.Minute {
		return
	}
	// One statement on its own: the request's transaction, if it has one,
	// comes later, and a rollback must not forget the use. (UpdateOne would
	// read the row back: a second statement.)
	if _, err := r.client.APIToken.Update().Where(apitoken.ID(v.Token.ID)).SetLastUsedAt(now).Save(store.OutsideTx(ctx)); err != nil {
		logctx.From(ctx, r.log).Warn("recording token use", "error", err)
		return
	}
	if kept, ok := r.viewers.get(auth.HashToken(secret)); ok && kept.token.ID == v.Token.ID {
		kept.used.Store(now.UnixMilli())
	}
}

// viewerRead is what a viewer statement read: the token with its user (nil
// when no token has the hash), the access epoch, and the user's facts
// (none for the token statement alone).
type viewerRead struct {
	viewer *auth.Viewer
	epoch  sql.NullInt64
	facts  []accessRow
	hooked []string // organizations with somewhere to deliver webhooks
}

// readViewer runs a viewer statement (viewerStatement, or
// viewerTokenStatement) for a token's hash.
func (r *Resolver) readViewer(ctx context.Context, key string, build func(d string) sql.Querier, hash string) (viewerRead, error) {
	var read viewerRead
	rows, err := r.statements.Query(ctx, r.client.Driver(), key, store.Selector(build), hash)
	if err != nil {
		return read, fmt.Errorf("checking the API token: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var a, b, c, d, e, f sql.NullString
		var created, lastUsed, expires, userCreated, userUpdated sql.NullTime
		var epoch sql.NullInt64
		if err := rows.Scan(&kind, &a, &b, &c, &d, &e, &f, &created, &lastUsed, &expires, &userCreated, &userUpdated, &epoch); err != nil {
			return read, fmt.Errorf("checking the API token: %w", err)
		}
		if kind != viewerToken {
			if kind == accessMember && c.Valid {
				read.hooked = append(read.hooked, a.String)
			}
			read.facts = append(read.facts, accessRow{Kind: kind, A: a.String, B: nullable(b.String, b.Valid)})
			continue
		}
		t := &ent.APIToken{ID: a.String, Kind: enum.CredentialKind(b.String), UserID: c.String, CreatedAt: created.Time,
			LastUsedAt: nullable(lastUsed.Time, lastUsed.Valid), ExpiresAt: nullable(expires.Time, expires.Valid)}
		t.Edges.User = &ent.User{ID: c.String, Email: d.String, DisplayName: e.String, PhotoURL: nullable(f.String, f.Valid),
			CreatedAt: userCreated.Time, UpdatedAt: userUpdated.Time}
		read.viewer, read.epoch = &auth.Viewer{User: t.Edges.User, Token: t}, epoch
	}
	if err := rows.Err(); err != nil {
		return read, fmt.Errorf("checking the API token: %w", err)
	}
	return read, nil
}

// withFacts gives a viewer its facts, in maps of its own: kept facts are
// shared.
func withFacts(v *auth.Viewer, facts []accessRow) *auth.Viewer {
	if v == nil {
		return nil
	}
	memberships, grants := accessFacts(facts)
	v.Facts = &authz.Facts{Memberships: memberships, Grants: grants}
	return v
}

// withHooks gives a viewer the organizations it knows to have somewhere to
// deliver webhooks, in a map of its own: a request may add to it (see
// hookOrganization). A viewer left without one reads them when it writes.
func withHooks(v *auth.Viewer, hooked []string) *auth.Viewer {
	if v == nil {
		return nil
	}
	v.WebhookOrganizations = make(map[string]bool, len(hooked))
	for _, org := range hooked {
		v.WebhookOrganizations[org] = true
	}
	return v
}

// checkedViewer returns the viewer a token or session read gave, or why it
// cannot be one. The secret's prefix chose the kind; a row of the other kind
// cannot have its hash, but is refused all the same.
func (r *Resolver) checkedViewer(v *auth.Viewer, kind enum.CredentialKind, now time.Time) (*auth.Viewer, error) {
	name := credentialName(kind)
	switch {
	case v == nil || v.Token.Kind != kind:
		return nil, apperr.Unauthenticatedf("The %s is invalid or has been revoked", name)
	case v.Token.ExpiresAt != nil && !v.Token.ExpiresAt.After(now):
		return nil, apperr.Unauthenticatedf("The %s has expired", name)
	case kind == enum.CredentialKindSession && now.Sub(lastUse(v.Token)) > r.cfg.SessionIdle:
		return nil, apperr.Unauthenticatedf("The session has expired")
	}
	return v, nil
}

// lastUse is when a token was last used, as recorded (at most once a
// minute), or made.
func lastUse(t *ent.APIToken) time.Time {
	if t.LastUsedAt != nil {
		return *t.LastUsedAt
	}
	return t.CreatedAt
}

func credentialName(kind enum.CredentialKind) string {
	if kind == enum.CredentialKindSession {
		return "session"
	}
	return "API token"
}

// viewerToken is the kind of the viewer statement's token row; its other
// rows are access rows of the user's facts.
const viewerToken = "t"

// viewerColumns name the columns of the viewer statements after kind: the
// token row's, which the access rows share, and the access epoch's.
var viewerColumns = []string{"a", "b", "c", "d", "e", "f", "t1", "t2", "t3", "t4", "t5", "n"}

// viewerTokenStatement selects a token by its hash, joined to its user,
// and the access epoch (see viewerCache).
func viewerTokenStatement(d string) sql.Querier {
	t, u := sql.Dialect(d).Table(apitoken.Table).As("t"), sql.Dialect(d).Table(user.Table).As("u")
	return accessBranch(d, t, viewerToken, viewerColumns,
		t.C(apitoken.FieldID), t.C(apitoken.FieldKind), t.C(apitoken.FieldUserID),
		u.C(user.FieldEmail), u.C(user.FieldDisplayName), u.C(user.FieldPhotoURL),
		t.C(apitoken.FieldCreatedAt), t.C(apitoken.FieldLastUsedAt), t.C(apitoken.FieldExpiresAt),
		u.C(user.FieldCreatedAt), u.C(user.FieldUpdatedAt),
		"(SELECT "+quote(accessEpochColumn)+" FROM "+quote(accessEpochTable)+" WHERE "+quote("id")+" = 1)").
		Join(u).On(t.C(apitoken.FieldUserID), u.C(user.FieldID)).
		Where(sql.EQ(t.C(apitoken.FieldTokenHash), store.Param(0)))
}

// viewerStatement selects what viewerTokenStatement does and the user's
// memberships and grants. A membership's row says, in its third column,
// whether its organization has an active webhook endpoint or an active
// installation of an integration with one (see hookedOrganization). The
// token row comes first, so that its timestamps give the union's columns
// their types on both databases.
func viewerStatement(d string) sql.Querier {
	token := viewerTokenStatement(d).(*sql.Selector)
	owner := sql.Select(apitoken.FieldUserID).From(sql.Table(apitoken.Table)).
		Where(sql.EQ(apitoken.FieldTokenHash, store.Param(0)))
	for _, b := range factBranches(d, viewerColumns, func(column string) *sql.Predicate { return sql.In(column, owner) },
		hookedOrganization(member.Table+"."+member.FieldOrganizationID)) {
		token.UnionAll(b)
	}
	// Not wrapped in an outer SELECT: SQLite gives a column its declared
	// type, which its driver needs to read a timestamp, only from a table.
	return token
}

// The access epoch: a counter in a table of one row, which triggers move
// forward in the transaction of every change to what viewerStatement reads
// of a user's facts (migration 20261127003000_access_epoch).
const (
	accessEpochTable  = "access_epoch"
	accessEpochColumn = "epoch"
)

// viewerCache keeps what was read of recently seen tokens: the token with
// its user, the server's generation it was read at, and the user's facts
// with the access epoch they were read at (see Authenticate). A request of
// a token it holds reads nothing while the generation stands, and the token
// and the epoch alone otherwise, a statement of two index probes, instead
// of the token statement with every membership and grant (measured with
// pgbench: 47 µs of database CPU less for each request). It is bounded in
// entries, and a user with more facts than viewerCacheMaxRows is not kept.
// Nothing in it needs to be shared between replicas: each knows when what
// it keeps is stale, from its generation and from the epoch in the
// database.
type viewerCache struct {
	lru *lru.Cache[string, *keptFacts] // by token hash
	// age is how long a token is trusted without a statement
	// (keptViewerAge).
	age time.Duration
	// unread counts the requests that read nothing, hits those that read
	// the token alone.
	unread, hits atomic.Int64
}

// keptViewerAge bounds how long a token is trusted without a statement:
// a write made in the database beside Bindery's clients (an operator
// revoking a token with SQL) moves no generation, and is seen within it.
const keptViewerAge = time.Second

// WithKeptViewerAge sets how long a token is trusted without a statement
// while nothing is written (keptViewerAge by default). The tests that
// count statements lengthen it, so that a request that took more than a
// second on a machine busy with other tests does not read the token again
// and change the count.
func WithKeptViewerAge(d time.Duration) Option { return func(r *Resolver) { r.viewers.age = d } }

// keptFacts are a token and its user's facts as read; they are shared
// between requests, and never changed but for used.
type keptFacts struct {
	userID string
	epoch  int64
	facts  []accessRow
	hooked []string
	// token and user are as read at gen (when genOK), at read.
	token ent.APIToken
	user  ent.User
	gen   Generation
	genOK bool
	read  time.Time
	// used is when this server last recorded a use of the token, in Unix
	// milliseconds, or 0 (see RecordUse).
	used atomic.Int64
}

// newKeptFacts keeps what read found, with the facts and hooked
// organizations it goes with, as read at generation gen.
func newKeptFacts(read viewerRead, facts []accessRow, hooked []string, gen Generation, genOK bool) *keptFacts {
	k := &keptFacts{userID: read.viewer.User.ID, epoch: read.epoch.Int64, facts: facts, hooked: hooked,
		token: *read.viewer.Token, user: *read.viewer.User, gen: gen, genOK: genOK, read: time.Now()}
	k.token.Edges = ent.APITokenEdges{}
	return k
}

// current reports whether k may stand for the database at generation gen,
// for as long as age.
func (k *keptFacts) current(gen Generation, age time.Duration) bool {
	return k.genOK && k.gen == gen && time.Since(k.read) < age
}

// viewer returns the viewer k keeps, in values of its own: a request may
// change its viewer. Its webhook organizations are unknown (nil): webhook
// endpoints are written without moving the generation (quietTables), so
// the epoch is what says whether the kept ones still hold, and a write
// reads them for itself (see enqueueWebhooks).
func (k *keptFacts) viewer() *auth.Viewer {
	t, u := k.token, k.user
	if ms := k.used.Load(); ms != 0 && (t.LastUsedAt == nil || ms > t.LastUsedAt.UnixMilli()) {
		at := time.UnixMilli(ms).UTC()
		t.LastUsedAt = &at
	}
	t.Edges.User = &u
	// Endpoint writes are quiet, so the kept organizations may be stale:
	// without a map, a write by this viewer reads them.
	return withFacts(&auth.Viewer{User: &u, Token: &t}, k.facts)
}

const (
	// viewerCacheSize bounds the tokens kept: a few kilobytes each.
	viewerCacheSize = 4096
	// viewerCacheMaxRows bounds the facts of a kept user, and so the
	// memory of the cache (about 100 bytes a fact).
	viewerCacheMaxRows = 256
)

func newViewerCache() *viewerCache {
	l, err := lru.New[string, *keptFacts](viewerCacheSize)
	if err != nil {
		panic("graph: " + err.Error()) // only for a size below 1
	}
	return &viewerCache{lru: l, age: keptViewerAge}
}

func (c *viewerCache) get(hash string) (*keptFacts, bool) { return c.lru.Get(hash) }

func (c *viewerCache) keep(hash string, k *keptFacts) {
	if len(k.facts) <= viewerCacheMaxRows {
		c.lru.Add(hash, k)
	}
}

func (c *viewerCache) forget(hash string) { c.lru.Remove(hash) }

// hookedOrganization is an SQL expression that is 'w' when the
// organization whose ID the column org holds has an active webhook
// endpoint of its own, or an active installation of an integration with an
// active endpoint (see Resolver.enqueueWebhooks), and NULL otherwise. Both
// are probes of indexes (endpoints by organization, installations by
// organization, endpoints by integration) for each membership: measured
// with pgbench, the token statement costs 11 µs less than with a branch of
// its own for each kind of endpoint, which looked the user's memberships up
// again.
func hookedOrganization(org string) string {
	q := quote
	own := fmt.Sprintf(`EXISTS (SELECT 1 FROM %s AS "we" WHERE "we".%s = %s AND "we".%s AND "we".%s IS NULL)`,
		q(webhookendpoint.Table), q(webhookendpoint.FieldOrganizationID), org,
		q(webhookendpoint.FieldActive), q(webhookendpoint.FieldIntegrationID))
	installed := fmt.Sprintf(`EXISTS (SELECT 1 FROM %s AS "wi" JOIN %s AS "wie" ON "wie".%s = "wi".%s WHERE "wi".%s = %s AND "wi".%s = '%s' AND "wie".%s)`,
		q(integrationinstallation.Table), q(webhookendpoint.Table),
		q(webhookendpoint.FieldIntegrationID), q(integrationinstallation.FieldIntegrationID),
		q(integrationinstallation.FieldOrganizationID), org,
		q(integrationinstallation.FieldStatus), enum.InstallationStatusActive,
		q(webhookendpoint.FieldActive))
	return "CASE WHEN " + own + " OR " + installed + " THEN 'w' END"
}

// quote quotes an identifier for both databases: SQLite takes PostgreSQL's
// double quotes too.
func quote(name string) string { return `"` + name + `"` }
