package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/organization"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/store"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/server"
)

const usage = `Usage:
  bindery serve [--addr 127.0.0.1:8080] [--db DSN] [--no-introspection] [--no-seed]
                [--token-file FILE] [--token-ttl 720h]
  bindery migrate [--db DSN] [--status | --dry-run]
  bindery org create [--db DSN] --title TITLE --owner EMAIL
  bindery token create [--db DSN] --email EMAIL [--org ORGID --role ROLE]
  bindery routes [--json]
  bindery search reindex [--db DSN]
  bindery site visitor-link [--db DSN] --site SITEID [--claims JSON] [--ttl 1h]
  bindery secrets rotate [--db DSN] --old-key KEY --new-key KEY
  bindery backup [--db DSN] --out FILE
  bindery restore --from FILE [--db FILE] [--force]
  bindery version

DSN is a SQLite file path (default bindery.db) or a postgres:// URL.
Flags override the environment variables BINDERY_ADDR and BINDERY_DATABASE_URL.`

// errUsage marks a command line that could not be understood.
var errUsage = errors.New("invalid usage")

// dispatch is the whole program: main only wires the process to it.
func dispatch(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg := config.Default()
	if err := cfg.FromEnv(getenv); err != nil {
		return err
	}
	cmd := strings.Join(head(args[1:], 2), " ")
	switch {
	case cmd == "serve" || strings.HasPrefix(cmd, "serve "):
		return serve(ctx, cfg, args[2:], getenv, stderr)
	case cmd == "migrate" || strings.HasPrefix(cmd, "migrate "):
		return migrate(ctx, cfg, args[2:], stdout, stderr)
	case cmd == "org create":
		return createOrg(ctx, cfg, args[3:], stdout, stderr)
	case cmd == "token create":
		return createToken(ctx, cfg, args[3:], stdout, stderr)
	case cmd == "routes" || strings.HasPrefix(cmd, "routes "):
		return routes(args[2:], stdout, stderr)
	case cmd == "secrets rotate":
		return rotateSecrets(ctx, cfg, args[3:], stdout, stderr)
	case cmd == "search reindex":
		return reindex(ctx, cfg, args[3:], stdout, stderr)
	case cmd == "site visitor-link":
		return visitorLink(ctx, cfg, args[3:], stdout, stderr)
	case cmd == "backup" || strings.HasPrefix(cmd, "backup "):
		return backup(ctx, cfg, args[2:], stdout, stderr)
	case cmd == "restore" || strings.HasPrefix(cmd, "restore "):
		return restore(ctx, cfg, args[2:], stdout, stderr)
	case cmd == "version":
		return printVersion(stdout)
	case cmd == "" || cmd == "help" || cmd == "-h" || cmd == "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

// run dispatches a command line; a command's --help is not an error.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	err := dispatch(ctx, args, getenv, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

// parseFlags parses a command's flags: --help is flag.ErrHelp (the flag
// package has printed the command's flags), anything else not understood
// is a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return fmt.Errorf("%w: %v", errUsage, err)
}

func head(s []string, n int) []string {
	if len(s) < n {
		return s
	}
	return s[:n]
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// openConfigured completes cfg and opens its database, migrated: what every
// command that works on a database does first.
func openConfigured(ctx context.Context, cfg *config.Config) (*store.DB, error) {
	if err := cfg.Finish(); err != nil {
		return nil, err
	}
	return openMigrated(ctx, cfg.DatabaseURL)
}

// openMigrated opens the database and applies its pending migrations.
func openMigrated(ctx context.Context, dsn string) (*store.DB, error) {
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func serve(ctx context.Context, cfg config.Config, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address")
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	noIntrospection := fs.Bool("no-introspection", false, "turn GraphQL introspection off")
	noSeed := fs.Bool("no-seed", false, "do not seed an empty database")
	tokenFile := fs.String("token-file", "", "keep the owner's API token in this file (mode 0600) and show it at every start, minting a new one only when it no longer works")
	tokenTTL := fs.Duration("token-ttl", 30*24*time.Hour, "lifetime of the owner token the first start (or --token-file) creates; 0 for a token that never expires")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *noIntrospection {
		cfg.Introspection = false
	}
	if *noSeed {
		cfg.Seed = false
	}
	if *tokenTTL < 0 {
		return fmt.Errorf("%w: --token-ttl must not be negative", errUsage)
	}
	if err := cfg.Finish(); err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	if err := secretKey(&cfg, log); err != nil {
		return err
	}
	defer tuneMemory(cfg.MemoryLimit, cfg.HeapFloorBytes, getenv, log)()
	// The ports first: a port that is taken fails the start before the
	// database is touched or a token minted.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listening: %w", err)
	}
	var debug, metrics net.Listener
	closeListeners := func() {
		for _, l := range []net.Listener{ln, debug, metrics} {
			if l != nil {
				l.Close()
			}
		}
	}
	if cfg.DebugAddr != "" {
		if debug, err = net.Listen("tcp", cfg.DebugAddr); err != nil {
			closeListeners()
			return fmt.Errorf("listening on BINDERY_DEBUG_ADDR: %w", err)
		}
	}
	if cfg.MetricsAddr != "" {
		if metrics, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			closeListeners()
			return fmt.Errorf("listening on BINDERY_METRICS_ADDR: %w", err)
		}
	}
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		closeListeners()
		return err
	}
	defer db.Close()
	start := time.Now()
	applied, err := db.ApplyMigrations(ctx)
	if err != nil {
		closeListeners()
		return err
	}
	if len(applied) > 0 {
		log.Info("migrated the database", "applied", applied, "took", time.Since(start).Round(time.Millisecond))
	}
	srv, err := server.New(cfg, db, log)
	if err != nil {
		closeListeners()
		return err
	}
	defer srv.Close()
	if metrics != nil {
		srv.UseMetricsListener(metrics)
	}
	if err := ownerToken(ctx, srv.Resolver(), db, cfg.Seed, *tokenFile, *tokenTTL, log); err != nil {
		closeListeners()
		return err
	}
	if debug != nil {
		go func() {
			if err := server.ServeDebug(ctx, debug, log); err != nil {
				log.Error("serving the profiler", "error", err)
			}
		}()
	}
	log.Info("bindery is serving", "addr", ln.Addr().String(), "dialect", db.Dialect,
		"sign_in", cfg.PublicURL+"/auth/sign-in", "graphql", cfg.PublicURL+"/graphql", "playground", cfg.PublicURL+"/playground",
		"rest", cfg.PublicURL+"/v1")
	return srv.Run(ctx, ln)
}

// routes describes /v1 from its route table: a line per operation, or with
// --json an array of {method, path, operationId, status} for tools.
func routes(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("routes", stderr)
	asJSON := fs.Bool("json", false, "print a JSON array of {method, path, operationId, status}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: routes takes no arguments", errUsage)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rest.Operations())
	}
	for _, r := range rest.RouteList() {
		fmt.Fprintln(stdout, r)
	}
	return nil
}

// migrate applies the pending migration files; --status lists what the
// database applied and what is pending, --dry-run prints the SQL that
// would run. Neither changes the database.
func migrate(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate", stderr)
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	status := fs.Bool("status", false, "list the migration files the database applied and those pending; change nothing")
	dryRun := fs.Bool("dry-run", false, "print the SQL of the pending migration files without running it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: migrate takes no arguments", errUsage)
	}
	if *status && *dryRun {
		return fmt.Errorf("%w: --status and --dry-run go alone", errUsage)
	}
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	switch {
	case *status:
		st, err := db.MigrationStatus(ctx)
		if err != nil {
			return err
		}
		printMigrationStatus(stdout, st)
		return nil
	case *dryRun:
		return db.WritePendingMigrations(ctx, stdout)
	}
	applied, err := db.ApplyMigrations(ctx)
	if err != nil {
		return err
	}
	for _, name := range applied {
		fmt.Fprintln(stdout, "applied", name)
	}
	if len(applied) == 0 {
		fmt.Fprintln(stdout, "the database is up to date")
	}
	return nil
}

// printMigrationStatus writes a line per migration file, then the count of
// pending files.
func printMigrationStatus(w io.Writer, st *store.MigrationStatus) {
	if st.Adopt {
		fmt.Fprintln(w, "The database was migrated automatically by an earlier release: migrating adopts it,\n"+
			"recording the baseline as applied without running it.")
	}
	for _, f := range st.Files {
		switch {
		case f.Applied && f.Baseline:
			fmt.Fprintf(w, "applied  %s  %s (baseline, adopted)\n", f.Name, f.AppliedAt.UTC().Format(time.RFC3339))
		case f.Applied:
			fmt.Fprintf(w, "applied  %s  %s\n", f.Name, f.AppliedAt.UTC().Format(time.RFC3339))
		case f.Baseline:
			fmt.Fprintf(w, "pending  %s  (baseline: to be recorded, not run)\n", f.Name)
		default:
			fmt.Fprintf(w, "pending  %s\n", f.Name)
		}
	}
	fmt.Fprintf(w, "%d applied, %d pending\n", len(st.Files)-len(st.Pending()), len(st.Pending()))
}

// reindex rebuilds the search index of every space from its current
// content, for a database from before search; servers may keep serving.
func reindex(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search reindex", stderr)
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := openConfigured(ctx, &cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	n := 0
	if err := graph.New(db.Client, cfg).ReindexSearch(ctx, func(string) { n++ }); err != nil {
		return err
	}
	// The count alone on stdout, for scripts; the sentence for people.
	fmt.Fprintln(stdout, n)
	noun := "spaces"
	if n == 1 {
		noun = "space"
	}
	fmt.Fprintf(stderr, "reindexed the current content of %d %s\n", n, noun)
	return nil
}

// visitorLink prints a site's published address with a visitor token for
// the claims given, signed with the site's visitor key: a visitor's way
// in, for trying a visitor-auth site or adaptive content.
func visitorLink(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("site visitor-link", stderr)
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	siteID := fs.String("site", "", "the site")
	claimsJSON := fs.String("claims", "{}", "the visitor's claims, a JSON object")
	ttl := fs.Duration("ttl", time.Hour, "how long the token is valid")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var claims map[string]any
	if err := json.Unmarshal([]byte(*claimsJSON), &claims); err != nil || claims == nil {
		return fmt.Errorf("%w: --claims must be a JSON object", errUsage)
	}
	if *siteID == "" || *ttl <= 0 {
		return fmt.Errorf("%w: --site is required, and --ttl must be positive", errUsage)
	}
	db, err := openConfigured(ctx, &cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	link, err := graph.New(db.Client, cfg).VisitorLink(ctx, *siteID, claims, *ttl)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, link)
	return nil
}

func createOrg(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("org create", stderr)
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	title := fs.String("title", "", "title of the organization (2 to 255 characters)")
	owner := fs.String("owner", "", "email of the owner, created if missing")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *title == "" || *owner == "" {
		return fmt.Errorf("%w: --title and --owner are required", errUsage)
	}
	db, err := openConfigured(ctx, &cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	r := graph.New(db.Client, cfg)
	// One transaction, which the mutation joins: an organization that
	// cannot be created leaves no owner behind.
	var orgID string
	err = store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		u, err := graph.EnsureUser(ctx, tx, *owner)
		if err != nil {
			return fmt.Errorf("owner: %w", err)
		}
		ctx = r.WithLoaders(auth.WithViewer(ctx, &auth.Viewer{User: u}))
		p, err := r.Mutation().CreateOrganization(ctx, model.CreateOrganizationInput{Title: *title})
		if err != nil {
			return err
		}
		orgID = p.Organization.ID
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, orgID)
	fmt.Fprintf(stderr, "created the organization %q (%s), owned by %s\n", *title, orgID, *owner)
	return nil
}

func createToken(ctx context.Context, cfg config.Config, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("token create", stderr)
	fs.StringVar(&cfg.DatabaseURL, "db", cfg.DatabaseURL, "database: SQLite file path or postgres:// URL")
	email := fs.String("email", "", "email of the user, created if missing")
	orgID := fs.String("org", "", "organization to make the user a member of")
	roleName := fs.String("role", "", "role in the organization: "+strings.Join(enum.Role("").Values(), ", "))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *email == "" {
		return fmt.Errorf("%w: --email is required", errUsage)
	}
	if (*orgID == "") != (*roleName == "") {
		return fmt.Errorf("%w: --org and --role go together", errUsage)
	}
	var role enum.Role
	if *roleName != "" {
		var err error
		if role, err = enum.ParseRole(*roleName); err != nil {
			return fmt.Errorf("--role: %w", err)
		}
	}
	db, err := openMigrated(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	var token string
	err = store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		u, err := graph.EnsureUser(ctx, tx, *email)
		if err != nil {
			return fmt.Errorf("user: %w", err)
		}
		if *orgID != "" {
			exists, err := tx.Organization.Query().Where(organization.ID(*orgID)).Exist(ctx)
			if err != nil {
				return err
			}
			if !exists {
				return fmt.Errorf("organization %q not found", *orgID)
			}
			err = tx.Member.Create().SetOrganizationID(*orgID).SetUserID(u.ID).SetRole(role).
				OnConflictColumns(member.FieldOrganizationID, member.FieldUserID).UpdateRole().Exec(ctx)
			if err != nil {
				return fmt.Errorf("membership: %w", err)
			}
		}
		token, _, err = graph.IssueToken(ctx, tx, u.ID, "Command line", nil)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, token)
	if *orgID != "" {
		fmt.Fprintf(stderr, "created an API token for %s, a member of %s with the role %s; it does not expire\n", *email, *orgID, role)
	} else {
		fmt.Fprintf(stderr, "created an API token for %s; it does not expire\n", *email)
	}
	return nil
}
