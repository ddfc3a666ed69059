//go:build bindery_norewrite

package server

import (
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
)

// newPostTransport returns gqlgen's transport of POST requests as it is: a
// build with the bindery_norewrite tag runs gqlgen's code without Bindery's
// rewrites of it (graphqlpost.go, graph/internal/gqlgen). Without the
// option UseGrapQLResponseJsonByDefault, it chooses the media type of an
// answer as graphqlResponseType does: application/json when Accept is
// empty, */*, application/* or application/json.
func newPostTransport() graphql.Transport {
	return transport.POST{}
}
