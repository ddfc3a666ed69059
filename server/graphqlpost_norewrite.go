//go:build bindery_norewrite

package server

import (
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
)

// newPostTransport returns gqlgen's transport of POST requests as it is: a
// build with the bindery_norewrite tag runs gqlgen's code without Bindery's
// rewrites of it (graphqlpost.go, graph/internal/gqlgen). Its answers
// default to application/graphql-response+json, as graphqlResponseType's
// do.
func newPostTransport() graphql.Transport {
	return transport.POST{UseGrapQLResponseJsonByDefault: true}
}
