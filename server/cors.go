package server

import (
	"net/http"

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
// them without the Authorization header. Requests authenticate with a
// bearer token, never a cookie, so credentials stay off: a page can act only
// with a token its user gave it.
func (s *Server) cors() func(http.Handler) http.Handler {
	if len(s.cfg.CORSOrigins) == 0 {
		return nil
	}
	return cors.New(cors.Options{
		AllowedOrigins: s.cfg.CORSOrigins,
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
