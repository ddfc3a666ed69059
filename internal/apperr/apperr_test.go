package apperr_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/store"
)

func TestFromClassifies(t *testing.T) {
	for _, tc := range []struct {
		err    error
		kind   apperr.Kind
		status int
		code   string
	}{
		{apperr.NotFoundf("space not found"), apperr.NotFound, 404, "NOT_FOUND"},
		{fmt.Errorf("wrapped: %w", apperr.Forbidden("no")), apperr.PermissionDenied, 403, "FORBIDDEN"},
		{apperr.Invalid("title", "too long"), apperr.InvalidArgument, 400, "BAD_USER_INPUT"},
		{apperr.Unauthenticatedf("no token"), apperr.Unauthenticated, 401, "UNAUTHENTICATED"},
		{apperr.Conflictf("taken"), apperr.Conflict, 409, "CONFLICT"},
		{apperr.Preconditionf("deleted"), apperr.PreconditionFailed, 412, "PRECONDITION_FAILED"},
		{apperr.RateLimitedf("slow down"), apperr.RateLimited, 429, "RATE_LIMITED"},
		{apperr.TooLargef("big"), apperr.TooLarge, 413, "REQUEST_TOO_LARGE"},
		{fmt.Errorf("query: %w", context.DeadlineExceeded), apperr.Timeout, 504, "TIMEOUT"},
		{fmt.Errorf("query: %w", context.Canceled), apperr.Canceled, 499, "CLIENT_CLOSED_REQUEST"},
		{&ent.NotFoundError{}, apperr.NotFound, 404, "NOT_FOUND"},
		{&ent.ConstraintError{}, apperr.Conflict, 409, "CONFLICT"},
		{errors.New("pq: relation does not exist"), apperr.Internal, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR"},
	} {
		e := apperr.From(tc.err)
		assert.Equal(t, tc.kind, e.Kind, tc.err.Error())
		assert.Equal(t, tc.status, e.Kind.HTTPStatus())
		assert.Equal(t, tc.code, e.Kind.Code())
	}
}

// A driver reports a cancelled statement in its own words; the request's
// context says what happened.
func TestFromContextNamesTheEndOfTheRequest(t *testing.T) {
	driver := errors.New("pq: canceling statement due to user request")
	assert.Equal(t, apperr.Internal, apperr.FromContext(context.Background(), driver).Kind)
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	assert.Equal(t, apperr.Timeout, apperr.FromContext(expired, driver).Kind)
	gone, leave := context.WithCancel(context.Background())
	leave()
	assert.Equal(t, apperr.Canceled, apperr.FromContext(gone, driver).Kind)
	assert.Equal(t, apperr.NotFound, apperr.FromContext(gone, apperr.NotFoundf("x")).Kind, "an error the application chose keeps its kind")
}

func TestInternalMessageHidesCause(t *testing.T) {
	e := apperr.From(errors.New("dial tcp 10.0.0.3:5432: secret detail"))
	assert.Equal(t, apperr.InternalMessage, e.Message)
}

func TestJSONName(t *testing.T) {
	assert.Equal(t, "displayName", apperr.JSONName("display_name"))
	assert.Equal(t, "ssoURL", apperr.JSONName("sso_url"))
	assert.Equal(t, "entityID", apperr.JSONName("entity_id"))
	assert.Equal(t, "title", apperr.JSONName("title"))
}

// ent wraps validator errors in its own wording; the client sees only the
// validator's message, under the API name of the field.
func TestValidationMessageIsTheValidators(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "v.db"))
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Migrate(ctx))
	_, err = db.Client.User.Create().SetEmail("a@example.com").SetDisplayName(strings.Repeat("é", 256)).Save(ctx)
	e := apperr.From(fmt.Errorf("saving: %w", err))
	assert.Equal(t, apperr.InvalidArgument, e.Kind)
	assert.Equal(t, "displayName", e.Field)
	assert.Equal(t, "displayName: must be at most 255 characters", e.Message)
}

// A field that the inputs of both APIs name otherwise than its column is
// reported under the inputs' name: ent's error names the type and field.
func TestValidationNamesTheInput(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "v.db"))
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Migrate(ctx))
	// The validators run before any statement: no rows are needed.
	_, err = db.Client.Site.Create().SetOrganizationID("org_x").SetTitle("Docs").SetProxyOrigin("company.com").Save(ctx)
	e := apperr.From(err)
	assert.Equal(t, apperr.InvalidArgument, e.Kind)
	assert.Equal(t, "proxy", e.Field)
	assert.True(t, strings.HasPrefix(e.Message, "proxy: must be a host and a path"), e.Message)

	_, err = db.Client.OpenAPISpec.Create().SetOrganizationID("org_x").SetSlug("api").SetSourceURL("ftp://x").Save(ctx)
	assert.Equal(t, "source.url", apperr.From(err).Field)
	// Any other field keeps its JSONName.
	_, err = db.Client.Site.Create().SetOrganizationID("org_x").SetTitle("x").Save(ctx)
	assert.Equal(t, "title", apperr.From(err).Field)
}
