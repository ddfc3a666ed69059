package apperr

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
	"github.com/bindery/bindery/internal/store"
)

func TestFromClassifies(t *testing.T) {
	for _, tc := range []struct {
		err    error
		kind   Kind
		status int
		code   string
	}{
		{NotFoundf("space not found"), NotFound, 404, "NOT_FOUND"},
		{fmt.Errorf("wrapped: %w", Forbidden("no")), PermissionDenied, 403, "FORBIDDEN"},
		{Invalid("title", "too long"), InvalidArgument, 400, "BAD_USER_INPUT"},
		{Unauthenticatedf("no token"), Unauthenticated, 401, "UNAUTHENTICATED"},
		{Conflictf("taken"), Conflict, 409, "CONFLICT"},
		{Preconditionf("deleted"), PreconditionFailed, 412, "PRECONDITION_FAILED"},
		{RateLimitedf("slow down"), RateLimited, 429, "RATE_LIMITED"},
		{TooLargef("big"), TooLarge, 413, "REQUEST_TOO_LARGE"},
		{fmt.Errorf("query: %w", context.DeadlineExceeded), Timeout, 504, "TIMEOUT"},
		{fmt.Errorf("query: %w", context.Canceled), Canceled, 499, "CLIENT_CLOSED_REQUEST"},
		{&ent.NotFoundError{}, NotFound, 404, "NOT_FOUND"},
		{&ent.ConstraintError{}, Conflict, 409, "CONFLICT"},
		{errors.New("pq: relation does not exist"), Internal, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR"},
	} {
		e := From(tc.err)
		assert.Equal(t, tc.kind, e.Kind, tc.err.Error())
		assert.Equal(t, tc.status, e.Kind.HTTPStatus())
		assert.Equal(t, tc.code, e.Kind.Code())
	}
}

// A driver reports a cancelled statement in its own words; the request's
// context says what happened.
func TestFromContextNamesTheEndOfTheRequest(t *testing.T) {
	driver := errors.New("pq: canceling statement due to user request")
	assert.Equal(t, Internal, FromContext(context.Background(), driver).Kind)
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	assert.Equal(t, Timeout, FromContext(expired, driver).Kind)
	gone, leave := context.WithCancel(context.Background())
	leave()
	assert.Equal(t, Canceled, FromContext(gone, driver).Kind)
	assert.Equal(t, NotFound, FromContext(gone, NotFoundf("x")).Kind, "an error the application chose keeps its kind")
}

func TestInternalMessageHidesCause(t *testing.T) {
	e := From(errors.New("dial tcp 10.0.0.3:5432: secret detail"))
	assert.Equal(t, InternalMessage, e.Message)
}

func TestJSONName(t *testing.T) {
	assert.Equal(t, "displayName", JSONName("display_name"))
	assert.Equal(t, "ssoURL", JSONName("sso_url"))
	assert.Equal(t, "entityID", JSONName("entity_id"))
	assert.Equal(t, "title", JSONName("title"))
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
	e := From(fmt.Errorf("saving: %w", err))
	assert.Equal(t, InvalidArgument, e.Kind)
	assert.Equal(t, "displayName", e.Field)
	assert.Equal(t, "displayName: must be at most 255 characters", e.Message)
}
