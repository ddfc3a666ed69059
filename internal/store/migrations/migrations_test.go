package migrations_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/store/migrations"
)

// fix is the command that writes the missing migration.
const fix = "make migration NAME=describe_the_change (needs BINDERY_TEST_DATABASE_URL, see docs/development.md)"

// The committed migration files produce the ent schema, and their atlas.sum
// is current: a schema change without its migration fails here, on SQLite
// always and on PostgreSQL when BINDERY_TEST_DATABASE_URL is set.
func TestDrift(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, d := range migrations.Dialects {
		t.Run(migrations.DirName(d), func(t *testing.T) {
			t.Parallel()
			dir, err := migrations.Dir(d)
			require.NoError(t, err)
			if err := migrate.Validate(dir); err != nil {
				if errors.Is(err, migrate.ErrChecksumMismatch) {
					t.Fatalf("internal/store/migrations/%s/atlas.sum does not match the files: a migration file was edited by hand, "+
						"or two branches added migrations (merge: keep both files, rewrite atlas.sum with "+
						"`go run ./cmd/newmigration -rehash`, then check the order of the files): %v", migrations.DirName(d), err)
				}
				t.Fatal(err)
			}
			var dev migrations.Dev
			if d == dialect.SQLite {
				db, err := migrations.OpenSQLiteDev()
				require.NoError(t, err)
				t.Cleanup(func() { db.Close() })
				dev.DB = db
			} else {
				base := os.Getenv("BINDERY_TEST_DATABASE_URL")
				if base == "" {
					t.Skip("BINDERY_TEST_DATABASE_URL is not set")
				}
				url, drop, err := migrations.OpenPostgresDev(ctx, base)
				require.NoError(t, err)
				t.Cleanup(func() { require.NoError(t, drop()) })
				dev.URL = url
			}
			before, err := dir.Files()
			require.NoError(t, err)
			wrote, err := migrations.Plan(ctx, d, dev, dir, "99999999999999", "drift")
			require.NoError(t, err)
			if wrote {
				after, err := dir.Files()
				require.NoError(t, err)
				var missing strings.Builder
				for _, f := range after[len(before):] {
					missing.Write(f.Bytes())
				}
				t.Fatalf("the ent schema has changes without a migration: run %s\n\nThe %s migration would be:\n%s",
					fix, migrations.DirName(d), missing.String())
			}
		})
	}
}
