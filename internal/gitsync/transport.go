package gitsync

import (
	"context"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/bindery/bindery/internal/importer"
)

// go-git v5 picks the transport of a URL's scheme from a table of the
// process, not per call, so the package installs its HTTP client there
// once. The client's dialer is the one of Bindery's other outgoing
// requests: private, loopback, link-local and other special-purpose
// addresses are refused at connect time, after DNS, so neither a host
// name that resolves inward nor a redirect reaches them, unless the call's
// context allows them (WithPrivateAddresses).
func init() {
	safe := importer.SafeDialer(false)
	dialer := &net.Dialer{Timeout: safe.Timeout, KeepAlive: safe.KeepAlive,
		ControlContext: func(ctx context.Context, network, address string, c syscall.RawConn) error {
			if allowsPrivate(ctx) {
				return nil
			}
			return safe.Control(network, address, c)
		}}
	c := githttp.NewClient(&http.Client{Transport: &http.Transport{
		// No proxy: a proxy would make the connection the dialer checks.
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: time.Minute,
		IdleConnTimeout:       30 * time.Second,
	}})
	client.InstallProtocol("http", c)
	client.InstallProtocol("https", c)
}

type privateKey struct{}

// WithPrivateAddresses lets the Fetch and Push calls made with the
// returned context reach loopback and private addresses: for a server
// whose repositories are on its own network, and for tests.
func WithPrivateAddresses(ctx context.Context) context.Context {
	return context.WithValue(ctx, privateKey{}, true)
}

func allowsPrivate(ctx context.Context) bool {
	ok, _ := ctx.Value(privateKey{}).(bool)
	return ok
}
