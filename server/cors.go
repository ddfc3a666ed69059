package server

import (
	"net/http"
	"slices"

	"github.com/rs/cors"
)

// corsExposedHeaders are the response headers a page on an allowed origin
// may read, beyond the CORS-safelisted ones.
var corsExposedHeaders = []string{
	"X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "Location",
}

// cors lets pages on the origins of BINDERY_CORS_ORIGINS call the APIs from
// a browser, or returns nil when none is configured: then no response
// carries a CORS header.
//
// It answers preflights itself, before authentication, since a browser sends
// them without the Authorization header. A page of a listed origin may also
// send the browser's session cookie (credentials), which reaches Bindery
// when the page's site is Bindery's own (a sibling subdomain: the cookie is
// SameSite=Lax) and is trusted by the cross-origin check (see
// Server.authenticate). "*" never allows credentials: any site could then
// act as a signed-in person.
func (s *Server) cors() func(http.Handler) http.Handler {
	if len(s.cfg.CORSOrigins) == 0 {
		return nil
	}
	return cors.New(cors.Options{
		AllowCredentials: !slices.Contains(s.cfg.CORSOrigins, "*"),
		AllowedOrigins:   s.cfg.CORSOrigins,
		AllowedMethods: []string{
			http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
		},
		AllowedHeaders: []string{"Authorization", "Content-Type", "X-Request-Id"},
		ExposedHeaders: corsExposedHeaders,
		// Browsers cap it (Chromium at two hours); ten minutes keeps a
		// changed policy quick to take effect.
		MaxAge: 600,
	}).Handler
}
