package reader

import (
	"encoding/json"
	"net/url"
	"strings"
)

// publicClaimsCookie is the cookie in which a site's own pages give
// unsigned claims of the visitor, as a JSON object, as GitBook takes them.
const publicClaimsCookie = "gitbook-visitor-public"

// claimParam prefixes the query parameters that give unsigned claims:
// ?visitor.plan=pro.
const claimParam = "visitor."

// unsignedClaims reads the unsigned claims a visitor brings: those of the
// gitbook-visitor-public cookie, then those of visitor.<claim> parameters,
// which win. A parameter's value is JSON when it reads as JSON (true, 3,
// "x"), else the string. The site's adaptive schema decides which count.
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
	for k, vals := range v.req.URL.Query() {
		name, ok := strings.CutPrefix(k, claimParam)
		if !ok || name == "" || len(vals) == 0 {
			continue
		}
		var val any
		if json.Unmarshal([]byte(vals[0]), &val) != nil {
			val = vals[0]
		}
		claims[name] = val
	}
	if len(claims) == 0 {
		return nil
	}
	return claims
}
