package graph

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

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
	"github.com/bindery/bindery/internal/store"
)

// Authenticate returns the viewer of a bearer token: the token, its user,
// and what authorization decides from about the user (their memberships
// and grants), read in one statement built once (see store.Statements), so
// that a request pays one round trip to know who asks and what they may
// see. A malformed, unknown or expired token is Unauthenticated; the three
// read alike to the client.
func (r *Resolver) Authenticate(ctx context.Context, token string, now time.Time) (*auth.Viewer, error) {
	if !auth.WellFormed(token) {
		return nil, apperr.Unauthenticatedf("The API token is malformed")
	}
	rows, err := r.statements.Query(ctx, r.client.Driver(), "viewer", store.Selector(viewerStatement), auth.HashToken(token))
	if err != nil {
		return nil, fmt.Errorf("checking the API token: %w", err)
	}
	defer rows.Close()
	var v *auth.Viewer
	var facts []accessRow
	hooked := map[string]bool{}
	for rows.Next() {
		var kind string
		var a, b, c, d, e, f sql.NullString
		var created, lastUsed, expires, userCreated, userUpdated sql.NullTime
		if err := rows.Scan(&kind, &a, &b, &c, &d, &e, &f, &created, &lastUsed, &expires, &userCreated, &userUpdated); err != nil {
			return nil, fmt.Errorf("checking the API token: %w", err)
		}
		if kind != viewerToken {
			if kind == accessMember && c.Valid {
				hooked[a.String] = true
			}
			facts = append(facts, accessRow{Kind: kind, A: a.String, B: nullable(b.String, b.Valid)})
			continue
		}
		t := &ent.APIToken{ID: a.String, Label: b.String, UserID: c.String, CreatedAt: created.Time,
			LastUsedAt: nullable(lastUsed.Time, lastUsed.Valid), ExpiresAt: nullable(expires.Time, expires.Valid)}
		t.Edges.User = &ent.User{ID: c.String, Email: d.String, DisplayName: e.String, PhotoURL: nullable(f.String, f.Valid),
			CreatedAt: userCreated.Time, UpdatedAt: userUpdated.Time}
		v = &auth.Viewer{User: t.Edges.User, Token: t}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("checking the API token: %w", err)
	}
	switch {
	case v == nil:
		return nil, apperr.Unauthenticatedf("The API token is invalid or has been revoked")
	case v.Token.ExpiresAt != nil && !v.Token.ExpiresAt.After(now):
		return nil, apperr.Unauthenticatedf("The API token has expired")
	}
	memberships, grants := accessFacts(facts)
	v.Facts = &authz.Facts{Memberships: memberships, Grants: grants}
	v.WebhookOrganizations = hooked
	return v, nil
}

// viewerToken is the kind of the viewer statement's token row; its other
// rows are access rows of the user's facts.
const viewerToken = "t"

// viewerStatement selects a token by its hash, joined to its user, and the
// user's memberships and grants. A membership's row says, in its third
// column, whether its organization has an active webhook endpoint or an
// active installation of an integration with one (see hookedOrganization).
// The token row comes first, so that its timestamps give the union's
// columns their types on both databases.
func viewerStatement(d string) sql.Querier {
	names := []string{"a", "b", "c", "d", "e", "f", "t1", "t2", "t3", "t4", "t5"}
	t, u := sql.Dialect(d).Table(apitoken.Table).As("t"), sql.Dialect(d).Table(user.Table).As("u")
	token := accessBranch(d, t, viewerToken, names,
		t.C(apitoken.FieldID), t.C(apitoken.FieldLabel), t.C(apitoken.FieldUserID),
		u.C(user.FieldEmail), u.C(user.FieldDisplayName), u.C(user.FieldPhotoURL),
		t.C(apitoken.FieldCreatedAt), t.C(apitoken.FieldLastUsedAt), t.C(apitoken.FieldExpiresAt),
		u.C(user.FieldCreatedAt), u.C(user.FieldUpdatedAt)).
		Join(u).On(t.C(apitoken.FieldUserID), u.C(user.FieldID)).
		Where(sql.EQ(t.C(apitoken.FieldTokenHash), store.Param(0)))
	owner := sql.Select(apitoken.FieldUserID).From(sql.Table(apitoken.Table)).
		Where(sql.EQ(apitoken.FieldTokenHash, store.Param(0)))
	for _, b := range factBranches(d, names, func(column string) *sql.Predicate { return sql.In(column, owner) },
		hookedOrganization(member.Table+"."+member.FieldOrganizationID)) {
		token.UnionAll(b)
	}
	// Not wrapped in an outer SELECT: SQLite gives a column its declared
	// type, which its driver needs to read a timestamp, only from a table.
	return token
}

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
	q := func(s string) string { return `"` + s + `"` }
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
