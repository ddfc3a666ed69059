package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"

	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/store"
)

// baseline serves GET /v1/spaces/{spaceId} with the least a real service
// does: net/http, database/sql over the driver and connection pool Bindery
// uses (store.Open), two statements (the token by its hash, then the space),
// and a JSON answer. It does no authorization beyond the token, and its JSON
// is a few fields: it is the floor Bindery's figures are compared with, not
// an alternative.
type baseline struct {
	db                     *sql.DB
	tokenQuery, spaceQuery string
	// statements counts the statements sent.
	statements atomic.Int64
}

func newBaseline(db *store.DB) *baseline {
	b := &baseline{db: db.SQL,
		tokenQuery: `SELECT user_id, expires_at FROM api_tokens WHERE token_hash = $1`,
		spaceQuery: `SELECT id, title, emoji, visibility, organization_id, created_at, updated_at FROM spaces WHERE id = $1 AND deleted_at IS NULL`,
	}
	if db.Dialect == dialect.SQLite {
		b.tokenQuery = strings.ReplaceAll(b.tokenQuery, "$1", "?")
		b.spaceQuery = strings.ReplaceAll(b.spaceQuery, "$1", "?")
	}
	return b
}

// baselineSpace is the baseline's answer.
type baselineSpace struct {
	Object       string    `json:"object"`
	ID           string    `json:"id"`
	Title        string    `json:"title"`
	Emoji        string    `json:"emoji"`
	Visibility   string    `json:"visibility"`
	Organization string    `json:"organization"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

func (b *baseline) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("GET /v1/spaces/{spaceId}", b.space)
	return mux
}

func (b *baseline) space(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		writeJSONError(w, http.StatusUnauthorized, "Authentication is required")
		return
	}
	var userID string
	var expires sql.NullTime
	b.statements.Add(1)
	err := b.db.QueryRowContext(ctx, b.tokenQuery, auth.HashToken(token)).Scan(&userID, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows) || (err == nil && expires.Valid && !expires.Time.After(time.Now())):
		writeJSONError(w, http.StatusUnauthorized, "The API token is invalid or has expired")
		return
	case err != nil:
		writeJSONError(w, http.StatusInternalServerError, "Internal server error")
		return
	}
	sp := baselineSpace{Object: "space"}
	b.statements.Add(1)
	err = b.db.QueryRowContext(ctx, b.spaceQuery, r.PathValue("spaceId")).
		Scan(&sp.ID, &sp.Title, &sp.Emoji, &sp.Visibility, &sp.Organization, &sp.CreatedAt, &sp.UpdatedAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		writeJSONError(w, http.StatusNotFound, "Not found")
		return
	case err != nil:
		writeJSONError(w, http.StatusInternalServerError, "Internal server error")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(sp)
}

func writeJSONError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": message}})
}

// serveBaseline is the baseline subcommand: it serves until ctx ends.
func serveBaseline(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("baseline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := fs.String("db", "", "database: SQLite file path or postgres:// URL, already migrated")
	addr := fs.String("addr", "127.0.0.1:8081", "listen address")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *dsn == "" {
		return fmt.Errorf("%w: --db is required", errUsage)
	}
	db, err := store.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	return serveUntil(ctx, ln, newBaseline(db).handler(), stderr)
}

// serveUntil serves h on ln until ctx ends, then shuts the server down.
func serveUntil(ctx context.Context, ln net.Listener, h http.Handler, stderr io.Writer) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(slog.NewTextHandler(stderr, nil), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
