package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/store"
)

// ownerEmail is the owner the first start creates.
const ownerEmail = "owner@bindery.local"

// ownerToken seeds an empty database when seeding is on, and shows the
// owner's API token. Without a token file the first start's token is shown
// once. With one (make run passes the database's path plus ".token"), the
// token kept there is shown at every start while it still signs the owner
// in; when it is missing, expired or revoked a new one is minted and kept.
// New tokens expire after ttl (0: never).
func ownerToken(ctx context.Context, r *graph.Resolver, db *store.DB, seed bool, path string, ttl time.Duration, log *slog.Logger) error {
	now := time.Now()
	var expiry *time.Time
	if ttl > 0 {
		at := now.Add(ttl)
		expiry = &at
	}
	var seeded *graph.Seeded
	if seed {
		var err error
		if seeded, err = r.Seed(ctx, ownerEmail, expiry, db.LockSeed); err != nil {
			return fmt.Errorf("seeding the empty database: %w", err)
		}
	}
	if seeded != nil {
		msg := "created the owner, a demo organization and an API token for the owner; keep the token, it is shown only once"
		if path != "" {
			msg = "created the owner, a demo organization and an API token for the owner, kept in the token file"
		}
		log.Info(msg, "owner", seeded.Owner.Email, "organization", seeded.Organization.ID, "token", seeded.Token, "expires", expiryText(expiry))
		log.Info("published a demo site of the demo spaces: open it in a browser", "site", seeded.SiteURL)
	}
	if path == "" {
		return nil
	}
	if seeded != nil {
		return keepToken(path, seeded.Token)
	}
	// A development start (make run) names the published sites again.
	if urls, err := r.PublishedSiteURLs(ctx, 3); err == nil && len(urls) > 0 {
		log.Info("published sites: open them in a browser", "sites", strings.Join(urls, " "))
	}
	if token := keptToken(ctx, r, path, now); token != "" {
		log.Info("the owner's API token, from the token file", "owner", ownerEmail, "token", token, "file", path)
		return nil
	}
	var token string
	err := store.WithTx(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
		u, err := graph.EnsureUser(ctx, tx, ownerEmail)
		if err != nil {
			return fmt.Errorf("owner: %w", err)
		}
		token, _, err = graph.IssueToken(ctx, tx, u.ID, "make run", expiry)
		return err
	})
	if err != nil {
		return fmt.Errorf("minting the owner's API token: %w", err)
	}
	if err := keepToken(path, token); err != nil {
		return err
	}
	log.Info("minted an API token for the owner and kept it in the token file", "owner", ownerEmail, "token", token,
		"expires", expiryText(expiry), "file", path)
	return nil
}

// keptToken is the token in path when it still signs the owner in, or "".
func keptToken(ctx context.Context, r *graph.Resolver, path string, now time.Time) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	token := strings.TrimSpace(string(b))
	v, err := r.Authenticate(ctx, token, now)
	if err != nil || v == nil || v.User == nil || !strings.EqualFold(v.User.Email, ownerEmail) {
		return ""
	}
	return token
}

// keepToken writes token to path, readable by its owner only, replacing
// the file whole so that a crash never leaves half a token.
func keepToken(path, token string) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("keeping the token: %w", err)
	}
	_, werr := f.WriteString(token + "\n")
	cerr := f.Close()
	if err := errors.Join(werr, cerr, os.Chmod(f.Name(), 0o600)); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("keeping the token: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("keeping the token: %w", err)
	}
	return nil
}

func expiryText(at *time.Time) string {
	if at == nil {
		return "never"
	}
	return at.UTC().Format(time.RFC3339)
}
