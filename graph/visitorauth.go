package graph

import (
	"context"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/visitor"
)

// Visitor authentication of sites and spaces: a visitor-auth site or space
// admits the visitors whose JWT (visitorAuthToken) its visitor signing key
// signed. Both use the same key generation, storage (the
// visitor_auth_private_key field of each), token check (package visitor)
// and admission (visitorAdmitted); a site also reads the visitor's claims
// for adaptive content, a space only admits.
//
// The rules:
//   - A token admits a reader only to a site or space whose visibility is
//     visitor-auth (and, for a site, that is published); it opens reading,
//     never writing.
//   - A token that is not valid (signature, algorithm, expiry, no exp, no
//     key) is the same 404 as no token for someone it would have admitted,
//     and a 400 naming visitorAuthToken for someone who sees the site or
//     space anyway.
//   - Setting a space's visibility to visitor-auth needs no key: until its
//     admin rotates one, the space admits its members only, as a site
//     without a key does.

// PresentKeys records the share key and visitor JWT the request presents
// for a site or space (by ID), so that every decision about it in the
// request takes them into account. Empty or nil values record nothing.
func (r *Resolver) PresentKeys(ctx context.Context, id string, shareKey, visitorToken *string) {
	l := loadersFrom(ctx)
	if shareKey != nil && *shareKey != "" {
		l.setShareKey(id, *shareKey)
	}
	if visitorToken != nil && *visitorToken != "" {
		l.setVisitorToken(id, *visitorToken)
	}
}

// PresentUnsignedClaims records the unsigned claims a visitor of a site
// brought (GitBook's gitbook-visitor-public cookie and visitor.<claim>
// parameters): with adaptive content, those the site's adaptive schema
// accepts join the visitor's claims as visitor.claims.unsigned.
func (r *Resolver) PresentUnsignedClaims(ctx context.Context, siteID string, claims map[string]any) {
	if len(claims) > 0 {
		loadersFrom(ctx).setUnsignedClaims(siteID, claims)
	}
}

// visitorClaimsOf returns the claims of the visitor JWT the request
// presented for a site or space (by ID), checked against its key (nil:
// none); nil without a token. A token that is not valid is a 400 naming
// visitorAuthToken.
func (r *Resolver) visitorClaimsOf(ctx context.Context, id string, key *string) (map[string]any, error) {
	token := loadersFrom(ctx).visitorToken(id)
	if token == "" {
		return nil, nil
	}
	claims, err := visitor.Claims(token, key, r.clock)
	if err != nil {
		return nil, apperr.Invalid(visitor.TokenField, "%v", err)
	}
	return claims, nil
}

// visitorAdmitted reports whether the request presented a valid visitor JWT
// for a site or space (by ID) with the key: the admission of a visitor to a
// visitor-auth site or space.
func (r *Resolver) visitorAdmitted(ctx context.Context, id string, key *string) bool {
	claims, err := r.visitorClaimsOf(ctx, id, key)
	return err == nil && claims != nil
}

// rotatedKey returns a new visitor signing key, for a site or a space.
func rotatedKey() string { return visitor.NewKey() }
