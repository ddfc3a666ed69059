package purge

import (
	"context"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/apitoken"
	"github.com/bindery/bindery/ent/signinflow"
	"github.com/bindery/bindery/ent/signinreplay"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/store"
)

// SignIns deletes what sign-in keeps past its use: sign-ins under way that
// expired, records of used proofs that could no longer be presented, and
// sessions past their lifetime. None of them can authenticate anything any
// more; this only keeps the tables small.
func SignIns(ctx context.Context, client *ent.Client, now time.Time) (int, error) {
	ctx = store.OutsideTx(ctx)
	flows, err := client.SignInFlow.Delete().Where(signinflow.ExpiresAtLT(now)).Exec(ctx)
	if err != nil {
		return 0, err
	}
	replays, err := client.SignInReplay.Delete().Where(signinreplay.ExpiresAtLT(now)).Exec(ctx)
	if err != nil {
		return flows, err
	}
	sessions, err := client.APIToken.Delete().
		Where(apitoken.KindEQ(enum.CredentialKindSession), apitoken.ExpiresAtLT(now)).Exec(ctx)
	return flows + replays + sessions, err
}
