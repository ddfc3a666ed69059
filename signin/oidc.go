package signin

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/bindery/bindery/internal/config"
)

// oidcProviders are the configured OpenID Connect providers.
type oidcProviders struct {
	providers []config.OIDCProvider
}

func newOIDCProviders(_ context.Context, cfg config.Config, _ *slog.Logger) *oidcProviders {
	return &oidcProviders{providers: cfg.OIDCProviders}
}

// list returns the providers, in the configured order.
func (o *oidcProviders) list() []config.OIDCProvider { return o.providers }

func (h *Handler) oidcStart(w http.ResponseWriter, r *http.Request)    { http.NotFound(w, r) }
func (h *Handler) oidcCallback(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }
