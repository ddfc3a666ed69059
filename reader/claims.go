package reader

import (
	"encoding/json"
	"maps"
	"net/url"

	"github.com/bindery/bindery/internal/adaptive"
)

// publicClaimsCookie is the cookie in which a site's own pages give
// unsigned claims of the visitor, as a JSON object, as GitBook takes them.
const publicClaimsCookie = "gitbook-visitor-public"

// unsignedClaims reads the unsigned claims a visitor brings: those of the
// gitbook-visitor-public cookie, then those of visitor.<claim> parameters,
// which win (see adaptive.QueryClaims). The site's adaptive schema decides
// which count.
func (v *visit) unsignedClaims() map[string]any {
	claims := map[string]any{}
	if raw := cookie(v.req, publicClaimsCookie); raw != "" {
		if s, err := url.QueryUnescape(raw); err == nil {
			raw = s
		}
		var m map[string]any
		if json.Unmarshal([]byte(raw), &m) == nil {
			for k, val := range m {
				claims[k] = val
			}
		}
	}
	maps.Copy(claims, adaptive.QueryClaims(v.req.URL.Query()))
	if len(claims) == 0 {
		return nil
	}
	return claims
}
