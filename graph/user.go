package graph

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// sharesOrganization reports whether a user is an active member of an
// organization the viewer is an active member of. It is the one rule behind
// looking a user up and seeing their email.
func (r *Resolver) sharesOrganization(ctx context.Context, userID string) (bool, error) {
	return load(ctx, loadersFrom(ctx).sharedUsers(), userID)
}

func (r *Resolver) loadSharedUsers(ctx context.Context, ids []string) (map[string]bool, error) {
	f, err := r.memberships(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(ids))
	if len(f.memberships) == 0 {
		return out, nil
	}
	orgIDs := make([]string, 0, len(f.memberships))
	for orgID := range f.memberships {
		orgIDs = append(orgIDs, orgID)
	}
	shared, err := r.db(internal(ctx, "which users share an organization with the viewer")).Member.Query().
		Where(member.UserIDIn(ids...), member.OrganizationIDIn(orgIDs...), member.Disabled(false)).
		Select(member.FieldUserID).Strings(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading shared organizations: %w", err)
	}
	for _, id := range shared {
		out[id] = true
	}
	return out, nil
}

// userEmail applies the rule of who sees a user's email: the user, and
// members of an organization they share. Anyone who can see an object that
// names the user sees the rest (id, displayName, photoURL). Both APIs present
// users through it.
func (r *Resolver) userEmail(ctx context.Context, u *ent.User) (*string, error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return nil, err
	}
	if u.ID != f.user.ID {
		shared, err := r.sharesOrganization(ctx, u.ID)
		if err != nil || !shared {
			return nil, err
		}
	}
	email := u.Email
	return &email, nil
}

func (r *Resolver) userURLs(u *ent.User) *model.UserURLs {
	return &model.UserURLs{Location: r.cfg.PublicURL + "/v1/users/" + u.ID}
}

// credentialsOf lists a user's API tokens, or sessions; only the viewer's
// own are readable.
func (r *Resolver) credentialsOf(ctx context.Context, u *ent.User, kind enum.CredentialKind, a page.Args) (*page.Connection[*ent.APIToken], error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if u.ID != v.User.ID {
		return nil, nil
	}
	// The viewer's own tokens: each is visible to its owner.
	return page.Paginate(within(ctx), r.db(ctx).APIToken.Query().Where(apitoken.UserID(u.ID), apitoken.KindEQ(kind)),
		tokensByCreation, a)
}

// createAPIToken issues a token to the viewer. Only its hash is stored.
func (r *Resolver) createAPIToken(ctx context.Context, in model.CreateAPITokenInput) (*model.CreateAPITokenPayload, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if in.ExpiresAt != nil && !in.ExpiresAt.After(r.clock()) {
		return nil, apperr.Invalid("expiresAt", "must be in the future")
	}
	return transact(ctx, r, func(ctx context.Context) (*model.CreateAPITokenPayload, error) {
		token, t, err := IssueToken(ctx, r.db(ctx), v.User.ID, in.Label, in.ExpiresAt)
		if err != nil {
			return nil, err
		}
		r.tokens.wrote(ctx, t)
		return &model.CreateAPITokenPayload{APIToken: t, Token: token, ClientMutationID: in.ClientMutationID}, nil
	})
}

// IssueToken creates an API token for a user and returns it with its record.
// The command line uses it too.
func IssueToken(ctx context.Context, db *ent.Client, userID, label string, expiresAt *time.Time) (string, *ent.APIToken, error) {
	token, hash := auth.NewToken()
	t, err := db.APIToken.Create().
		SetUserID(userID).
		SetLabel(strings.TrimSpace(label)).
		SetTokenHash(hash).
		SetNillableExpiresAt(expiresAt).
		Save(ctx)
	if err != nil {
		return "", nil, err
	}
	return token, t, nil
}

// revokeAPIToken deletes one of the viewer's tokens.
func (r *Resolver) revokeAPIToken(ctx context.Context, in model.RevokeAPITokenInput) (*model.RevokeAPITokenPayload, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*model.RevokeAPITokenPayload, error) {
		// The viewer's own tokens only: anyone else's is not found.
		n, err := r.db(ctx).APIToken.Delete().
			Where(apitoken.ID(in.ID), apitoken.UserID(v.User.ID), apitoken.KindEQ(enum.CredentialKindToken)).Exec(ctx)
		if err == nil && n == 0 {
			err = apperr.NotFoundf("API token not found")
		}
		return &model.RevokeAPITokenPayload{RevokedAPITokenID: in.ID, ClientMutationID: in.ClientMutationID}, err
	})
}

// EnsureUser returns the user with the email, creating them when missing.
// The command line and the first start use it.
func EnsureUser(ctx context.Context, db *ent.Client, email string) (*ent.User, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	u, err := db.User.Query().Where(user.Email(email)).Only(internal(ctx, "the command line and first start"))
	if !ent.IsNotFound(err) {
		return u, err
	}
	name, _, _ := strings.Cut(email, "@")
	return db.User.Create().SetEmail(email).SetDisplayName(name).Save(ctx)
}

// sharedColumn is a column of users read with it: whether the user shares an
// organization with the viewer, so that a user and the rule of their email
// cost one statement.
const sharedColumn = "shares_organization"

// withShared adds sharedColumn to a query of users, for the viewer.
func withShared(viewerID string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		theirs, mine := sql.Table(member.Table).As("theirs"), sql.Table(member.Table).As("mine")
		s.AppendSelectExprAs(sql.Exists(sql.Select(theirs.C(member.FieldID)).From(theirs).
			Join(mine).On(theirs.C(member.FieldOrganizationID), mine.C(member.FieldOrganizationID)).
			Where(sql.And(
				sql.ColumnsEQ(theirs.C(member.FieldUserID), s.C(user.FieldID)),
				sql.EQ(theirs.C(member.FieldDisabled), false),
				sql.EQ(mine.C(member.FieldUserID), viewerID),
				sql.EQ(mine.C(member.FieldDisabled), false),
			))), sharedColumn)
	}
}

// fetchUsers reads users with whether each shares an organization with the
// viewer, and primes the sharedUsers loader with it.
func (r *Resolver) fetchUsers(ctx context.Context, db *ent.Client, ids []string) ([]*ent.User, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	users, err := byID(ctx, r, db, "User with shared", ids, func(ctx context.Context, c *ent.Client, ids, viewer []string) error {
		_, err := c.User.Query().Where(user.IDIn(ids...)).Modify(withShared(viewer[0])).All(ctx)
		return err
	}, db.User.ScanRows, v.User.ID)
	if err != nil {
		return nil, err
	}
	l := loadersFrom(ctx)
	for _, u := range users {
		if shared, ok := boolValue(u.Value(sharedColumn)); ok {
			l.sharedUsers().Prime(ctx, u.ID, shared)
		}
	}
	return users, nil
}

// boolValue reads a boolean column, which SQLite answers as an integer.
func boolValue(v ent.Value, err error) (bool, bool) {
	if err != nil {
		return false, false
	}
	switch b := v.(type) {
	case bool:
		return b, true
	case int64:
		return b != 0, true
	}
	return false, false
}
